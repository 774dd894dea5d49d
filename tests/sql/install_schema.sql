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
-- The extension is relocatable: ALTER EXTENSION ... SET SCHEMA moves every object of it, and
-- everything works from the new schema, also what was made before the move (a table with
-- defaults, a generated column, btree, hash and BRIN indexes, each read after the move).
CREATE TABLE public.moved (id ulid PRIMARY KEY DEFAULT gen_ulid(), f ulidflake DEFAULT gen_ulidflake(),
                    seq ulid DEFAULT gen_monotonic_ulid(), at timestamptz GENERATED ALWAYS AS (id::timestamptz) STORED);
CREATE INDEX moved_id_hash ON moved USING hash (id);
CREATE INDEX moved_f_brin ON moved USING brin (f);
CREATE INDEX moved_seq ON moved (seq);
INSERT INTO moved DEFAULT VALUES;
CREATE SCHEMA ids2;
ALTER EXTENSION ulid SET SCHEMA ids2;
SELECT classid::regclass::text AS catalog, count(*) AS objects,
       count(*) FILTER (WHERE coalesce(p.pronamespace, t.typnamespace, o.oprnamespace, c.opcnamespace, f.opfnamespace) = 'ids2'::regnamespace) AS in_ids2
FROM pg_depend d
LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
LEFT JOIN pg_type t ON d.classid = 'pg_type'::regclass AND t.oid = d.objid
LEFT JOIN pg_operator o ON d.classid = 'pg_operator'::regclass AND o.oid = d.objid
LEFT JOIN pg_opclass c ON d.classid = 'pg_opclass'::regclass AND c.oid = d.objid
LEFT JOIN pg_opfamily f ON d.classid = 'pg_opfamily'::regclass AND f.oid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid') AND d.deptype = 'e'
  AND d.classid <> 'pg_cast'::regclass
  AND coalesce(t.typelem, 0) = 0   -- (the array types are members from PostgreSQL 17 on)
GROUP BY 1 ORDER BY 1;
SET search_path = ids2, public;
INSERT INTO moved DEFAULT VALUES;
SET enable_seqscan = off;
SELECT count(*) AS rows, count(DISTINCT id) AS ids, count(*) FILTER (WHERE at = id::timestamptz) AS generated_ok,
       max(seq) > min(seq) AS monotonic, max(f) > min(f) AS flakes,
       (SELECT count(*) FROM moved m2 WHERE m2.id = (SELECT max(id) FROM moved)) AS hash_lookup,
       (SELECT count(*) FROM moved m3 WHERE m3.f >= (now() - interval '1 hour')::ulidflake) AS brin_range,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid::ulid::timestamp AS casts,
       ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS alias
FROM moved;
-- (As setup.sql's index_reads(), which lives in the regression database, not this one.)
CREATE FUNCTION pg_temp.index_reads(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    executed jsonb;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ' || query INTO executed;
    RETURN QUERY
    SELECT CASE WHEN n ->> 'Node Type' = 'Bitmap Index Scan'  -- (its rows are not comparable)
                THEN format('%s using %s: read %s time(s)', n ->> 'Node Type', n ->> 'Index Name', n ->> 'Actual Loops')
                ELSE format('%s using %s: %s rows', n ->> 'Node Type', n ->> 'Index Name',
                            round((n ->> 'Actual Rows')::numeric * (n ->> 'Actual Loops')::numeric)) END
    FROM jsonb_path_query(executed, 'strict $.**') AS n
    WHERE jsonb_typeof(n) = 'object' AND n ? 'Index Name';
END
$$;
SET enable_bitmapscan = off;
SELECT pg_temp.index_reads($$SELECT * FROM moved WHERE id = (SELECT max(id) FROM moved)$$);
SELECT pg_temp.index_reads($$SELECT * FROM moved WHERE seq > '00000000000000000000000000'$$);
RESET enable_bitmapscan;
SET enable_indexscan = off;
SELECT pg_temp.index_reads($$SELECT * FROM moved WHERE f >= (now() - interval '1 hour')::ulidflake$$);
RESET enable_indexscan;
RESET enable_seqscan;
DROP TABLE moved;
-- The extension's own types resolve with unknown literals.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01arz3ndektsv4rrffq69g5fav' AS ulid_eq,
       '00CMXB6TAK4SA'::ulidflake < '00CMXB6TAK4SB' AS flake_lt,
       min(x) AS min_ulid
FROM (VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid)) AS v(x);

\c :regress_db
DROP DATABASE ulid_schema_test;
