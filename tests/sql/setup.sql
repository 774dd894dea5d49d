-- Helpers shared by the tests that follow (pg_regress runs them in one database).
-- pg_regress already ran CREATE EXTENSION ulid here (--load-extension).

-- The SQLSTATE and message of an error, or 'ok': lets a table of bad inputs show each error.
CREATE FUNCTION sqlstate_of(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE query;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;

-- The 80-bit randomness of a ulid as a number, to check increments.
CREATE FUNCTION random_part(u ulid) RETURNS numeric LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT trunc(sum(get_byte(u::bytea, i)::numeric * 256::numeric ^ (15 - i)))
    FROM generate_series(6, 15) AS i
$$;

-- A plan (EXPLAIN's JSON) as its nodes, one line each, indented by depth: the node type (with
-- "Parallel" for a parallel-aware node, "Partial" or "Finalize" for a split aggregate), the scan
-- direction and the index and table it reads. Costs, conditions and subplan names are left
-- out: their text differs between PostgreSQL majors, the plan's shape does not.
CREATE FUNCTION plan_lines(plan jsonb) RETURNS SETOF text LANGUAGE sql AS $$
    WITH RECURSIVE node(depth, n, path) AS (
        SELECT 0, plan -> 0 -> 'Plan', ARRAY[0]
        UNION ALL
        SELECT depth + 1, child.value, path || child.ordinality::int
        FROM node, jsonb_array_elements(n -> 'Plans') WITH ORDINALITY AS child
    )
    SELECT repeat('  ', depth) || concat_ws(' ',
           CASE WHEN (n ->> 'Parallel Aware')::boolean THEN 'Parallel' END,
           CASE WHEN n ->> 'Partial Mode' IN ('Partial', 'Finalize') THEN n ->> 'Partial Mode' END,
           n ->> 'Node Type',
           CASE WHEN n ->> 'Node Type' LIKE '%Index%Scan%' THEN n ->> 'Scan Direction' END,
           'using ' || (n ->> 'Index Name'), 'on ' || (n ->> 'Relation Name'))
    FROM node ORDER BY path
$$;

-- A query's plan, as plan_lines.
CREATE FUNCTION plan_nodes(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
BEGIN
    EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || query INTO plan;
    RETURN QUERY SELECT plan_lines(plan);
END
$$;

-- Runs a query once, keeping the rows it returned in a new table, under EXPLAIN ANALYZE (the
-- query of a CREATE TABLE AS may run in parallel): the rows, the plan that made them and the
-- parallel workers it launched all come from the same execution.
CREATE FUNCTION run_into(query text, into_table text, OUT workers_launched int, OUT plan text)
LANGUAGE plpgsql AS $$
DECLARE
    executed jsonb;
BEGIN
    EXECUTE format('EXPLAIN (ANALYZE, COSTS OFF, FORMAT JSON) CREATE TABLE %I AS %s', into_table, query)
        INTO executed;
    workers_launched := coalesce((SELECT sum(w::int) FROM jsonb_path_query(executed, 'strict $.**."Workers Launched"') AS w), 0);
    plan := (SELECT string_agg(btrim(line), ' > ') FROM plan_lines(executed) AS line);
END
$$;

-- The indexes one execution of a query read (EXPLAIN ANALYZE), in plan order: the scan node, the
-- index, and the rows it returned over all its loops (a bitmap index scan: how many times it
-- ran). Proves an index was read, not only planned.
CREATE FUNCTION index_reads(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
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

-- How the sorts of a query ran (EXPLAIN ANALYZE): method and where, e.g. "external merge, Disk".
CREATE FUNCTION sort_methods(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    executed jsonb;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, FORMAT JSON) ' || query INTO executed;
    RETURN (SELECT string_agg((n ->> 'Sort Method') || ', ' || (n ->> 'Sort Space Type'), '; ')
            FROM jsonb_path_query(executed, 'strict $.**') AS n
            WHERE jsonb_typeof(n) = 'object' AND n ? 'Sort Method');
END
$$;

-- What a bitmap scan of a query read, from EXPLAIN ANALYZE: heap blocks (exact and lossy) and
-- rows fetched then removed by the recheck; with the table's size in blocks.
CREATE FUNCTION bitmap_scan_reads(query text, tbl regclass, OUT heap_blocks bigint, OUT rows_rechecked_away bigint,
                                  OUT table_blocks bigint)
LANGUAGE plpgsql AS $$
DECLARE
    executed jsonb;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, FORMAT JSON) ' || query INTO executed;
    SELECT sum(coalesce((n ->> 'Exact Heap Blocks')::bigint, 0) + coalesce((n ->> 'Lossy Heap Blocks')::bigint, 0)),
           sum(coalesce((n ->> 'Rows Removed by Index Recheck')::bigint, 0))
    INTO heap_blocks, rows_rechecked_away
    FROM jsonb_path_query(executed, 'strict $.**') AS n
    WHERE jsonb_typeof(n) = 'object' AND n ->> 'Node Type' = 'Bitmap Heap Scan';
    table_blocks := pg_relation_size(tbl) / current_setting('block_size')::int;
END
$$;

-- A connection string for a new session on this server (dblink tests open fresh backends).
CREATE FUNCTION this_server() RETURNS text LANGUAGE sql STABLE AS $$
    SELECT format('host=%s port=%s dbname=%s user=%s',
                  split_part(current_setting('unix_socket_directories'), ',', 1),
                  current_setting('port'), current_database(), current_user)
$$;

-- Binary COPY tests: a server-side file in this cluster's data directory, and a binary COPY file holding
-- one row with one field of the given bytes.
CREATE FUNCTION data_file(name text) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT current_setting('data_directory') || '/' || name
$$;
CREATE FUNCTION copy_file_with_field(field bytea) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
    SELECT '\x5047434f50590aff0d0a00'::bytea   -- signature
        || '\x00000000'::bytea || '\x00000000'::bytea   -- flags, header extension length
        || '\x0001'::bytea || int4send(length(field)) || field   -- one tuple, one field
        || '\xffff'::bytea   -- trailer
$$;
CREATE FUNCTION write_file(path text, content bytea) RETURNS void LANGUAGE plpgsql AS $$
DECLARE lo oid := lo_from_bytea(0, content);
BEGIN
    PERFORM lo_export(lo, path);
    PERFORM lo_unlink(lo);
END
$$;

SELECT sqlstate_of('SELECT 1'), sqlstate_of('SELECT 1/0');
SELECT random_part('00000000000000000000000001'), random_part('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') = 2::numeric ^ 80 - 1;
