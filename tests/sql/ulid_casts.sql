-- Casts of ulid: uuid, timestamptz, bytea, text; their contexts; no new ambiguity.
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

-- Every cast the extension declares, with its context (e = explicit, a = assignment,
-- i = implicit) and method (b = binary coercible, f = function).
SELECT castsource::regtype AS source, casttarget::regtype AS target, castcontext, castmethod
FROM pg_cast
WHERE castsource = 'ulid'::regtype OR casttarget = 'ulid'::regtype
ORDER BY castsource::regtype::text COLLATE "C", casttarget::regtype::text COLLATE "C";

-- uuid: the same 16 bytes, so the round trip is the identity both ways.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid AS as_uuid,
       '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid::ulid AS as_ulid;
SELECT count(*) FILTER (WHERE u::uuid::ulid = u) AS ulid_uuid_ulid,
       count(*) FILTER (WHERE g::ulid::uuid = g) AS uuid_ulid_uuid,
       count(*) FILTER (WHERE u::bytea = decode(replace(u::uuid::text, '-', ''), 'hex')) AS bytes_are_the_uuid_hex
FROM (SELECT gen_ulid() AS u, gen_random_uuid() AS g FROM generate_series(1, 1000)) s;
-- Assignment casts: a uuid column takes a ulid and the other way round, without USING.
CREATE TABLE cast_target (u uuid, l ulid);
INSERT INTO cast_target VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid, '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid);
SELECT u, l FROM cast_target;
-- ...but never implicitly in an expression:
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid;
DROP TABLE cast_target;
-- ALTER COLUMN ... TYPE ulid from uuid needs no USING, keeps every byte and rebuilds the primary
-- key's index; and back.
CREATE TABLE altered (id uuid PRIMARY KEY, n int);
INSERT INTO altered SELECT gen_random_uuid(), n FROM generate_series(1, 1000) AS n;
CREATE TEMP TABLE altered_before AS SELECT n, id::text AS uuid_text FROM altered;
ALTER TABLE altered ALTER COLUMN id TYPE ulid;
SELECT a.atttypid::regtype AS column_type, i.indexrelid::regclass AS index, opc.opcname AS opclass
FROM pg_attribute a JOIN pg_index i ON i.indrelid = a.attrelid JOIN pg_opclass opc ON opc.oid = i.indclass[0]
WHERE a.attrelid = 'altered'::regclass AND a.attname = 'id';
SELECT count(*) FILTER (WHERE a.id::uuid::text = b.uuid_text) AS bytes_unchanged FROM altered a JOIN altered_before b USING (n);
SET enable_seqscan = off;
SELECT plan_nodes($$SELECT n FROM altered WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV'$$);
SELECT count(*) AS found_through_the_index
FROM altered_before b WHERE (SELECT n FROM altered WHERE id = b.uuid_text::uuid::ulid) = b.n;
RESET enable_seqscan;
ALTER TABLE altered ALTER COLUMN id TYPE uuid;
SELECT count(*) FILTER (WHERE a.id::text = b.uuid_text) AS bytes_unchanged_back FROM altered a JOIN altered_before b USING (n);
DROP TABLE altered, altered_before;

-- timestamptz: the millisecond in the id, as an instant.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamptz AS at,
       ulid_timestamp('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS same,
       '00000000000000000000000000'::ulid::timestamptz AS lowest,
       '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid::timestamptz AS highest;
SELECT '01JGFJJZ00XHF7E02JJ03AE4T7'::ulid::timestamptz = '2025-01-01 00:00:00+00' AS seed_example;
-- A uuid v7 has its 48-bit millisecond timestamp where a ulid has it (RFC 9562's example).
SELECT '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid::ulid::timestamptz AS uuid_v7_time;
-- Time-zone independent: the same instant whatever TimeZone says, so IMMUTABLE is right.
SET TimeZone = 'Asia/Kathmandu';
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamptz AS at_kathmandu,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamptz = '2016-07-30 23:54:10.259+00' AS same_instant;
SET TimeZone = 'UTC';

-- timestamptz -> ulid: the lowest ulid of that millisecond; sub-milliseconds are truncated.
SELECT '2025-01-01 00:00:00+00'::timestamptz::ulid AS y2025,
       '2025-01-01 00:00:00.000999+00'::timestamptz::ulid AS y2025_plus_999us,
       '2025-01-01 00:00:00.001+00'::timestamptz::ulid AS y2025_plus_1ms,
       '2024-12-31 23:59:59.999999+00'::timestamptz::ulid AS y2025_minus_1us,
       '1970-01-01 00:00:00+00'::timestamptz::ulid AS unix_epoch,
       '10889-08-02 05:31:50.655999+00'::timestamptz::ulid AS last_millisecond;
-- Integer arithmetic: every millisecond of a sample survives timestamptz -> ulid -> timestamptz,
-- and every microsecond inside one lands on that millisecond.
SELECT count(*) FILTER (WHERE t::ulid::timestamptz = t) AS exact_ms,
       count(*) AS sampled
FROM (SELECT (date '1970-01-01' + n)::timestamp AT TIME ZONE 'UTC' + (n::bigint * 7919 % 86400000) * interval '1 millisecond' AS t
      FROM generate_series(0, 3000000, 997) AS n) s;
SELECT count(*) FILTER (WHERE (t + us * interval '1 microsecond')::ulid = t::ulid) AS floored
FROM (SELECT '2026-03-04 05:06:07.089+00'::timestamptz AS t) s, generate_series(0, 999) us;
-- A range of ids is a range of creation times: [t1::ulid, t2::ulid) holds exactly the ids of
-- [t1, t2) (whole milliseconds). At its edges: the lowest and the highest id (randomness all 0
-- and all 1) of the millisecond before t1, of t1, of the last millisecond before t2, and of t2.
SELECT edge, which, id,
       id >= '2025-06-01 00:00:00+00'::timestamptz::ulid AND id < '2025-06-02 00:00:00+00'::timestamptz::ulid AS in_range
FROM (VALUES (1, 'before t1', '2025-05-31 23:59:59.999+00'::timestamptz), (2, 't1', '2025-06-01 00:00:00+00'),
             (3, 'before t2', '2025-06-01 23:59:59.999+00'), (4, 't2', '2025-06-02 00:00:00+00')) AS e(k, edge, at),
     LATERAL (VALUES ('lowest', at::ulid),
                     ('highest', overlay(at::ulid::text PLACING 'ZZZZZZZZZZZZZZZZ' FROM 11)::ulid)) AS w(which, id)
ORDER BY k, id;

-- Out of range instants are 22008, never clamped or wrapped.
SELECT input, sqlstate_of(format('SELECT %L::timestamptz::ulid', input)) AS cast_error,
       sqlstate_of(format('SELECT gen_ulid(%L::timestamptz)', input)) AS gen_error
FROM (VALUES ('1969-12-31 23:59:59.999999+00'), ('1900-01-01 00:00:00+00'), ('-infinity'), ('infinity'),
             ('10889-08-02 05:31:50.656+00'), ('20000-01-01 00:00:00+00')) AS v(input);
SELECT '-infinity'::timestamptz::ulid;

-- bytea: the 16 bytes; any other length is 22P03.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::bytea AS as_bytea,
       '\x01563e3ab5d3d6764c61efb99302bd5b'::bytea::ulid AS from_bytea;
SELECT length, sqlstate_of(format('SELECT %L::bytea::ulid', substr('\x000102030405060708090a0b0c0d0e0f1011'::bytea, 1, length))) AS result
FROM (VALUES (0), (1), (15), (16), (17), (18)) AS v(length);
SELECT count(*) AS lengths_tried,
       count(*) FILTER (WHERE result = format('22P03: invalid binary ulid: expected 16 bytes, found %s', length)) AS rejected_with_22p03,
       string_agg(length::text, ',') FILTER (WHERE result = 'ok') AS accepted
FROM (SELECT length, sqlstate_of(format('SELECT %L::bytea::ulid', decode(repeat('cd', length), 'hex'))) AS result
      FROM generate_series(0, 64) AS length) s;

-- text: PostgreSQL's I/O casts, explicit from text, assignment to text.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::text::ulid AS from_text,
       '01arz3ndektsv4rrffq69g5fav'::varchar::ulid AS from_varchar,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::text AS to_text;
-- To varchar as to text, and by assignment into text and varchar columns; a varchar(n) too short
-- for the 26 characters is 22001 on assignment and cut by an explicit cast, as for any type.
SELECT '01arz3ndektsv4rrffq69g5fav'::ulid::varchar AS to_varchar, '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::varchar(10) AS to_varchar_10;
CREATE TABLE text_target (t text, v varchar, v26 varchar(26), v10 varchar(10));
INSERT INTO text_target (t, v, v26) VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid, '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid, '01arz3ndektsv4rrffq69g5fav'::ulid);
SELECT t, v, v26 FROM text_target;
SELECT sqlstate_of($$INSERT INTO text_target (v10) VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid)$$) AS into_varchar_10;
CREATE TABLE ulid_target (id ulid);
SELECT sqlstate_of($$INSERT INTO ulid_target SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::text$$) AS text_needs_explicit_cast,
       sqlstate_of($$INSERT INTO ulid_target SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::varchar$$) AS varchar_needs_explicit_cast;
DROP TABLE text_target, ulid_target;

-- ulid_randomness(): the 80 random bits as an exact numeric. The spec's example, whose last 16
-- characters 79KA1307SR9X4MV3 are its randomness; the spec's monotonic pair RZ then S0, one
-- apart; its overflow example, all 80 bits set; the smallest and largest ulid.
SELECT v AS id, ulid_randomness(v::ulid), ulid_randomness(v::ulid) = random_part(v::ulid) AS as_the_bytes_say
FROM unnest(ARRAY['01AN4Z07BY79KA1307SR9X4MV3', '01BX5ZZKBKACTAV9WEVGEMMVRZ', '01BX5ZZKBKACTAV9WEVGEMMVS0',
                  '01BX5ZZKBKZZZZZZZZZZZZZZZZ', '00000000000000000000000000', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ']) AS v;
SELECT ulid_randomness('01BX5ZZKBKACTAV9WEVGEMMVS0') - ulid_randomness('01BX5ZZKBKACTAV9WEVGEMMVRZ') AS monotonic_step,
       ulid_randomness('01BX5ZZKBKZZZZZZZZZZZZZZZZ') = 2::numeric ^ 80 - 1 AS all_80_bits,
       ulid_randomness(NULL) IS NULL AS strict;
-- 10,000 new ids: the randomness is the number that the last 10 bytes make, and the number that
-- the last 20 hex digits of the uuid with the same bytes make.
SELECT count(*) FILTER (WHERE ulid_randomness(u) = random_part(u)
                          AND ulid_randomness(u) = (SELECT sum((strpos('0123456789abcdef', substr(h, i, 1)) - 1)::numeric * 16::numeric ^ (20 - i))
                                                    FROM generate_series(1, 20) AS i)) AS agree
FROM (SELECT u, right(replace(u::uuid::text, '-', ''), 20) AS h FROM (SELECT gen_ulid() AS u FROM generate_series(1, 10000)) g) s;

-- No cast is implicit: an expression that mixes ulid with uuid, text, timestamptz or bytea is an
-- error, never a silent conversion (each of these would resolve if one of the casts were
-- implicit). How core expressions resolve beside the extension: tests/sql/install_schema.sql.
SELECT sqlstate_of($$SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01ARZ3NDEKTSV4RRFFQ69G5FAV'::text$$) AS ulid_eq_text,
       sqlstate_of($$SELECT coalesce('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid, gen_random_uuid())$$) AS coalesce_ulid_uuid,
       sqlstate_of($$SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid < now()$$) AS ulid_lt_timestamptz,
       sqlstate_of($$SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '\x00'::bytea$$) AS ulid_eq_bytea;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01ARZ3NDEKTSV4RRFFQ69G5FAV' AS ulid_eq_unknown,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid < '7ZZZZZZZZZZZZZZZZZZZZZZZZZ' AS ulid_lt_unknown;
