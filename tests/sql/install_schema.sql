-- Installing the extension into a schema that is not on the search_path, and calling
-- everything schema-qualified; and no existing expression becomes ambiguous after
-- CREATE EXTENSION, wherever the extension lives.
SELECT current_database() AS regress_db \gset
CREATE DATABASE ulid_schema_test;
\c ulid_schema_test
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

-- How some core expressions of text, uuid, bigint, timestamp and timestamptz resolve: the types
-- and values they come to. Run through EXECUTE, so that each call parses them again.
CREATE FUNCTION resolved() RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
    result text;
BEGIN
    EXECUTE $q$
    SELECT row(
       'a'::text = 'a'::text,
       'a'::text = 'a',
       pg_typeof('a' || 'b'),
       pg_typeof(coalesce('x'::text, '01ARZ3NDEKTSV4RRFFQ69G5FAV')),
       pg_typeof(upper('01arz3ndektsv4rrffq69g5fav')),
       '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid = '01563e3a-b5d3-d676-4c61-efb99302bd5b',
       pg_typeof(coalesce('01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid, NULL)),
       pg_typeof(1::bigint + 1),
       pg_typeof(max(x)),
       '7'::bigint = 7,
       pg_typeof(now() - interval '1 day'),
       pg_typeof(coalesce(localtimestamp, '2024-01-01')),
       pg_typeof(greatest(now(), localtimestamp)),
       '2024-01-01 00:00'::timestamp < '2024-01-01 00:30+00'::timestamptz,
       pg_typeof(date_trunc('day', '2024-01-01 10:00'::timestamp)),
       pg_typeof(date_trunc('day', '2024-01-01 10:00+00'::timestamptz)),
       pg_typeof('2024-01-02'::timestamp - '2024-01-01'),
       pg_typeof(max('2024-01-01'::timestamp)),
       '2024-01-01'::timestamp = '2024-01-01')::text
    FROM (VALUES (1::bigint)) AS v(x)
    $q$ INTO result;
    RETURN result;
END
$fn$;
CREATE TEMP TABLE resolved_before AS SELECT resolved() AS r;
SELECT r AS resolved_before FROM resolved_before;

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
SELECT resolved() = (SELECT r FROM resolved_before) AS unchanged_off_path;
SET search_path = ids, public;
SELECT resolved() = (SELECT r FROM resolved_before) AS unchanged_on_path;
-- The extension's own types resolve with unknown literals.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01arz3ndektsv4rrffq69g5fav' AS ulid_eq,
       '00CMXB6TAK4SA'::ulidflake < '00CMXB6TAK4SB' AS flake_lt,
       min(x) AS min_ulid
FROM (VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid)) AS v(x);

\c :regress_db
DROP DATABASE ulid_schema_test;
