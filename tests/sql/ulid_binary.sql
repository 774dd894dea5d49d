-- Binary I/O: a ulid's wire format is the 16 raw bytes, exactly uuid's.

-- The spec's example ULID is the uuid 01563e3a-b5d3-d676-4c61-efb99302bd5b: those 16 bytes.
SELECT ulid_send('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS sent,
       ulid_send('01ARZ3NDEKTSV4RRFFQ69G5FAV') = '\x01563e3ab5d3d6764c61efb99302bd5b'::bytea AS the_uuids_bytes;

-- COPY (FORMAT binary) out and back in.
CREATE TABLE bin_src AS SELECT gen_ulid() AS id FROM generate_series(1, 1000);
CREATE TABLE bin_ulid (id ulid);
CREATE TABLE bin_uuid (id uuid);
SELECT sqlstate_of(format('COPY bin_src TO %L (FORMAT binary)', data_file('bin_src.copy'))) AS copy_out,
       sqlstate_of(format('COPY bin_ulid FROM %L (FORMAT binary)', data_file('bin_src.copy'))) AS copy_in_as_ulid,
       sqlstate_of(format('COPY bin_uuid FROM %L (FORMAT binary)', data_file('bin_src.copy'))) AS copy_in_as_uuid;
SELECT (SELECT array_agg(id ORDER BY id) FROM bin_src) = (SELECT array_agg(id ORDER BY id) FROM bin_ulid) AS ulid_intact,
       (SELECT count(*) FROM bin_src JOIN bin_uuid ON bin_src.id::uuid = bin_uuid.id) AS read_as_the_same_uuid;
-- Each field in the file is a 4-byte length of 16 and the 16 bytes of the value.
SELECT position(int4send(16) || ulid_send(id) IN pg_read_binary_file(data_file('bin_src.copy'))) > 0 AS bytes_in_file
FROM bin_src ORDER BY id LIMIT 1;
-- uuid values written in binary are read as the ulids with the same bytes.
TRUNCATE bin_ulid;
SELECT sqlstate_of(format('COPY bin_uuid TO %L (FORMAT binary)', data_file('bin_uuid.copy'))) AS copy_out,
       sqlstate_of(format('COPY bin_ulid FROM %L (FORMAT binary)', data_file('bin_uuid.copy'))) AS copy_in;
SELECT count(*) AS matched FROM bin_uuid JOIN bin_ulid ON bin_uuid.id = bin_ulid.id::uuid;

-- A crafted file with a 16-byte field is accepted; any other length is 22P03.
SELECT length, sqlstate_of(format(
           'SELECT write_file(%L, %L); COPY bin_ulid FROM %L (FORMAT binary)',
           data_file('crafted.copy'), copy_file_with_field(substr('\x0102030405060708090a0b0c0d0e0f101112'::bytea, 1, length)),
           data_file('crafted.copy'))) AS result
FROM (VALUES (16), (0), (1), (15), (17), (18)) AS v(length);
SELECT id FROM bin_ulid WHERE id = '\x0102030405060708090a0b0c0d0e0f10'::bytea::ulid;
-- Every length from 0 to 64 bytes: only 16 is accepted, each other one is 22P03 saying its length.
SELECT count(*) AS lengths_tried,
       count(*) FILTER (WHERE result = format('22P03: invalid binary ulid: expected 16 bytes, found %s', length)) AS rejected_with_22p03,
       string_agg(length::text, ',') FILTER (WHERE result = 'ok') AS accepted
FROM (SELECT length, sqlstate_of(format(
                 'SELECT write_file(%L, %L); COPY bin_ulid FROM %L (FORMAT binary)',
                 data_file('crafted.copy'), copy_file_with_field(decode(repeat('ab', length), 'hex')),
                 data_file('crafted.copy'))) AS result
      FROM generate_series(0, 64) AS length) s;

-- COPY in text format, both directions.
CREATE TABLE text_copy (id ulid);
COPY text_copy FROM STDIN;
01ARZ3NDEKTSV4RRFFQ69G5FAV
01arz3ndektsv4rrffq69g5fav
7ZZZZZZZZZZZZZZZZZZZZZZZZZ
\.
COPY text_copy TO STDOUT;
COPY text_copy FROM STDIN;
01ARZ3NDEKTSV4RRFFQ69G5FAU
\.
SELECT count(*) FROM text_copy;
-- A text-format round trip of the 1000 generated ids: out to a file, back in, the same values.
TRUNCATE text_copy;
SELECT sqlstate_of(format('COPY bin_src TO %L', data_file('text_src.copy'))) AS copy_out,
       sqlstate_of(format('COPY text_copy FROM %L', data_file('text_src.copy'))) AS copy_in;
SELECT (SELECT array_agg(id ORDER BY id) FROM bin_src) = (SELECT array_agg(id ORDER BY id) FROM text_copy) AS text_round_trip_intact,
       (SELECT count(*) FROM text_copy) AS copied;

DROP TABLE bin_src, bin_ulid, bin_uuid, text_copy;
