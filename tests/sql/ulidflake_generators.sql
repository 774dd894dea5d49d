-- gen_ulidflake(): one sequence per database, strictly increasing, stand-alone or scalable.
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

-- (The setting ulid.node_id is tested in settings.sql.)

-- The wall clock at the call, to the millisecond, in a valid stand-alone id.
SELECT date_trunc('milliseconds', before) <= ulidflake_timestamp(id) AND ulidflake_timestamp(id) <= after AS within_the_call,
       length(id::text) AS length
FROM (SELECT clock_timestamp() AS before, gen_ulidflake() AS id, clock_timestamp() AS after) s;

-- 200000 ids in one statement, faster than a millisecond holds them, so the generator often waits
-- for the next millisecond: strictly increasing; none from a millisecond the clock had not
-- reached when the call returned (waiting, never running ahead of the clock by carrying into the
-- timestamp); within a millisecond each is the previous one + n with n in 1..255 (about 128 on
-- average); a new millisecond starts anywhere.
CREATE TEMP TABLE flakes AS SELECT n, gen_ulidflake() AS id, clock_timestamp() AS clock_after FROM generate_series(1, 200000) AS n;
SELECT count(*) FILTER (WHERE id > prev) AS increasing, count(prev) AS pairs, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE ulidflake_timestamp(id) > clock_after) AS ahead_of_the_clock
FROM (SELECT id, clock_after, lag(id) OVER (ORDER BY n) AS prev FROM flakes) s;
SELECT min(step) AS min_step, max(step) AS max_step, avg(step) BETWEEN 118 AND 138 AS mean_step_near_128,
       count(DISTINCT step) > 250 AS many_steps
FROM (SELECT id::bigint - lag(id::bigint) OVER (ORDER BY n) AS step,
             ulidflake_timestamp(id) = ulidflake_timestamp(lag(id) OVER (ORDER BY n)) AS same_ms
      FROM flakes) s
WHERE same_ms;

-- gen_ulidflake(scalability_id): scalable ids carrying that id, also strictly increasing; with
-- 15 random bits a millisecond fills up after about 128 ids on average (it starts at a random
-- point) and the generator waits for the next.
CREATE TEMP TABLE scaled AS SELECT n, gen_ulidflake(17) AS id, clock_timestamp() AS clock_after FROM generate_series(1, 20000) AS n;
SELECT count(*) FILTER (WHERE id > prev) AS increasing, count(prev) AS pairs,
       bool_and(ulidflake_scalability_id(id) = 17) AS all_node_17,
       count(*) FILTER (WHERE ulidflake_timestamp(id) > clock_after) AS ahead_of_the_clock,
       count(DISTINCT ulidflake_timestamp(id)) >= 20000 / 256 AS spread_over_milliseconds
FROM (SELECT id, clock_after, lag(id) OVER (ORDER BY n) AS prev FROM scaled) s;
SELECT min(step) >= 1 AND max(step) <= 255 AS steps_in_range
FROM (SELECT ulidflake_scalable_randomness(id) - lag(ulidflake_scalable_randomness(id)) OVER (ORDER BY n) AS step,
             ulidflake_timestamp(id) = ulidflake_timestamp(lag(id) OVER (ORDER BY n)) AS same_ms
      FROM scaled) s
WHERE same_ms;
-- The state is shared across layouts: a stand-alone id after scalable ones is still greater.
SELECT gen_ulidflake() > (SELECT max(id) FROM scaled) AS still_increasing;
SELECT id, sqlstate_of(format('SELECT gen_ulidflake(%s)', id)) AS result
FROM (VALUES (-1), (0), (31), (32), (1000)) AS v(id);
SELECT gen_ulidflake(NULL) IS NULL AS strict;

-- Configured once for the server: with ulid.node_id = 7 in the configuration, gen_ulidflake()
-- makes scalable ids of node 7.
-- (After pg_reload_conf(), a new session sees the new value once the postmaster has reloaded;
-- by then this session has been signalled too and reloads before its next statement.)
CREATE EXTENSION dblink;
CREATE PROCEDURE wait_for_node_id(expected text) LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1..200 LOOP
        EXIT WHEN (SELECT v FROM dblink(this_server(), 'SHOW ulid.node_id') AS r(v text)) = expected;
        PERFORM pg_sleep(0.05);
    END LOOP;
END
$$;
ALTER SYSTEM SET ulid.node_id = 7;
SELECT pg_reload_conf();
CALL wait_for_node_id('7');
SHOW ulid.node_id;
SELECT bool_and(ulidflake_scalability_id(id) = 7) AS node_7, count(*) FROM (SELECT gen_ulidflake() AS id FROM generate_series(1, 1000)) s;
ALTER SYSTEM RESET ulid.node_id;
SELECT pg_reload_conf();
CALL wait_for_node_id('-1');
SHOW ulid.node_id;
DROP PROCEDURE wait_for_node_id;
DROP EXTENSION dblink;

-- Parallel workers share the database's state: 100000 ids made by two workers at once (the
-- leader only gathers), in one execution whose rows are kept, are all distinct.
CREATE TABLE par AS SELECT n FROM generate_series(1, 100000) AS n;
ANALYZE par;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF, VERBOSE) SELECT gen_ulidflake() FROM par;
SELECT * FROM run_into('SELECT gen_ulidflake() AS id FROM par', 'par_flake');
SELECT count(*) AS generated, count(DISTINCT id) AS distinct_ids FROM par_flake;
RESET ALL;
DROP TABLE par, par_flake;
