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
-- 10000 equal keys: the ulid index is as small as uuid's, and under a third of the size of one
-- built without deduplication.
CREATE TABLE dups (id ulid, u uuid);
INSERT INTO dups SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid FROM generate_series(1, 10000);
CREATE INDEX dups_id ON dups (id);
CREATE INDEX dups_u ON dups (u);
CREATE INDEX dups_id_plain ON dups (id) WITH (deduplicate_items = off);
SELECT pg_relation_size('dups_id') = pg_relation_size('dups_u') AS same_as_uuid,
       pg_relation_size('dups_id') * 3 < pg_relation_size('dups_id_plain') AS deduplicated;
DROP EXTENSION pageinspect;
DROP TABLE dups;

-- A big sort that spills to disk (with abbreviated keys) gives the same order as uuid's; the
-- plan that ran says how it sorted.
SET work_mem = '64kB';
SELECT (SELECT array_agg(id ORDER BY id DESC) FROM events) = (SELECT array_agg(id ORDER BY id::uuid DESC) FROM events) AS sort_ok;
-- (The same sorts as plain ORDER BY queries, with the primary key kept out of the way.)
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
SELECT sort_methods('SELECT id FROM events ORDER BY id DESC') AS ulid_sort,
       sort_methods('SELECT id::uuid FROM events ORDER BY 1 DESC') AS uuid_sort;
RESET ALL;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

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
-- The 32-bit and the seeded 64-bit hash are uuid's, so a ulid and the uuid with its bytes hash
-- alike (and land in the same hash partition, below): the spec's example against core's hashes
-- of its uuid, typed as a uuid literal.
SELECT ulid_hash('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS ulid_hash,
       uuid_hash('01563e3a-b5d3-d676-4c61-efb99302bd5b') AS uuid_hash,
       ulid_hash_extended('01ARZ3NDEKTSV4RRFFQ69G5FAV', 42) AS ulid_hash_extended_42,
       uuid_hash_extended('01563e3a-b5d3-d676-4c61-efb99302bd5b', 42) AS uuid_hash_extended_42;

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

-- BRIN on an append-only table whose ids grow with time: the events' 100000 ids in order, 8
-- pages per block range. A query for 10 minutes (600 rows) reads a few block ranges, not the
-- table: the heap blocks the bitmap scan read and the rows its recheck threw away, against the
-- table's size in blocks.
CREATE TABLE log (id ulid NOT NULL, payload text);
INSERT INTO log SELECT id, repeat('x', 100) FROM events ORDER BY id;
CREATE INDEX log_brin ON log USING brin (id) WITH (pages_per_range = 8);
VACUUM ANALYZE log;
SET enable_seqscan = off;
SELECT plan_nodes($$SELECT count(*) FROM log WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulid AND id < '2025-01-01 10:10:00+00'::timestamptz::ulid$$);
SELECT count(*) AS brin_minmax FROM log WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulid AND id < '2025-01-01 10:10:00+00'::timestamptz::ulid;
SELECT heap_blocks, heap_blocks <= 4 * 8 AS at_most_4_block_ranges, rows_rechecked_away, table_blocks
FROM bitmap_scan_reads($$SELECT count(*) FROM log WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulid AND id < '2025-01-01 10:10:00+00'::timestamptz::ulid$$, 'log');
DROP TABLE log;

-- minmax-multi where it differs from minmax: the same table, but every 50th row, all through it,
-- has an id from 2030 (out of order). A minmax block range then spans from its own times to 2030,
-- so it overlaps the queried 10 minutes whenever it starts before them: a third of the table is
-- read. minmax-multi keeps the in-order interval and the 2030 ids apart, and still reads only the
-- block ranges that hold the 10 minutes. Both count the same rows.
CREATE TABLE late_log (id ulid NOT NULL, payload text);
INSERT INTO late_log
SELECT CASE WHEN n % 50 = 0 THEN gen_ulid('2030-01-01 00:00:00+00'::timestamptz + n * interval '1 second') ELSE id END,
       repeat('x', 100)
FROM events ORDER BY n;
VACUUM ANALYZE late_log;
CREATE INDEX late_log_brin ON late_log USING brin (id) WITH (pages_per_range = 8);
SELECT 'minmax' AS opclass, r.heap_blocks, r.heap_blocks * 4 > r.table_blocks AS over_a_quarter_of_the_table,
       r.rows_rechecked_away, r.table_blocks,
       (SELECT count(*) FROM late_log WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulid AND id < '2025-01-01 10:10:00+00'::timestamptz::ulid) AS rows_in_range
FROM bitmap_scan_reads($$SELECT count(*) FROM late_log WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulid AND id < '2025-01-01 10:10:00+00'::timestamptz::ulid$$, 'late_log') AS r;
DROP INDEX late_log_brin;
CREATE INDEX late_log_brin_multi ON late_log USING brin (id ulid_minmax_multi_ops) WITH (pages_per_range = 8);
SELECT plan_nodes($$SELECT count(*) FROM late_log WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulid AND id < '2025-01-01 10:10:00+00'::timestamptz::ulid$$);
SELECT 'minmax-multi' AS opclass, r.heap_blocks, r.heap_blocks <= 4 * 8 AS at_most_4_block_ranges,
       r.rows_rechecked_away, r.table_blocks,
       (SELECT count(*) FROM late_log WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulid AND id < '2025-01-01 10:10:00+00'::timestamptz::ulid) AS rows_in_range
FROM bitmap_scan_reads($$SELECT count(*) FROM late_log WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulid AND id < '2025-01-01 10:10:00+00'::timestamptz::ulid$$, 'late_log') AS r;
-- The late ids themselves are found too.
SELECT count(*) AS late FROM late_log WHERE id >= '2030-01-01 00:00:00+00'::timestamptz::ulid;
RESET enable_seqscan;
DROP TABLE late_log;
DROP TABLE hashed, events;
