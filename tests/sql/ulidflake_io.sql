-- Text and binary I/O of ulidflake, and the shape of the type.

-- The type: 8 bytes, passed by value, aligned and stored like bigint.
SELECT t.typname, t.typlen, t.typbyval, t.typalign, t.typstorage,
       (t.typlen, t.typbyval, t.typalign, t.typstorage) = (b.typlen, b.typbyval, b.typalign, b.typstorage) AS like_bigint
FROM pg_type t, pg_type b
WHERE t.typname = 'ulidflake' AND b.typname = 'int8';
SELECT pg_column_size('00CMXB6TAK4SA'::ulidflake) AS bytes;

-- The spec example, the boundaries, case-insensitive input, canonical output.
SELECT '00CMXB6TAK4SA'::ulidflake AS spec_example,
       '00CMXB6TAK4SA'::ulidflake::bigint AS as_bigint,
       '00cmxb6tak4sa'::ulidflake AS lower_in,
       '0000000000000'::ulidflake::bigint AS lowest,
       '7ZZZZZZZZZZZZ'::ulidflake::bigint AS highest,
       '7ZZZZZZZZZZZZ'::ulidflake::bigint = 9223372036854775807 AS highest_is_bigint_max;
-- Every digit, in either case, in every position round-trips (the first position takes only 0-7:
-- 13 digits carry 65 bits, 2 more than a ulidflake has); so do 10000 values from all over the
-- range.
SELECT count(*) AS strings, count(DISTINCT pos) AS positions,
       count(*) FILTER (WHERE s::ulidflake::text = upper(s)) AS canonical_round_trips
FROM (
    SELECT pos, overlay('0000000000000' PLACING d FROM pos FOR 1) AS s
    FROM generate_series(1, 13) AS pos,
         unnest(string_to_array('0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz', NULL)) AS d
    WHERE pos > 1 OR d BETWEEN '0' AND '7'
) strings;
SELECT count(*) FILTER (WHERE f::text::ulidflake = f AND lower(f::text)::ulidflake = f
                          AND f::bigint::ulidflake = f) AS round_trips
FROM (SELECT (random() * 9.2e18)::bigint::ulidflake AS f FROM generate_series(1, 10000)) g;
-- Text order is integer order is the type's order.
CREATE TEMP TABLE many AS SELECT (random() * 9.2e18)::bigint::ulidflake AS f FROM generate_series(1, 5000);
SELECT (SELECT array_agg(f ORDER BY f::text COLLATE "C") FROM many) = (SELECT array_agg(f ORDER BY f::bigint) FROM many) AS text_order,
       (SELECT array_agg(f ORDER BY f) FROM many) = (SELECT array_agg(f ORDER BY f::bigint) FROM many) AS type_order;

-- Every kind of bad text is 22P02, and the message names the problem.
SELECT input, sqlstate_of(format('SELECT %L::ulidflake', input)) AS error
FROM (VALUES
    (''),
    ('00CMXB6TAK4S'),
    ('00CMXB6TAK4SAA'),
    ('00CMXB6TAK4SI'),
    ('00CMXB6TAK4Sl'),
    ('O0CMXB6TAK4SA'),
    ('00CMXB6TAK4SU'),
    ('00CMX-6TAK4SA'),
    (' 0CMXB6TAK4SA'),
    ('00CMXB6TAK4Sé'),
    ('14246757444195114'),
    ('8000000000000'),
    ('ZZZZZZZZZZZZZ')
) AS bad(input);
SELECT '00CMXB6TAK4SU'::ulidflake;
SELECT NULL::text::ulidflake AS null_in;
SELECT input, ulidflake_is_valid(input)
FROM (VALUES ('00CMXB6TAK4SA'), ('00cmxb6tak4sa'), ('7ZZZZZZZZZZZZ'), ('8000000000000'), ('00CMXB6TAK4SU'), (''), (NULL)) AS v(input);

-- Binary: the bigint wire format.
SELECT ulidflake_send('00CMXB6TAK4SA') AS sent,
       ulidflake_send('00CMXB6TAK4SA') = int8send(14246757444195114) AS same_as_bigint;
CREATE TABLE flake_src AS SELECT (random() * 9.2e18)::bigint::ulidflake AS f FROM generate_series(1, 1000);
CREATE TABLE flake_in (f ulidflake);
CREATE TABLE flake_as_bigint (b bigint);
SELECT sqlstate_of(format('COPY flake_src TO %L (FORMAT binary)', data_file('flake_src.copy'))) AS copy_out,
       sqlstate_of(format('COPY flake_in FROM %L (FORMAT binary)', data_file('flake_src.copy'))) AS copy_in,
       sqlstate_of(format('COPY flake_as_bigint FROM %L (FORMAT binary)', data_file('flake_src.copy'))) AS copy_in_as_bigint;
SELECT (SELECT array_agg(f ORDER BY f) FROM flake_src) = (SELECT array_agg(f ORDER BY f) FROM flake_in) AS intact,
       (SELECT count(*) FROM flake_src JOIN flake_as_bigint ON f::bigint = b) AS read_as_the_same_bigint;
-- Crafted binary fields: 8 bytes are accepted unless the sign bit is set; other lengths are 22P03.
SELECT field, sqlstate_of(format(
           'SELECT write_file(%L, %L); COPY flake_in FROM %L (FORMAT binary)',
           data_file('crafted.copy'), copy_file_with_field(field), data_file('crafted.copy'))) AS result
FROM (VALUES ('\x00329d59b4a9932a'::bytea), ('\x7fffffffffffffff'), ('\x8000000000000000'), ('\xffffffffffffffff'),
             (''), ('\x00'), ('\x00000000000000'), ('\x000000000000000000')) AS v(field);
SELECT f, f::bigint AS as_bigint FROM flake_in WHERE f IN ('00CMXB6TAK4SA', '7ZZZZZZZZZZZZ') ORDER BY 1;
-- Every length from 0 to 32 bytes: only 8 is accepted; and of the 8-byte values, exactly those
-- with the sign bit set are refused.
SELECT count(*) AS lengths_tried,
       count(*) FILTER (WHERE result = format('22P03: invalid binary ulidflake: expected 8 bytes, found %s', length)) AS rejected_with_22p03,
       string_agg(length::text, ',') FILTER (WHERE result = 'ok') AS accepted
FROM (SELECT length, sqlstate_of(format(
                 'SELECT write_file(%L, %L); COPY flake_in FROM %L (FORMAT binary)',
                 data_file('crafted.copy'), copy_file_with_field(decode(repeat('12', length), 'hex')),
                 data_file('crafted.copy'))) AS result
      FROM generate_series(0, 32) AS length) s;
SELECT first_byte >= 128 AS sign_bit, count(*) AS values_tried,
       count(*) FILTER (WHERE result = 'ok') AS accepted,
       count(*) FILTER (WHERE result = '22P03: invalid binary ulidflake: the sign bit is set') AS refused
FROM (SELECT first_byte, sqlstate_of(format(
                 'SELECT write_file(%L, %L); COPY flake_in FROM %L (FORMAT binary)',
                 data_file('crafted.copy'), copy_file_with_field(set_byte('\x0011223344556677'::bytea, 0, first_byte)),
                 data_file('crafted.copy'))) AS result
      FROM generate_series(0, 255) AS first_byte) s
GROUP BY 1 ORDER BY 1;
SELECT gen_ulid() IS NOT NULL AS session_still_usable;

-- COPY in text format: out to a file and back in, the same values; input is case-insensitive,
-- and a bad row stops the COPY with the same error as a cast.
CREATE TABLE flake_text (f ulidflake);
SELECT sqlstate_of(format('COPY flake_src TO %L', data_file('flake_text.copy'))) AS copy_out,
       sqlstate_of(format('COPY flake_text FROM %L', data_file('flake_text.copy'))) AS copy_in;
SELECT (SELECT array_agg(f ORDER BY f) FROM flake_src) = (SELECT array_agg(f ORDER BY f) FROM flake_text) AS text_round_trip_intact,
       (SELECT count(*) FROM flake_text) AS copied;
COPY flake_text FROM STDIN;
00cmxb6tak4sa
\.
COPY flake_text FROM STDIN;
8000000000000
\.
SELECT count(*) FILTER (WHERE f = '00CMXB6TAK4SA') AS lower_case_row_read FROM flake_text;

DROP TABLE flake_src, flake_in, flake_as_bigint, flake_text;
