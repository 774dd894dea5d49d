-- Installing the extension into a schema that is not on the search_path, and calling
-- everything schema-qualified; and no existing expression becomes ambiguous after
-- CREATE EXTENSION, wherever the extension lives.
SELECT current_database() AS regress_db \gset
CREATE DATABASE ulid_schema_test;
\c ulid_schema_test
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

-- Before: how some core expressions resolve.
CREATE TEMP TABLE resolved_before AS
SELECT 'a'::text = 'a'::text AS text_eq,
       'a'::text = 'a' AS text_eq_unknown,
       pg_typeof('a' || 'b') AS unknown_concat,
       pg_typeof(coalesce('x'::text, '01ARZ3NDEKTSV4RRFFQ69G5FAV')) AS text_coalesce_unknown,
       pg_typeof(upper('01arz3ndektsv4rrffq69g5fav')) AS upper_unknown,
       '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid = '01563e3a-b5d3-d676-4c61-efb99302bd5b' AS uuid_eq,
       pg_typeof(1::bigint + 1) AS bigint_plus_int,
       pg_typeof(max(x)) AS max_bigint,
       '7'::bigint = 7 AS bigint_eq_int,
       pg_typeof(now() - interval '1 day') AS timestamptz_minus
FROM (VALUES (1::bigint)) AS v(x);

CREATE SCHEMA ids;
CREATE EXTENSION ulid SCHEMA ids;
SELECT extname, extnamespace::regnamespace, extrelocatable FROM pg_extension WHERE extname = 'ulid';
-- Nothing of the extension is visible without the schema ...
SELECT gen_ulid();
-- ... and everything works qualified.
SELECT ids.gen_ulid() IS NOT NULL AS gen_ulid,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ids.ulid::uuid AS ulid_to_uuid,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ids.ulid OPERATOR(ids.=) '01arz3ndektsv4rrffq69g5fav'::ids.ulid AS ulid_eq,
       ids.ulid_timestamp('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS ulid_time,
       '00CMXB6TAK4SA'::ids.ulidflake::bigint AS flake_to_bigint,
       '00CMXB6TAK4SA'::ids.ulidflake OPERATOR(ids.<) '7ZZZZZZZZZZZZ'::ids.ulidflake AS flake_lt;
CREATE TABLE qualified (id ids.ulid PRIMARY KEY DEFAULT ids.gen_ulid(), f ids.ulidflake);
INSERT INTO qualified (f) VALUES ('00CMXB6TAK4SA'), ('00CMXB6TAK4SB');
SELECT ids.max(f), count(*) FROM qualified;
CREATE INDEX ON qualified USING hash (id);
CREATE INDEX ON qualified USING brin (f);
DROP TABLE qualified;

-- After: the same expressions resolve the same way, with and without the schema on the path.
SELECT (SELECT row(r.*)::text FROM resolved_before r) = (
    SELECT row(r.*)::text FROM (
        SELECT 'a'::text = 'a'::text AS text_eq,
               'a'::text = 'a' AS text_eq_unknown,
               pg_typeof('a' || 'b') AS unknown_concat,
               pg_typeof(coalesce('x'::text, '01ARZ3NDEKTSV4RRFFQ69G5FAV')) AS text_coalesce_unknown,
               pg_typeof(upper('01arz3ndektsv4rrffq69g5fav')) AS upper_unknown,
               '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid = '01563e3a-b5d3-d676-4c61-efb99302bd5b' AS uuid_eq,
               pg_typeof(1::bigint + 1) AS bigint_plus_int,
               pg_typeof(max(x)) AS max_bigint,
               '7'::bigint = 7 AS bigint_eq_int,
               pg_typeof(now() - interval '1 day') AS timestamptz_minus
        FROM (VALUES (1::bigint)) AS v(x)) r) AS unchanged_off_path;
SET search_path = ids, public;
SELECT (SELECT row(r.*)::text FROM resolved_before r) = (
    SELECT row(r.*)::text FROM (
        SELECT 'a'::text = 'a'::text AS text_eq,
               'a'::text = 'a' AS text_eq_unknown,
               pg_typeof('a' || 'b') AS unknown_concat,
               pg_typeof(coalesce('x'::text, '01ARZ3NDEKTSV4RRFFQ69G5FAV')) AS text_coalesce_unknown,
               pg_typeof(upper('01arz3ndektsv4rrffq69g5fav')) AS upper_unknown,
               '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid = '01563e3a-b5d3-d676-4c61-efb99302bd5b' AS uuid_eq,
               pg_typeof(1::bigint + 1) AS bigint_plus_int,
               pg_typeof(max(x)) AS max_bigint,
               '7'::bigint = 7 AS bigint_eq_int,
               pg_typeof(now() - interval '1 day') AS timestamptz_minus
        FROM (VALUES (1::bigint)) AS v(x)) r) AS unchanged_on_path;
SELECT * FROM resolved_before;
-- The extension's own types resolve with unknown literals.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01arz3ndektsv4rrffq69g5fav' AS ulid_eq,
       '00CMXB6TAK4SA'::ulidflake < '00CMXB6TAK4SB' AS flake_lt,
       min(x) AS min_ulid
FROM (VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid)) AS v(x);

\c :regress_db
DROP DATABASE ulid_schema_test;
