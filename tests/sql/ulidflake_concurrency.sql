-- No duplicates on one server, whatever the concurrency: four sessions generate 50000 ids
-- each, at full speed and at the same time, into one table whose primary key is a ulidflake.
CREATE EXTENSION dblink;
CREATE TABLE flake_race (id ulidflake PRIMARY KEY, session int NOT NULL, n int NOT NULL);

SELECT s, dblink_connect('racer' || s, this_server()) FROM generate_series(1, 4) AS s;
SELECT s, dblink_send_query('racer' || s, format(
           'INSERT INTO flake_race SELECT gen_ulidflake(), %s, n FROM generate_series(1, 50000) AS n', s))
FROM generate_series(1, 4) AS s;
SELECT s, r.status
FROM generate_series(1, 4) AS s, LATERAL dblink_get_result('racer' || s) AS r(status text);
SELECT s, dblink_disconnect('racer' || s) FROM generate_series(1, 4) AS s;

-- Every insert succeeded: 200000 ids, no duplicate (the primary key would have refused one).
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids, count(*) - count(DISTINCT id) AS duplicates,
       count(DISTINCT session) AS sessions
FROM flake_race;
-- Each session's ids strictly increase in the order it generated them.
SELECT session, count(*) FILTER (WHERE id > prev) = count(prev) AS strictly_increasing
FROM (SELECT session, id, lag(id) OVER (PARTITION BY session ORDER BY n) AS prev FROM flake_race) s
GROUP BY session ORDER BY session;
-- The sessions really ran at the same time: many milliseconds hold ids of several sessions.
SELECT count(*) > 10 AS interleaved
FROM (SELECT ulidflake_timestamp(id) FROM flake_race GROUP BY 1 HAVING count(DISTINCT session) > 1) s;
-- And they drew from one sequence (the database's): in every millisecond the ids of all sessions,
-- sorted, form a single chain whose steps are 1..255. (Separate per-session states would start
-- at independent random points, leaving gaps of up to 2^20 between sessions; they collide
-- rarely, so a unique violation alone would not show them.)
SELECT min(step) >= 1 AND max(step) <= 255 AS one_chain_per_millisecond
FROM (SELECT id::bigint - lag(id::bigint) OVER (PARTITION BY ulidflake_timestamp(id) ORDER BY id) AS step
      FROM flake_race) s;

DROP TABLE flake_race;
DROP EXTENSION dblink;
