-- Soft input errors (PostgreSQL 16 and later): a caller that asks for them, such as
-- pg_input_is_valid() and pg_input_error_info(), gets bad input reported without an ERROR.
-- Every rejection class of both types, with the same SQLSTATE and message as the ERROR that a
-- plain cast raises.
CREATE TEMP TABLE inputs (type regtype, input text, class text);
INSERT INTO inputs VALUES
    ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'valid'),
    ('ulid', '01arz3ndektsv4rrffq69g5fav', 'valid, lower case'),
    ('ulid', '', 'empty'),
    ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FA', 'too short'),
    ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAVV', 'too long'),
    ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAU', 'letter outside the alphabet'),
    ('ulid', '01ARZ3NDEK-TSV4RRFFQ69G5FA', 'punctuation'),
    ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FÄV', 'non-ASCII'),
    ('ulid', '80000000000000000000000000', 'out of range'),
    ('ulidflake', '00CMXB6TAK4SA', 'valid'),
    ('ulidflake', '', 'empty'),
    ('ulidflake', '00CMXB6TAK4S', 'too short'),
    ('ulidflake', '00CMXB6TAK4SAA', 'too long'),
    ('ulidflake', '00CMXB6TAK4SL', 'letter outside the alphabet'),
    ('ulidflake', '00CMXB6 TAK4S', 'space'),
    ('ulidflake', '00CMXB6TAK4S€', 'non-ASCII'),
    ('ulidflake', '8000000000000', 'out of range');
SELECT type, class, pg_input_is_valid(input, type::text) AS valid, e.sql_error_code, e.message,
       e.detail IS NULL AND e.hint IS NULL AS no_detail_or_hint
FROM inputs, LATERAL pg_input_error_info(input, type::text) AS e
ORDER BY type::text, class;
-- The same SQLSTATE and message as the ERROR of a cast, for every bad input.
SELECT count(*) AS bad_inputs,
       count(*) FILTER (WHERE sqlstate_of(format('SELECT %L::%s', input, type)) = e.sql_error_code || ': ' || e.message)
           AS same_as_the_error
FROM inputs, LATERAL pg_input_error_info(input, type::text) AS e
WHERE e.sql_error_code IS NOT NULL;

-- Through a domain, and in arrays (their input functions pass the soft context on).
CREATE DOMAIN recent_ulid AS ulid CHECK (VALUE >= '2020-01-01'::timestamptz::ulid);
SELECT pg_input_is_valid('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'recent_ulid') AS too_old_for_the_domain,
       pg_input_is_valid('01JGFJJZ00XHF7E02JJ03AE4T7', 'recent_ulid') AS recent,
       pg_input_is_valid('01JGFJJZ00XHF7E02JJ03AE4TU', 'recent_ulid') AS bad_text;
SELECT pg_input_is_valid('{01ARZ3NDEKTSV4RRFFQ69G5FAV,01JGFJJZ00XHF7E02JJ03AE4T7}', 'ulid[]') AS good_array,
       pg_input_is_valid('{01ARZ3NDEKTSV4RRFFQ69G5FAV,01JGFJJZ00XHF7E02JJ03AE4TU}', 'ulid[]') AS bad_element,
       (pg_input_error_info('{00CMXB6TAK4SA,8000000000000}', 'ulidflake[]')).message AS flake_array_error;
DROP DOMAIN recent_ulid;
-- Without a soft-error context the input function still raises.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAU'::ulid;
SELECT '8000000000000'::ulidflake;
