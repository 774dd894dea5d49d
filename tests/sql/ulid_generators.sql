-- Generators of ulid.
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

-- gen_ulid(): the wall clock at the call, to the millisecond ...
SELECT date_trunc('milliseconds', before) <= ulid_timestamp(id) AND ulid_timestamp(id) <= after AS within_the_call
FROM (SELECT clock_timestamp() AS before, gen_ulid() AS id, clock_timestamp() AS after) s;
-- ... not the transaction's start time.
BEGIN;
SELECT pg_sleep(0.05);
SELECT ulid_timestamp(gen_ulid()) >= now() + interval '49 milliseconds' AS after_transaction_start;
COMMIT;
-- Unique, and volatile: evaluated once per row.
SELECT count(*) AS generated, count(DISTINCT id) AS distinct_ids, count(DISTINCT right(id::text, 16)) AS distinct_random_parts
FROM (SELECT gen_ulid() AS id FROM generate_series(1, 100000)) g;
-- Each of the 80 random bits takes both values.
CREATE TEMP TABLE sample AS SELECT gen_ulid()::bytea AS b FROM generate_series(1, 64);
SELECT count(*) AS bits_seen_both_ways
FROM generate_series(6 * 8, 16 * 8 - 1) AS bit
WHERE (SELECT bool_or(get_bit(b, bit) = 1) AND bool_or(get_bit(b, bit) = 0) FROM sample);
-- As a primary key default.
CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), name text);
INSERT INTO items (name) SELECT 'item ' || n FROM generate_series(1, 1000) n;
SELECT count(*), count(DISTINCT id) FROM items;
DROP TABLE items;

-- gen_ulid(timestamptz): that millisecond, fresh randomness each call.
SELECT ulid_timestamp(gen_ulid('2025-01-01 00:00:00.123456+00')) AS at,
       left(gen_ulid('2025-01-01 00:00:00+00')::text, 10) AS prefix,
       gen_ulid('2025-01-01 00:00:00+00') <> gen_ulid('2025-01-01 00:00:00+00') AS fresh_random,
       gen_ulid(NULL) IS NULL AS strict;
SELECT gen_ulid('1969-12-31 23:59:59+00');

-- gen_monotonic_ulid(): strictly increasing within the session; within a millisecond each
-- value is the previous one + 1.
CREATE TEMP TABLE mono AS SELECT n, gen_monotonic_ulid() AS id FROM generate_series(1, 1000) AS n;
SELECT count(*) FILTER (WHERE id > prev) AS increasing, count(prev) AS pairs,
       count(*) FILTER (WHERE ulid_timestamp(id) = ulid_timestamp(prev)) > 0 AS some_share_a_millisecond,
       bool_and(random_part(id) = random_part(prev) + 1) FILTER (WHERE ulid_timestamp(id) = ulid_timestamp(prev)) AS plus_one
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM mono) s;
-- Shuffled and sorted back, the values come back in generation order.
SELECT (SELECT array_agg(id ORDER BY id) FROM (SELECT id FROM mono ORDER BY random()) shuffled)
     = (SELECT array_agg(id ORDER BY n) FROM mono) AS sorted_is_generation_order;
-- Later calls, in later statements, keep increasing.
SELECT gen_monotonic_ulid() > (SELECT max(id) FROM mono) AS still_increasing;
SELECT ulid_timestamp(gen_monotonic_ulid()) BETWEEN now() - interval '1 minute' AND clock_timestamp() AS current_time;

-- Parallel plans: gen_monotonic_ulid() is PARALLEL RESTRICTED, so it is evaluated in the leader
-- (above the Gather) and one session keeps one sequence; gen_ulid() runs in the workers. Each
-- query runs once, with two workers and the leader only gathering, and keeps its rows.
CREATE TABLE par AS SELECT n FROM generate_series(1, 20000) AS n;
ANALYZE par;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF, VERBOSE) SELECT gen_monotonic_ulid() FROM par WHERE n % 2 = 0;
EXPLAIN (COSTS OFF, VERBOSE) SELECT gen_ulid() FROM par WHERE n % 2 = 0;
SELECT * FROM run_into('SELECT n, gen_monotonic_ulid() AS id FROM par WHERE n % 2 = 0', 'par_mono');
-- In the order they were generated (the table's insertion order: the leader evaluated them as the
-- workers' rows arrived):
SELECT count(*) FILTER (WHERE id > prev) = count(prev) AS strictly_increasing, count(*) AS generated
FROM (SELECT id, lag(id) OVER (ORDER BY ctid) AS prev FROM par_mono) s;
SELECT * FROM run_into('SELECT gen_ulid() AS id FROM par WHERE n % 2 = 0', 'par_ulid');
SELECT count(*) AS generated, count(DISTINCT id) AS distinct_ids FROM par_ulid;
RESET ALL;
DROP TABLE par, par_mono, par_ulid;
