-- Text input and output of ulid, and the shape of the type.

-- The type: 16 bytes, not a varlena, passed by reference, aligned and stored like uuid.
SELECT t.typname, t.typlen, t.typbyval, t.typalign, t.typstorage,
       (t.typlen, t.typbyval, t.typalign, t.typstorage) = (u.typlen, u.typbyval, u.typalign, u.typstorage) AS like_uuid
FROM pg_type t, pg_type u
WHERE t.typname = 'ulid' AND u.typname = 'uuid';
SELECT pg_column_size(gen_ulid()) AS generated, pg_column_size('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid) AS parsed;
CREATE TABLE io_sizes (id ulid);
INSERT INTO io_sizes VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV');
SELECT pg_column_size(id) FROM io_sizes;

-- Output is the canonical 26 upper-case characters; input is case-insensitive.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid AS upper_in,
       '01arz3ndektsv4rrffq69g5fav'::ulid AS lower_in,
       '01ArZ3nDeKtSv4RrFfQ69g5FaV'::ulid AS mixed_in;
SELECT length(gen_ulid()::text) AS length, gen_ulid()::text ~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$' AS canonical;

-- The boundaries and the seed examples.
SELECT '00000000000000000000000000'::ulid AS lowest,
       '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid AS highest,
       '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid::uuid AS highest_as_uuid;
SELECT '01JGFJJZ00XHF7E02JJ03AE4T7'::ulid AS seed_example,
       left('01JGFJJZ00XHF7E02JJ03AE4T7'::ulid::text, 10) = '01JGFJJZ00' AS prefix_kept;

-- Every digit, in either case, in every position, decodes to its value and prints canonically
-- (the first position takes only 0-7: 26 digits carry 130 bits, 2 more than a ulid has).
SELECT count(*) AS strings, count(DISTINCT pos) AS positions,
       count(*) FILTER (WHERE s::ulid::text = upper(s)) AS canonical_round_trips,
       count(*) FILTER (WHERE s::ulid = upper(s)::ulid) AS case_insensitive
FROM (
    SELECT pos, overlay('00000000000000000000000000' PLACING d FROM pos FOR 1) AS s
    FROM generate_series(1, 26) AS pos,
         unnest(string_to_array('0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz', NULL)) AS d
    WHERE pos > 1 OR d BETWEEN '0' AND '7'
) strings;
-- and 10000 generated values survive text -> ulid -> text and lower-case input.
SELECT count(*) FILTER (WHERE u::text::ulid = u AND lower(u::text)::ulid = u) AS round_trips
FROM (SELECT gen_ulid() AS u FROM generate_series(1, 10000)) g;

-- Every kind of bad text is 22P02, and the message names the problem.
SELECT input, sqlstate_of(format('SELECT %L::ulid', input)) AS error
FROM (VALUES
    (''),
    ('0'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FA'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAVV'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAI'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAl'),
    ('O1ARZ3NDEKTSV4RRFFQ69G5FAV'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAu'),
    ('01ARZ3NDEK-TSV4RRFFQ69G5FA'),
    (' 01ARZ3NDEKTSV4RRFFQ69G5FA'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FA '),
    (E'01ARZ3NDEKTSV4RRFFQ69G5FA\t'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FÄV'),
    ('01ARZ3NDEKTSV4RRFFQ69G5FAÄ'),
    ('01563e3a-b5d3-d676-4c61-efb99302bd5b'),
    ('80000000000000000000000000'),
    ('8ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
    ('ZZZZZZZZZZZZZZZZZZZZZZZZZZ')
) AS bad(input);
-- The full report a client sees:
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAU'::ulid;
-- The session is fine afterwards, and NULL stays NULL.
SELECT NULL::text::ulid AS null_in, NULL::ulid::text AS null_out;

-- ulid_is_valid answers instead of raising.
SELECT input, ulid_is_valid(input)
FROM (VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('01arz3ndektsv4rrffq69g5fav'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
             ('8ZZZZZZZZZZZZZZZZZZZZZZZZZ'), ('01ARZ3NDEKTSV4RRFFQ69G5FAU'), (''), ('01ARZ3'),
             ('01ARZ3NDEKTSV4RRFFQ69G5FÄV'), (NULL)) AS v(input);

DROP TABLE io_sizes;
