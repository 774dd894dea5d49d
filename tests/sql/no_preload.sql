-- Without shared_preload_libraries: ulid works (the library loads on first use) but for
-- gen_server_monotonic_ulid(); the ulidflake type works, but gen_ulidflake() does not. The two
-- generators with shared state have none, and refuse to run rather than fall back to
-- something weaker.
SHOW shared_preload_libraries;
SELECT length(gen_ulid()::text) AS gen_ulid, gen_monotonic_ulid() < gen_monotonic_ulid() AS monotonic;
CREATE EXTENSION dblink;
SELECT count(*) AS backends, count(DISTINCT right(id::text, 16)) AS distinct_random_parts
FROM generate_series(1, 20) AS i, LATERAL dblink(this_server(), format('SELECT %s, gen_ulid()', i)) AS r(i int, id ulid);
DROP EXTENSION dblink;

SELECT '00CMXB6TAK4SA'::ulidflake::bigint AS flake_type_works;
SELECT gen_ulidflake();
SELECT sqlstate_of('SELECT gen_ulidflake()') AS standalone, sqlstate_of('SELECT gen_ulidflake(3)') AS scalable;
SELECT gen_server_monotonic_ulid();
SELECT sqlstate_of('SELECT gen_server_monotonic_ulid()') AS server_monotonic;
