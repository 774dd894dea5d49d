-- The benchmark harness: runs groups of queries side by side and records every timing.
-- Loaded by scripts/bench.sh into a throwaway database.

-- Every table records the server it was measured on (the report puts the majors side by side).
CREATE FUNCTION bench_server() RETURNS text LANGUAGE sql STABLE AS $$
    SELECT split_part(current_setting('server_version'), ' ', 1)
$$;

CREATE TABLE bench_times (bench text, variant text, rep int, ms float8, server text NOT NULL DEFAULT bench_server());

-- Runs each query of a group once to warm up, then `reps` rounds; each round runs every
-- variant once, starting with a different one each round so that no variant always runs first.
-- `cleanup` (not timed) runs after every query, e.g. to drop the index a query created.
CREATE PROCEDURE bench_group(bench text, variants text[], queries text[], reps int, cleanup text DEFAULT NULL)
LANGUAGE plpgsql AS $$
DECLARE
    n int := array_length(variants, 1);
    i int;
    t0 timestamptz;
    elapsed float8;
BEGIN
    FOR i IN 1..n LOOP
        EXECUTE queries[i];
        IF cleanup IS NOT NULL THEN EXECUTE cleanup; END IF;
        COMMIT;
    END LOOP;
    FOR r IN 1..reps LOOP
        FOR k IN 0..n - 1 LOOP
            i := (r + k) % n + 1;
            t0 := clock_timestamp();
            EXECUTE queries[i];
            elapsed := extract(epoch FROM clock_timestamp() - t0) * 1000;
            IF cleanup IS NOT NULL THEN EXECUTE cleanup; END IF;
            INSERT INTO bench_times VALUES (bench, variants[i], r, elapsed);
            COMMIT;
        END LOOP;
    END LOOP;
END
$$;

CREATE VIEW bench_medians AS
SELECT server, bench, variant, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms, count(*) AS reps
FROM bench_times GROUP BY server, bench, variant;

-- What the report compares: ours against a baseline measured in the same group, and the target
-- for ours / baseline.
CREATE TABLE bench_comparisons (
    ord serial, section text, bench text, ours text, baseline text, target float8, note text,
    server text NOT NULL DEFAULT bench_server()
);

-- The pgbench insert workload and the storage sizes are recorded here.
CREATE TABLE bench_inserts (key text, round int, clients int, rows bigint, tps float8, wal_bytes bigint, index_bytes bigint,
                            rows_per_statement int, server text NOT NULL DEFAULT bench_server());
CREATE TABLE bench_storage (section text, key text, rows bigint, table_bytes bigint, index_bytes bigint,
                            server text NOT NULL DEFAULT bench_server());
