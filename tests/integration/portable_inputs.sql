-- Text input for ulid_in and for the portable edition's ulid_uuid_from_text(), compared: run by
-- tests/integration/portable.sh in each database with psql variables schema (where the portable
-- functions are), extra (more characters to use) and bytes (hex byte sequences to put into ids,
-- in an SQL_ASCII database; else empty). Prints "inputs rejected accepted problems different"
-- (problems: different messages once the input they quote is taken out),
-- then up to 5 inputs that differ. Needs pg_temp.outcome() (portable_outcome.sql).
SET search_path = :"schema", public;
SELECT setseed(0.15) \gset
CREATE TEMP TABLE inputs AS
SELECT v FROM unnest(ARRAY[
    '', '0', '01ARZ3NDEKTSV4RRFFQ69G5FA', '01ARZ3NDEKTSV4RRFFQ69G5FAVV', '01ARZ3NDEKTSV4RRFFQ69G5FAV ',
    ' 01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAU', '01arz3ndektsv4rrffq69g5fau', 'I1ARZ3NDEKTSV4RRFFQ69G5FAV',
    '01ARZ3NDEKTSV4RRFFQ69G5FAi', 'L1ARZ3NDEKTSV4RRFFQ69G5FAV', 'l1ARZ3NDEKTSV4RRFFQ69G5FAV', 'O1ARZ3NDEKTSV4RRFFQ69G5FAV',
    'o1ARZ3NDEKTSV4RRFFQ69G5FAV', '80000000000000000000000000', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZ', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
    '8ZZZZZZZZZZZZZZZZZZZZZZZZZ0', '01563e3a-b5d3-d676-4c61-efb99302bd5b', '01ARZ3NDEK-TSV4RRFFQ69G5FAV',
    E'01ARZ3NDEKTSV4RRFFQ69G5FA\t', E'01ARZ3NDEKTSV4RRFFQ69G5F\nV', '01ARZ3NDEKTSV4RRFFQ69G5FA"',
    '01ARZ3NDEKTSV4RRFFQ69G5FA''', '01ARZ3NDEKTSV4RRFFQ69G5FA\', '0123456789abcdefghjkmnpqrs', 'tvwxyzTVWXYZ00000000000000',
    '00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000']) AS v
UNION ALL
-- C0 and C1 controls, DEL, no-break space, as the database's encoding has them.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FA' || chr(c) FROM unnest(ARRAY[1, 31, 127, 128, 133, 159, 160, 255]) AS c
UNION ALL
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FA' || c FROM regexp_split_to_table(:'extra', '') AS c
UNION ALL
SELECT c || '1ARZ3NDEKTSV4RRFFQ69G5FAV' FROM regexp_split_to_table(:'extra', '') AS c
UNION ALL
-- Long inputs: the message quotes 64 characters, then "..." and the input's length.
SELECT repeat('0', n) FROM unnest(ARRAY[63, 64, 65, 100, 1000]) AS n
UNION ALL
SELECT repeat(c, n) || 'Z' FROM regexp_split_to_table(:'extra', '') AS c, unnest(ARRAY[63, 64, 65, 70]) AS n
UNION ALL
SELECT repeat('1', n) || c || repeat(c, 5) FROM regexp_split_to_table(:'extra', '') AS c, unnest(ARRAY[62, 63, 64, 65, 80]) AS n
UNION ALL
-- 1,000 random strings of 50 to 150 characters.
SELECT (SELECT string_agg(substr(a, 1 + floor(random() * length(a))::int, 1), '' ORDER BY i)
        FROM generate_series(1, len) AS i)
FROM (SELECT 50 + floor(random() * 101)::int AS len,
             '0123456789ABCDEFGHJKMNPQRSTVWXYZ' || :'extra' AS a
      FROM generate_series(1, 1000)) AS r
UNION ALL
-- 10,000 random strings of 0 to 30 characters.
SELECT (SELECT coalesce(string_agg(substr(a, 1 + floor(random() * length(a))::int, 1), '' ORDER BY i), '')
        FROM generate_series(1, len) AS i)
FROM (SELECT floor(random() * 31)::int AS len,
             '0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyzILOUilou -_.:"\' || E'\t\n' || :'extra' AS a
      FROM generate_series(1, 10000)) AS r
UNION ALL
-- 10,000 ids with one character replaced.
SELECT overlay(gen_ulid()::text PLACING substr(a, 1 + floor(random() * length(a))::int, 1)
               FROM 1 + floor(random() * 26)::int FOR 1)
FROM (SELECT 'ILOUilou -_.8Z0z' || :'extra' AS a FROM generate_series(1, 10000)) AS r
UNION ALL
-- Byte sequences (valid UTF-8 or not) at the start, the middle and the end of an id.
SELECT overlay('01ARZ3NDEKTSV4RRFFQ69G5FAV' PLACING convert_from(decode(h, 'hex'), 'SQL_ASCII') FROM p FOR 1)
FROM regexp_split_to_table(:'bytes', ' ') AS h, unnest(ARRAY[1, 13, 26]) AS p
WHERE h <> ''
UNION ALL
-- Byte sequences around the 64th character, where the message cuts the input.
SELECT repeat('1', n) || convert_from(decode(h, 'hex'), 'SQL_ASCII') || repeat('2', 10)
FROM regexp_split_to_table(:'bytes', ' ') AS h, unnest(ARRAY[60, 61, 62, 63, 64]) AS n
WHERE h <> ''
UNION ALL
-- 2,000 ids with 1 to 4 random bytes put in at a random place.
SELECT overlay(gen_ulid()::text PLACING convert_from(b, 'SQL_ASCII') FROM 1 + floor(random() * 26)::int FOR 0)
FROM (SELECT (SELECT string_agg(decode(lpad(to_hex(1 + floor(random() * 255)::int), 2, '0'), 'hex'), ''::bytea)
              FROM generate_series(1, 1 + n % 4))
      FROM generate_series(1, 2000) AS n) AS r(b)
WHERE :'bytes' <> '';
CREATE TEMP TABLE outcomes AS
SELECT v, pg_temp.outcome(format('%L::ulid', v)) AS native, pg_temp.outcome(format('ulid_uuid_from_text(%L)', v)) AS portable
FROM inputs;
SELECT format('%s %s %s %s %s', count(*), count(*) FILTER (WHERE native <> 'ok'), count(*) FILTER (WHERE native = 'ok'),
              count(DISTINCT regexp_replace(native, '^[0-9A-Z]{5} .*": ', '')) FILTER (WHERE native <> 'ok'), count(*) FILTER (WHERE native IS DISTINCT FROM portable))
FROM outcomes;
-- Bytes as they are (an SQL_ASCII database's inputs need not be valid UTF-8).
SET client_encoding = 'SQL_ASCII';
SELECT format('%s -> ulid_in: %s; portable: %s', v, native, portable)
FROM outcomes WHERE native IS DISTINCT FROM portable LIMIT 5;
