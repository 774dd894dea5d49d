-- Installing as a database owner who is not a superuser (the extension is trusted), using
-- everything as that owner, and DROP EXTENSION then CREATE EXTENSION again in the same database.
SELECT current_database() AS regress_db \gset
CREATE ROLE ulid_owner LOGIN;
CREATE ROLE ulid_guest LOGIN;
CREATE DATABASE ulid_owned OWNER ulid_owner;
\c ulid_owned ulid_owner
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user;
CREATE EXTENSION ulid;
SELECT extname, extowner::regrole, extrelocatable FROM pg_extension WHERE extname = 'ulid';
CREATE TABLE things (n int, id ulid PRIMARY KEY DEFAULT gen_ulid(), seq ulid DEFAULT gen_monotonic_ulid(),
                     flake ulidflake DEFAULT gen_ulidflake(), name text);
INSERT INTO things (n, name) SELECT n, 'thing ' || n FROM generate_series(1, 100) AS n ORDER BY n;
-- The owner's defaults work: distinct ids, and the monotonic and Ulid-Flake columns strictly
-- increase in the order the rows were made.
SELECT count(*), count(DISTINCT id), count(DISTINCT flake),
       count(*) FILTER (WHERE seq > prev_seq) AS seq_increases, count(*) FILTER (WHERE flake > prev_flake) AS flake_increases
FROM (SELECT *, lag(seq) OVER (ORDER BY n) AS prev_seq, lag(flake) OVER (ORDER BY n) AS prev_flake FROM things) t;
CREATE INDEX ON things USING hash (id);
CREATE INDEX ON things USING brin (flake);
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamptz AS cast_ok, ulidflake_is_valid('00CMXB6TAK4SA') AS accessor_ok;
-- The owner can drop it (with what depends on it) and create it again.
\set VERBOSITY terse
DROP EXTENSION ulid;
DROP EXTENSION ulid CASCADE;
\set VERBOSITY default
SELECT count(*) AS ulid_columns_left FROM information_schema.columns WHERE table_name = 'things';
CREATE EXTENSION ulid;
SELECT gen_ulid() IS NOT NULL AS works_again, '00CMXB6TAK4SA'::ulidflake::bigint AS flake;
-- A role without CREATE on the database cannot install it.
DROP EXTENSION ulid;
\c ulid_owned ulid_guest
CREATE EXTENSION ulid;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
\c ulid_owned ulid_owner
CREATE EXTENSION ulid;
SELECT extowner::regrole FROM pg_extension WHERE extname = 'ulid';
\c :regress_db postgres
DROP DATABASE ulid_owned;
DROP ROLE ulid_owner;
DROP ROLE ulid_guest;
