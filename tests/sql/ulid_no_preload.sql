-- Without shared_preload_libraries everything about ulid works: the library loads on first use.
SHOW shared_preload_libraries;
SELECT length(gen_ulid()::text) AS gen_ulid, gen_monotonic_ulid() < gen_monotonic_ulid() AS monotonic;
CREATE EXTENSION dblink;
SELECT count(*) AS backends, count(DISTINCT right(id::text, 16)) AS distinct_random_parts
FROM generate_series(1, 20) AS i, LATERAL dblink(this_server(), format('SELECT %s, gen_ulid()', i)) AS r(i int, id ulid);
DROP EXTENSION dblink;
