-- Casts of ulidflake: bigint, timestamptz, text; their contexts.
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

SELECT castsource::regtype AS source, casttarget::regtype AS target, castcontext, castmethod
FROM pg_cast
WHERE castsource = 'ulidflake'::regtype OR casttarget = 'ulidflake'::regtype
ORDER BY castsource::regtype::text COLLATE "C", casttarget::regtype::text COLLATE "C";

-- bigint: the value itself, both ways; a negative number is 22003.
SELECT 14246757444195114::bigint::ulidflake AS from_bigint, '00CMXB6TAK4SA'::ulidflake::bigint AS to_bigint,
       0::bigint::ulidflake AS zero, 9223372036854775807::ulidflake AS largest;
SELECT value, sqlstate_of(format('SELECT (%s)::bigint::ulidflake', value)) AS result
FROM (VALUES ('-1'), ('-9223372036854775808'), ('0'), ('9223372036854775807')) AS v(value);
-- Assignment casts: columns take the other type without a cast ...
CREATE TABLE flake_target (b bigint, f ulidflake);
INSERT INTO flake_target VALUES ('00CMXB6TAK4SA'::ulidflake, 14246757444195114::bigint);
SELECT b, f FROM flake_target;
SELECT sqlstate_of($$INSERT INTO flake_target (f) VALUES (-5::bigint)$$) AS negative_into_column;
-- ... but an expression never mixes them implicitly.
SELECT '00CMXB6TAK4SA'::ulidflake = 14246757444195114::bigint;
SELECT '00CMXB6TAK4SA'::ulidflake + 1;
DROP TABLE flake_target;

-- timestamptz: 43-bit milliseconds since 2024-01-01T00:00:00Z.
SELECT '00CMXB6TAK4SA'::ulidflake::timestamptz AS spec_example_time,
       ulidflake_timestamp('00CMXB6TAK4SA') AS same,
       '0000000000000'::ulidflake::timestamptz AS epoch,
       '7ZZZZZZZZZZZZ'::ulidflake::timestamptz AS last;
SET TimeZone = 'America/St_Johns';
SELECT '00CMXB6TAK4SA'::ulidflake::timestamptz AS at_st_johns,
       '00CMXB6TAK4SA'::ulidflake::timestamptz = '2024-06-06 06:06:06.666+00' AS spec_instant,
       ulidflake_timestamp('00CMXB6TAK4SA') = '2024-06-06 06:06:06.666+00' AS accessor_spec_instant;
SET TimeZone = 'UTC';
-- timestamptz -> ulidflake: the lowest value of the millisecond, sub-milliseconds truncated.
SELECT '2024-01-01 00:00:00+00'::timestamptz::ulidflake AS epoch,
       '2025-01-01 00:00:00.000999+00'::timestamptz::ulidflake AS y2025,
       ('2025-01-01 00:00:00.000999+00'::timestamptz::ulidflake)::bigint = (31622400000::bigint << 20) AS y2025_bits,
       '2302-09-27 15:10:22.207999+00'::timestamptz::ulidflake AS last_millisecond;
SELECT count(*) FILTER (WHERE t::ulidflake::timestamptz = t) AS exact_ms, count(*) AS sampled
FROM (SELECT (date '2024-01-01' + n)::timestamp AT TIME ZONE 'UTC' + (n::bigint * 7919 % 86400000) * interval '1 millisecond' AS t
      FROM generate_series(0, 101000, 37) AS n) s;
SELECT input, sqlstate_of(format('SELECT %L::timestamptz::ulidflake', input)) AS result
FROM (VALUES ('2023-12-31 23:59:59.999999+00'), ('1970-01-01 00:00:00+00'), ('2302-09-27 15:10:22.208+00'),
             ('infinity'), ('-infinity')) AS v(input);
SELECT '2023-12-31 23:59:59.999+00'::timestamptz::ulidflake;

-- The parts.
SELECT f, ulidflake_randomness(f) AS randomness, ulidflake_scalable_randomness(f) AS scalable_randomness,
       ulidflake_scalability_id(f) AS scalability_id,
       (ulidflake_scalable_randomness(f) << 5) | ulidflake_scalability_id(f) = ulidflake_randomness(f) AS consistent
FROM (VALUES ('00CMXB6TAK4SA'::ulidflake), ('0000000000000'), ('7ZZZZZZZZZZZZ'), ('00CMXB6TA0001'), ('00CMXB6TAZZZ0')) AS v(f);

-- text: PostgreSQL's I/O casts.
SELECT '00CMXB6TAK4SA'::text::ulidflake AS from_text, '00CMXB6TAK4SA'::ulidflake::text AS to_text,
       '00cmxb6tak4sa'::ulidflake::varchar AS to_varchar;
-- By assignment into text and varchar columns: the 13 characters (the text form, never the
-- digits of the bigint).
CREATE TABLE flake_text_target (t text, v varchar(13));
INSERT INTO flake_text_target VALUES ('00CMXB6TAK4SA'::ulidflake, 14246757444195114::ulidflake);
SELECT t, v FROM flake_text_target;
DROP TABLE flake_text_target;
