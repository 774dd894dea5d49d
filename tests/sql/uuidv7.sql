-- PostgreSQL 18's uuidv7() and ulid: both put a 48-bit Unix-millisecond timestamp in the first
-- 6 bytes, so a version-7 uuid read as a ulid has that uuid's time, and the two kinds of id
-- sort together by time in one uuid column.
SET TimeZone = 'UTC';

-- 10000 uuidv7() values: each, as a ulid, is a valid ULID whose time is the uuid's, truncated to
-- the millisecond, and the bytes do not change either way.
CREATE TEMP TABLE v7 AS SELECT uuidv7() AS u FROM generate_series(1, 10000);
SELECT count(*) AS ids,
       count(*) FILTER (WHERE u::ulid::timestamptz = date_trunc('milliseconds', uuid_extract_timestamp(u))) AS same_millisecond,
       count(*) FILTER (WHERE ulid_is_valid(u::ulid::text)) AS valid_ulid_text,
       count(*) FILTER (WHERE u::ulid::uuid = u AND u::ulid::bytea = decode(replace(u::text, '-', ''), 'hex')) AS same_bytes,
       count(*) FILTER (WHERE uuid_extract_version(u) = 7) AS version_7
FROM v7;
-- uuidv7(shift) and a fixed instant: the time survives the cast exactly.
SELECT uuidv7(interval '-1 year')::ulid::timestamptz BETWEEN now() - interval '1 year 1 minute' AND now() - interval '1 year' + interval '1 minute'
       AS shifted_time_kept;

-- gen_ulid()::uuid and uuidv7() in one uuid column, alternately, each in a later millisecond
-- than the one before, with the clock read before and after each: ORDER BY the uuid is the order
-- they were made in, and the time of each, read as a ulid, is when it was made.
CREATE TEMP TABLE mixed (seq int, id uuid, kind text, clock_before timestamptz, clock_after timestamptz);
DO $$
DECLARE
    before timestamptz;
BEGIN
    FOR i IN 1..40 LOOP
        PERFORM pg_sleep(0.002);
        before := clock_timestamp();
        IF i % 2 = 0 THEN
            INSERT INTO mixed VALUES (i, gen_ulid(), 'ulid', before);
        ELSE
            INSERT INTO mixed VALUES (i, uuidv7(), 'uuidv7', before);
        END IF;
        UPDATE mixed SET clock_after = clock_timestamp() WHERE seq = i;
    END LOOP;
END
$$;
SELECT count(*) AS ids, count(DISTINCT kind) AS kinds,
       (SELECT array_agg(seq ORDER BY id) FROM mixed) = (SELECT array_agg(seq ORDER BY seq) FROM mixed) AS sorted_by_time,
       count(*) FILTER (WHERE id::ulid::timestamptz BETWEEN date_trunc('milliseconds', clock_before) AND clock_after)
           AS time_within_the_call
FROM mixed;

-- A uuid column of uuidv7() values becomes a ulid column and back without changing a byte.
CREATE TABLE v7_table (id uuid PRIMARY KEY DEFAULT uuidv7(), n int);
INSERT INTO v7_table (n) SELECT generate_series(1, 1000);
CREATE TEMP TABLE v7_before AS SELECT n, uuid_send(id) AS bytes FROM v7_table;
ALTER TABLE v7_table ALTER COLUMN id DROP DEFAULT, ALTER COLUMN id TYPE ulid, ALTER COLUMN id SET DEFAULT gen_ulid();
SELECT count(*) FILTER (WHERE t.id::bytea = b.bytes) AS unchanged_as_ulid FROM v7_table t JOIN v7_before b USING (n);
ALTER TABLE v7_table ALTER COLUMN id DROP DEFAULT, ALTER COLUMN id TYPE uuid, ALTER COLUMN id SET DEFAULT uuidv7();
SELECT count(*) FILTER (WHERE uuid_send(t.id) = b.bytes) AS unchanged_as_uuid FROM v7_table t JOIN v7_before b USING (n);
DROP TABLE v7_table;
RESET TimeZone;
