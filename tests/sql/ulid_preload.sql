-- With shared_preload_libraries = 'ulid' the postmaster loads the library before it forks the
-- backends and parallel workers. End to end, no two of them may hand out the same random parts:
-- 100 fresh backends, and the parallel workers of one query. These checks fail if the children
-- share one generator state: one seeded in the postmaster (say, when the library loads) and not
-- rebuilt per process. They cannot see the per-process guard alone fail (PerProcess, keyed by the
-- process id), because the postmaster never generates, so lazy seeding already gives every
-- child its own state: that guard is tested directly by the in-server test
-- pg::ulid::tests::a_forked_process_seeds_its_own_generator, which forks a seeded backend.
SHOW shared_preload_libraries;
CREATE EXTENSION dblink;

-- 100 fresh backends, each asked for its first values.
CREATE TEMP TABLE firsts AS
SELECT r.*
FROM generate_series(1, 100) AS i,
     LATERAL dblink(this_server(), format('SELECT %s, pg_backend_pid(), gen_ulid(), gen_ulid(), gen_monotonic_ulid()', i))
         AS r(i int, pid int, first ulid, second ulid, first_monotonic ulid);
SELECT count(DISTINCT pid) AS backends,
       count(DISTINCT right(first::text, 16)) AS distinct_first_random_parts,
       count(DISTINCT right(second::text, 16)) AS distinct_second_random_parts,
       count(DISTINCT right(first_monotonic::text, 16)) AS distinct_monotonic_random_parts
FROM firsts;
-- No random part appears twice anywhere across those backends' values.
SELECT count(*) AS values, count(DISTINCT r) AS distinct_random_parts
FROM firsts, LATERAL (VALUES (right(first::text, 16)), (right(second::text, 16)), (right(first_monotonic::text, 16))) AS v(r);

-- Parallel workers (forked from the postmaster too) each seed their own generator: 100000 ids
-- made by two workers (the leader only gathers) in one execution, kept and counted.
CREATE TABLE par AS SELECT n FROM generate_series(1, 100000) AS n;
ANALYZE par;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
SELECT * FROM run_into('SELECT gen_ulid() AS id FROM par', 'par_ids');
SELECT count(*) AS generated, count(DISTINCT right(id::text, 16)) AS distinct_random_parts FROM par_ids;
RESET ALL;
DROP TABLE par, par_ids;
DROP EXTENSION dblink;
