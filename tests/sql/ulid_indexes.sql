-- Index support: btree (range queries, deduplication), hash (index, join, aggregate,
-- PARTITION BY HASH) and BRIN.
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

-- 100000 events, one per second from 2025-01-01, keyed by their ulid.
CREATE TABLE events (id ulid PRIMARY KEY, n int NOT NULL);
INSERT INTO events
SELECT gen_ulid('2025-01-01 00:00:00+00'::timestamptz + n * interval '1 second'), n
FROM generate_series(0, 99999) AS n;
VACUUM ANALYZE events;

-- Rows created in a time range, through the primary key: [t1, t2) is id >= t1::ulid AND id < t2::ulid.
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events
WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulid AND id < '2025-01-01 10:10:00+00'::timestamptz::ulid;
SELECT count(*) AS rows_in_range, min(n), max(n),
       min(id::timestamptz) AS first_created, max(id::timestamptz) AS last_created
FROM events
WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulid AND id < '2025-01-01 10:10:00+00'::timestamptz::ulid;
-- The same through an expression index on the creation time (IMMUTABLE cast).
CREATE INDEX events_created ON events ((id::timestamptz));
ANALYZE events;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events WHERE id::timestamptz BETWEEN '2025-01-01 10:00:00+00' AND '2025-01-01 10:09:59+00';
SELECT count(*) FROM events WHERE id::timestamptz BETWEEN '2025-01-01 10:00:00+00' AND '2025-01-01 10:09:59+00';
DROP INDEX events_created;
-- A generated column works too.
ALTER TABLE events ADD COLUMN created timestamptz GENERATED ALWAYS AS (id::timestamptz) STORED;
SELECT created FROM events WHERE n = 3600;
ALTER TABLE events DROP COLUMN created;
-- Point lookup.
EXPLAIN (COSTS OFF) SELECT n FROM events WHERE id = '01JGFJJZ00XHF7E02JJ03AE4T7';

-- btree support: comparison, sort support, equalimage; deduplication is therefore on.
SELECT amproc.amprocnum, amproc.amproc::regprocedure
FROM pg_amproc amproc JOIN pg_opfamily f ON f.oid = amproc.amprocfamily JOIN pg_am am ON am.oid = f.opfmethod
WHERE amproc.amproclefttype = 'ulid'::regtype AND am.amname = 'btree'
ORDER BY 1;
CREATE EXTENSION pageinspect;
SELECT allequalimage FROM bt_metap('events_pkey');
-- 10000 equal keys: the ulid index is as small as uuid's, a quarter of one built without deduplication.
CREATE TABLE dups (id ulid, u uuid);
INSERT INTO dups SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid FROM generate_series(1, 10000);
CREATE INDEX dups_id ON dups (id);
CREATE INDEX dups_u ON dups (u);
CREATE INDEX dups_id_plain ON dups (id) WITH (deduplicate_items = off);
SELECT pg_relation_size('dups_id') = pg_relation_size('dups_u') AS same_as_uuid,
       pg_relation_size('dups_id') * 3 < pg_relation_size('dups_id_plain') AS deduplicated;
DROP EXTENSION pageinspect;
DROP TABLE dups;

-- A big sort (external, with abbreviated keys) gives the same order as uuid's.
SET work_mem = '64kB';
SELECT (SELECT array_agg(id ORDER BY id DESC) FROM events) = (SELECT array_agg(id ORDER BY id::uuid DESC) FROM events) AS sort_ok;
RESET work_mem;

-- hash: the index, a hash join, a hash aggregate.
CREATE TABLE hashed (id ulid);
INSERT INTO hashed SELECT id FROM events WHERE n % 10 = 0;
CREATE INDEX hashed_id ON hashed USING hash (id);
ANALYZE hashed;
EXPLAIN (COSTS OFF) SELECT * FROM hashed WHERE id = '01JGFJJZ00XHF7E02JJ03AE4T7';
SELECT count(*) FROM hashed WHERE id = (SELECT id FROM events WHERE n = 500);
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM events e JOIN hashed h ON e.id = h.id;
SELECT count(*) AS hash_joined FROM events e JOIN hashed h ON e.id = h.id;
RESET enable_mergejoin;
SET enable_hashjoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM events e JOIN hashed h ON e.id = h.id;
SELECT count(*) AS merge_joined FROM events e JOIN hashed h ON e.id = h.id;
RESET enable_hashjoin;
RESET enable_nestloop;
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT id, count(*) FROM hashed GROUP BY id;
SELECT count(*) AS groups FROM (SELECT id, count(*) FROM hashed GROUP BY id) g;
RESET enable_sort;
-- The 32-bit and the seeded 64-bit hash are uuid's (so a ulid and its uuid hash alike).
SELECT bool_and(ulid_hash(id) = uuid_hash(id::uuid)) AS hash32,
       bool_and(ulid_hash_extended(id, 42) = uuid_hash_extended(id::uuid, 42)) AS hash64,
       bool_and(((ulid_hash_extended(id, 0) # ulid_hash(id)) & 4294967295) = 0) AS seed0_low_bits_agree
FROM hashed;

-- PARTITION BY HASH: rows spread over every partition, a key finds its partition, and the
-- partition of a ulid is the partition of the same uuid.
CREATE TABLE parted (id ulid PRIMARY KEY, n int) PARTITION BY HASH (id);
CREATE TABLE parted_0 PARTITION OF parted FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE parted_1 PARTITION OF parted FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE parted_2 PARTITION OF parted FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE parted_3 PARTITION OF parted FOR VALUES WITH (MODULUS 4, REMAINDER 3);
CREATE TABLE parted_uuid (id uuid, n int) PARTITION BY HASH (id);
CREATE TABLE parted_uuid_0 PARTITION OF parted_uuid FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE parted_uuid_1 PARTITION OF parted_uuid FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE parted_uuid_2 PARTITION OF parted_uuid FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE parted_uuid_3 PARTITION OF parted_uuid FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO parted SELECT id, n FROM events WHERE n < 4000;
INSERT INTO parted_uuid SELECT id::uuid, n FROM events WHERE n < 4000;
SELECT tableoid::regclass AS partition, count(*) > 800 AS well_spread FROM parted GROUP BY 1 ORDER BY 1;
SELECT count(*) AS same_partition_as_uuid
FROM (SELECT n, right(tableoid::regclass::text, 1) AS p FROM parted) a
JOIN (SELECT n, right(tableoid::regclass::text, 1) AS p FROM parted_uuid) b USING (n, p);
EXPLAIN (COSTS OFF) SELECT n FROM parted WHERE id = '01JGFJJZ00XHF7E02JJ03AE4T7';
SELECT n FROM parted WHERE id = (SELECT id FROM events WHERE n = 1234);
SELECT sqlstate_of($$INSERT INTO parted_0 SELECT id, n FROM events WHERE n < 4000 AND NOT satisfies_hash_partition('parted'::regclass, 4, 0, id) LIMIT 1$$) AS wrong_partition;
DROP TABLE parted, parted_uuid;

-- BRIN: minmax (default) and minmax-multi on an append-only table.
CREATE TABLE log (id ulid NOT NULL, payload text);
INSERT INTO log SELECT id, repeat('x', 100) FROM events ORDER BY id;
CREATE INDEX log_brin ON log USING brin (id) WITH (pages_per_range = 8);
ANALYZE log;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM log WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulid AND id < '2025-01-01 10:10:00+00'::timestamptz::ulid;
SELECT count(*) AS brin_minmax FROM log WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulid AND id < '2025-01-01 10:10:00+00'::timestamptz::ulid;
DROP INDEX log_brin;
CREATE INDEX log_brin_multi ON log USING brin (id ulid_minmax_multi_ops) WITH (pages_per_range = 8);
-- A few out-of-order ids do not spoil minmax-multi.
INSERT INTO log SELECT gen_ulid('2030-01-01 00:00:00+00'), 'late' FROM generate_series(1, 3);
ANALYZE log;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM log WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulid AND id < '2025-01-01 10:10:00+00'::timestamptz::ulid;
SELECT count(*) AS brin_minmax_multi FROM log WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulid AND id < '2025-01-01 10:10:00+00'::timestamptz::ulid;
SELECT count(*) AS late FROM log WHERE id >= '2030-01-01 00:00:00+00'::timestamptz::ulid;
DROP TABLE log, hashed, events;
