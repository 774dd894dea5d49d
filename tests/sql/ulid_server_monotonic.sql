-- gen_server_monotonic_ulid(): one strictly increasing sequence for every session of the server
-- (gen_monotonic_ulid() keeps one per session). Four sessions generate 50000 ids each, at full
-- speed and at the same time, into one table whose primary key is a ulid.
CREATE EXTENSION dblink;
SELECT proname, provolatile, proparallel FROM pg_proc WHERE proname = 'gen_server_monotonic_ulid';
CREATE TABLE ulid_race (id ulid PRIMARY KEY, session int NOT NULL, n int NOT NULL);

SELECT s, dblink_connect('racer' || s, this_server()) FROM generate_series(1, 4) AS s;
SELECT s, dblink_send_query('racer' || s, format(
           'INSERT INTO ulid_race SELECT gen_server_monotonic_ulid(), %s, n FROM generate_series(1, 50000) AS n', s))
FROM generate_series(1, 4) AS s;
SELECT s, r.status
FROM generate_series(1, 4) AS s, LATERAL dblink_get_result('racer' || s) AS r(status text);
SELECT s, dblink_disconnect('racer' || s) FROM generate_series(1, 4) AS s;

-- Every insert succeeded: 200000 ids, no duplicate; each session's ids strictly increase in the
-- order it generated them.
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids, count(DISTINCT session) AS sessions
FROM ulid_race;
SELECT session, count(*) FILTER (WHERE id > prev) = count(prev) AS strictly_increasing
FROM (SELECT session, id, lag(id) OVER (PARTITION BY session ORDER BY n) AS prev FROM ulid_race) s
GROUP BY session ORDER BY session;
-- The sessions ran at the same time (many milliseconds hold ids of several of them), and drew
-- from one sequence: in every millisecond, the ids of all sessions together are consecutive
-- (each the one before + 1), with no gap where another sequence would have started afresh.
SELECT count(*) FILTER (WHERE sessions > 1) > 10 AS interleaved,
       count(*) FILTER (WHERE last_random - first_random + 1 = ids) = count(*) AS one_chain_per_millisecond
FROM (SELECT count(DISTINCT session) AS sessions, count(*) AS ids,
             min(random_part(id)) AS first_random, max(random_part(id)) AS last_random
      FROM ulid_race GROUP BY ulid_timestamp(id)) per_millisecond;
-- After the race, this session's next id is greater than every id of the race.
SELECT gen_server_monotonic_ulid() > (SELECT max(id) FROM ulid_race) AS still_increasing,
       ulid_timestamp(gen_server_monotonic_ulid()) BETWEEN now() - interval '1 minute' AND clock_timestamp() AS current_time;

-- In a parallel plan the workers take from the same sequence: distinct ids.
CREATE TABLE par AS SELECT n FROM generate_series(1, 50000) AS n;
ANALYZE par;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
SELECT * FROM run_into('SELECT gen_server_monotonic_ulid() AS id FROM par', 'par_server');
RESET ALL;
SELECT count(*) AS generated, count(DISTINCT id) AS distinct_ids FROM par_server;

DROP TABLE ulid_race, par, par_server;
DROP EXTENSION dblink;
