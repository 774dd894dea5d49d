-- What users of pgx_ulid write keeps working: its function names (thin aliases of this
-- extension's casts and functions), the casts between ulid and timestamp, and every place where
-- a pgx_ulid dump relies on one of its implicit casts without showing it.
SET DateStyle = 'ISO, YMD';
SET TimeZone = 'UTC';

-- The aliases, on values known independently: the ULID spec's example (its uuid and time are
-- in the pgx_ulid fixture's expected output), the seeds' worked example (2025-01-01T00:00:00Z
-- is the prefix 01JGFJJZ00), and the smallest and largest ULIDs.
SELECT u AS ulid,
       ulid_to_uuid(u) AS ulid_to_uuid,
       ulid_from_uuid(ulid_to_uuid(u)) = u AS ulid_from_uuid_back,
       ulid_to_bytea(u) AS ulid_to_bytea,
       ulid_to_timestamp(u) AS ulid_to_timestamp,
       ulid_to_timestamptz(u) AS ulid_to_timestamptz
FROM (VALUES ('00000000000000000000000000'::ulid), ('01ARZ3NDEKTSV4RRFFQ69G5FAV'),
             ('01JGFJJZ00XHF7E02JJ03AE4T7'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')) AS v(u);
SELECT timestamp_to_ulid('2025-01-01 00:00:00') AS timestamp_to_ulid,
       timestamptz_to_ulid('2025-01-01 00:00:00+00') AS timestamptz_to_ulid,
       timestamp_to_ulid('2016-07-30 23:54:10.259999') AS floored_to_the_millisecond,
       ulid_from_uuid('01563e3a-b5d3-d676-4c61-efb99302bd5b') AS ulid_from_uuid;
-- The casts give the same as the aliases, and NULL stays NULL.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamp AS ulid_as_timestamp,
       '2016-07-30 23:54:10.259'::timestamp::ulid AS timestamp_as_ulid,
       ulid_to_uuid(NULL) IS NULL AND ulid_from_uuid(NULL) IS NULL AND ulid_to_timestamp(NULL) IS NULL
           AND timestamp_to_ulid(NULL) IS NULL AND timestamptz_to_ulid(NULL) IS NULL AS nulls;

-- ulid -> timestamp is the id's UTC wall-clock time in every session, so it is IMMUTABLE and
-- round-trips with timestamp -> ulid (which reads the timestamp as UTC) whatever the TimeZone.
-- (pgx_ulid gives the session's local time here: 2016-07-30 19:54:10.259 in New York.)
SET TimeZone = 'America/New_York';
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamp AS in_new_york,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamptz AS as_timestamptz_in_new_york,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamp::ulid AS back;
-- 500 ids spread over a year, in sessions of four time zones (offsets of whole, half and
-- three-quarter hours): the UTC offset in force, and how many ids round-trip.
CREATE FUNCTION pg_temp.round_trips_in(zone text, OUT utc_offset interval, OUT round_trips bigint)
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('TimeZone', zone, true);
    utc_offset := make_interval(secs => extract(timezone FROM '2025-01-01 12:00:00+00'::timestamptz));
    SELECT count(*) INTO round_trips
    FROM (SELECT gen_ulid(now() - n * interval '17 hours 3 minutes 2.017 seconds') AS u
          FROM generate_series(1, 500) AS n) g
    WHERE u::timestamp::ulid = u::timestamptz::ulid AND u::timestamp = u::timestamptz AT TIME ZONE 'UTC';
END
$$;
SELECT zone, r.* FROM (VALUES ('UTC'), ('Asia/Kolkata'), ('Pacific/Chatham'), ('America/St_Johns')) AS z(zone),
     LATERAL pg_temp.round_trips_in(zone) AS r;
RESET TimeZone;
SET TimeZone = 'UTC';

-- Out of range and infinite timestamps are errors, never clamped (22008).
SELECT input, sqlstate_of(format('SELECT %L::timestamp::ulid', input)) AS cast_error,
       sqlstate_of(format('SELECT timestamp_to_ulid(%L)', input)) = sqlstate_of(format('SELECT %L::timestamp::ulid', input))
           AS alias_same_error
FROM (VALUES ('1969-12-31 23:59:59.999'), ('10889-08-02 05:31:50.656'), ('infinity'), ('-infinity')) AS v(input);
SELECT '1970-01-01 00:00:00'::timestamp::ulid AS lowest, '10889-08-02 05:31:50.655999'::timestamp::ulid AS highest;

-- (The casts and their contexts are listed in ulid_casts.sql: none is implicit; those a pgx_ulid
-- dump can rely on without showing them are assignment casts.)

-- Where a dump relies on an implicit cast it does not show: a column default, a generated
-- column, a function argument's default and a function's result are all coerced to their
-- declared type by assignment. pgx_ulid's dump prints each of them bare (as pg_get_expr below
-- does), and each is created here as the dump would create it.
CREATE TABLE pgx_defaults (
    n int,
    as_uuid uuid DEFAULT gen_ulid(),
    as_timestamp timestamp DEFAULT gen_ulid(),
    as_timestamptz timestamptz DEFAULT gen_ulid(),
    as_bytea bytea DEFAULT gen_ulid(),
    from_uuid ulid DEFAULT gen_random_uuid(),
    from_timestamp ulid DEFAULT localtimestamp,
    from_timestamptz ulid DEFAULT now()
);
CREATE TABLE pgx_generated (
    id ulid,
    as_uuid uuid GENERATED ALWAYS AS (id) STORED,
    as_timestamp timestamp GENERATED ALWAYS AS (id) STORED,
    as_timestamptz timestamptz GENERATED ALWAYS AS (id) STORED,
    as_bytea bytea GENERATED ALWAYS AS (id) STORED
);
CREATE FUNCTION pgx_argument_defaults(a uuid DEFAULT gen_ulid(), b timestamp DEFAULT gen_ulid(),
                                      c ulid DEFAULT gen_random_uuid(), d ulid DEFAULT localtimestamp)
RETURNS text LANGUAGE sql AS $$ SELECT concat_ws(' ', pg_typeof(a), pg_typeof(b), pg_typeof(c), pg_typeof(d)) $$;
CREATE FUNCTION pgx_result_sql() RETURNS uuid LANGUAGE sql AS $$ SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid $$;
CREATE FUNCTION pgx_result_atomic() RETURNS timestamp BEGIN ATOMIC SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid; END;
CREATE FUNCTION pgx_result_plpgsql() RETURNS ulid LANGUAGE plpgsql AS $$ BEGIN RETURN '2016-07-30 23:54:10.259'::timestamp; END $$;
-- What pg_dump prints for them: no casts.
SELECT a.attname, pg_get_expr(d.adbin, d.adrelid) AS dumped_as
FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
WHERE d.adrelid IN ('pgx_defaults'::regclass, 'pgx_generated'::regclass)
ORDER BY d.adrelid::regclass::text, a.attnum;
SELECT pg_get_function_arguments('pgx_argument_defaults'::regproc) AS dumped_arguments,
       btrim(regexp_replace(pg_get_functiondef('pgx_result_atomic'::regproc), '\s+', ' ', 'g')) AS dumped_atomic_function;
-- And they work.
INSERT INTO pgx_defaults (n) VALUES (1);
SELECT as_uuid::ulid::timestamptz > now() - interval '1 minute' AS uuid_default_made_now,
       as_timestamp = as_timestamp::ulid::timestamp AND as_timestamp > localtimestamp - interval '1 minute' AS timestamp_default,
       as_timestamptz > now() - interval '1 minute' AS timestamptz_default,
       length(as_bytea) AS bytea_default_length,
       from_uuid IS NOT NULL AS ulid_from_gen_random_uuid,
       from_timestamp::timestamp BETWEEN localtimestamp - interval '1 minute' AND localtimestamp
           AND right(from_timestamp::text, 16) = '0000000000000000' AS ulid_from_localtimestamp,
       from_timestamptz::timestamptz BETWEEN now() - interval '1 minute' AND now()
           AND right(from_timestamptz::text, 16) = '0000000000000000' AS ulid_from_now
FROM pgx_defaults;
INSERT INTO pgx_generated (id) VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV');
SELECT * FROM pgx_generated;
SELECT pgx_argument_defaults() AS argument_types, pgx_result_sql() AS sql_result,
       pgx_result_atomic() AS atomic_result, pgx_result_plpgsql() AS plpgsql_result;
DROP TABLE pgx_defaults, pgx_generated;
DROP FUNCTION pgx_argument_defaults, pgx_result_sql, pgx_result_atomic, pgx_result_plpgsql;

-- pgx_ulid's ambiguities do not happen here: min/max, ORDER BY a cast, comparisons with unknown
-- literals and the timestamp cast in a range query all resolve; a ulid and a uuid do not compare
-- without a cast (no implicit conversion picks a side silently).
CREATE TEMP TABLE amb (id ulid, u uuid);
INSERT INTO amb VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV', '01563e3a-b5d3-d676-4c61-efb99302bd5b');
SELECT min(id), max(id), count(*) FILTER (WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV') AS eq_unknown,
       count(*) FILTER (WHERE id BETWEEN '2016-01-01'::timestamp::ulid AND '2017-01-01'::timestamp::ulid) AS in_2016,
       count(*) FILTER (WHERE id::uuid = u) AS explicit_uuid_eq
FROM amb;
SELECT id FROM amb ORDER BY id::timestamp;
SELECT id = u FROM amb;
