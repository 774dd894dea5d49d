-- Operators, min/max and index support of ulidflake.
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

SELECT o.oprname, o.oprcode, c.oprname AS commutator, n.oprname AS negator,
       o.oprrest, o.oprjoin, o.oprcanhash AS hashes, o.oprcanmerge AS merges
FROM pg_operator o
LEFT JOIN pg_operator c ON c.oid = o.oprcom
LEFT JOIN pg_operator n ON n.oid = o.oprnegate
WHERE o.oprleft = 'ulidflake'::regtype AND o.oprright = 'ulidflake'::regtype
ORDER BY o.oprname;
SELECT a, b, a = b AS eq, a <> b AS ne, a < b AS lt, a <= b AS le, a > b AS gt, a >= b AS ge
FROM (VALUES ('00CMXB6TAK4SA'::ulidflake)) AS x(a),
     (VALUES ('00CMXB6TAK4S9'::ulidflake), ('00CMXB6TAK4SA'), ('00cmxb6tak4sb'), ('7ZZZZZZZZZZZZ'), ('0000000000000'), (NULL)) AS y(b);

-- 100000 events, one per second from 2025-01-01, keyed by their ulidflake.
CREATE TABLE fevents (id ulidflake PRIMARY KEY, n int NOT NULL);
INSERT INTO fevents
SELECT (('2025-01-01 00:00:00+00'::timestamptz + n * interval '1 second')::ulidflake::bigint + n % 1048576)::ulidflake, n
FROM generate_series(0, 99999) AS n;
VACUUM ANALYZE fevents;
SELECT (SELECT array_agg(id ORDER BY id) FROM fevents) = (SELECT array_agg(id ORDER BY id::bigint) FROM fevents) AS bigint_order,
       (SELECT array_agg(id ORDER BY id) FROM fevents) = (SELECT array_agg(id ORDER BY id::text COLLATE "C") FROM fevents) AS text_order,
       (SELECT array_agg(id ORDER BY id) FROM fevents) = (SELECT array_agg(id ORDER BY n) FROM fevents) AS time_order;
SELECT min(id) = (SELECT id FROM fevents WHERE n = 0) AS min_ok, max(id) = (SELECT id FROM fevents WHERE n = 99999) AS max_ok
FROM fevents;
SELECT a.aggfnoid::regprocedure, a.aggtransfn, a.aggcombinefn, o.oprname AS sortop
FROM pg_aggregate a JOIN pg_operator o ON o.oid = a.aggsortop
WHERE a.aggfnoid::regprocedure::text IN ('min(ulidflake)', 'max(ulidflake)')
ORDER BY a.aggfnoid::regprocedure::text COLLATE "C";
SELECT plan_nodes('SELECT max(id) FROM fevents');
-- In parallel: two workers each aggregate part of the table, and the leader combines their
-- partial states (int8smaller and int8larger as combine functions); one execution, kept.
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
SET parallel_leader_participation = off;
SELECT * FROM run_into('SELECT min(id) AS lo, max(id) AS hi FROM fevents', 'fevents_minmax');
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
RESET enable_indexscan;
RESET enable_indexonlyscan;
RESET enable_bitmapscan;
RESET parallel_leader_participation;
SELECT lo = (SELECT id FROM fevents WHERE n = 0) AS parallel_min_ok, hi = (SELECT id FROM fevents WHERE n = 99999) AS parallel_max_ok
FROM fevents_minmax;
DROP TABLE fevents_minmax;

-- Rows created in a time range, through the primary key.
EXPLAIN (COSTS OFF)
SELECT count(*) FROM fevents
WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulidflake AND id < '2025-01-01 10:10:00+00'::timestamptz::ulidflake;
SELECT count(*) AS rows_in_range, min(n), max(n), min(id::timestamptz) AS first_created, max(id::timestamptz) AS last_created
FROM fevents
WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulidflake AND id < '2025-01-01 10:10:00+00'::timestamptz::ulidflake;

-- btree: bigint's support functions; deduplication as bigint's.
SELECT amproc.amprocnum, amproc.amproc::regprocedure
FROM pg_amproc amproc JOIN pg_opfamily f ON f.oid = amproc.amprocfamily JOIN pg_am am ON am.oid = f.opfmethod
WHERE amproc.amproclefttype = 'ulidflake'::regtype AND am.amname IN ('btree', 'hash')
ORDER BY am.amname, 1;
CREATE TABLE fdups (f ulidflake, b bigint);
INSERT INTO fdups SELECT '00CMXB6TAK4SA', 14246757444195114 FROM generate_series(1, 10000);
CREATE INDEX fdups_f ON fdups (f);
CREATE INDEX fdups_b ON fdups (b);
CREATE INDEX fdups_f_plain ON fdups (f) WITH (deduplicate_items = off);
SELECT pg_relation_size('fdups_f') = pg_relation_size('fdups_b') AS same_as_bigint,
       pg_relation_size('fdups_f') * 2 < pg_relation_size('fdups_f_plain') AS deduplicated;
DROP TABLE fdups;

-- hash: index, join, aggregate; a ulidflake hashes like its bigint.
CREATE TABLE fhashed (id ulidflake);
INSERT INTO fhashed SELECT id FROM fevents WHERE n % 10 = 0;
CREATE INDEX fhashed_id ON fhashed USING hash (id);
ANALYZE fhashed;
EXPLAIN (COSTS OFF) SELECT * FROM fhashed WHERE id = '00CMXB6TAK4SA';
-- One execution reads the hash index and finds the row (EXPLAIN ANALYZE).
SELECT index_reads($$SELECT * FROM fhashed WHERE id = '$$ || (SELECT id FROM fevents WHERE n = 500) || $$'$$);
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM fevents e JOIN fhashed h ON e.id = h.id;
SELECT count(*) AS hash_joined FROM fevents e JOIN fhashed h ON e.id = h.id;
RESET enable_mergejoin;
RESET enable_nestloop;
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT id, count(*) FROM fhashed GROUP BY id;
SELECT count(*) AS groups FROM (SELECT id, count(*) FROM fhashed GROUP BY id) g;
RESET enable_sort;
-- The hashes are bigint's: the spec's example against core's hashes of its integer value.
SELECT ulidflake_hash('00CMXB6TAK4SA') AS ulidflake_hash, hashint8(14246757444195114) AS bigint_hash,
       ulidflake_hash_extended('00CMXB6TAK4SA', 42) AS ulidflake_hash_extended_42,
       hashint8extended(14246757444195114, 42) AS bigint_hash_extended_42;

-- PARTITION BY HASH: the partition of a ulidflake is the partition of the same bigint.
CREATE TABLE fparted (id ulidflake PRIMARY KEY, n int) PARTITION BY HASH (id);
CREATE TABLE fparted_0 PARTITION OF fparted FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE fparted_1 PARTITION OF fparted FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE fparted_2 PARTITION OF fparted FOR VALUES WITH (MODULUS 3, REMAINDER 2);
CREATE TABLE bparted (id bigint, n int) PARTITION BY HASH (id);
CREATE TABLE bparted_0 PARTITION OF bparted FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE bparted_1 PARTITION OF bparted FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE bparted_2 PARTITION OF bparted FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO fparted SELECT id, n FROM fevents WHERE n < 3000;
INSERT INTO bparted SELECT id::bigint, n FROM fevents WHERE n < 3000;
SELECT tableoid::regclass AS partition, count(*) > 700 AS well_spread FROM fparted GROUP BY 1 ORDER BY 1;
SELECT count(*) AS same_partition_as_bigint
FROM (SELECT n, right(tableoid::regclass::text, 1) AS p FROM fparted) a
JOIN (SELECT n, right(tableoid::regclass::text, 1) AS p FROM bparted) b USING (n, p);
EXPLAIN (COSTS OFF) SELECT n FROM fparted WHERE id = '00CMXB6TAK4SA';
DROP TABLE fparted, bparted;

-- BRIN, as for ulid (ulid_indexes.sql): on ids in time order, a 10-minute query reads a few block
-- ranges; with every 50th row from 2030 (out of order, all through the table), minmax reads a
-- third of the table and minmax-multi still a few block ranges.
CREATE TABLE flog (id ulidflake NOT NULL, payload text);
INSERT INTO flog SELECT id, repeat('x', 100) FROM fevents ORDER BY id;
CREATE TABLE late_flog (id ulidflake NOT NULL, payload text);
INSERT INTO late_flog
SELECT CASE WHEN n % 50 = 0 THEN ('2030-01-01 00:00:00+00'::timestamptz + n * interval '1 second')::ulidflake ELSE id END,
       repeat('x', 100)
FROM fevents ORDER BY n;
VACUUM ANALYZE flog, late_flog;
CREATE INDEX flog_brin ON flog USING brin (id) WITH (pages_per_range = 8);
CREATE INDEX late_flog_brin ON late_flog USING brin (id) WITH (pages_per_range = 8);
SET enable_seqscan = off;
SELECT plan_nodes($$SELECT count(*) FROM flog WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulidflake AND id < '2025-01-01 10:10:00+00'::timestamptz::ulidflake$$);
SELECT 'minmax, in order' AS "table", r.heap_blocks, r.heap_blocks <= 4 * 8 AS at_most_4_block_ranges,
       r.heap_blocks * 4 > r.table_blocks AS over_a_quarter_of_the_table, r.table_blocks,
       (SELECT count(*) FROM flog WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulidflake AND id < '2025-01-01 10:10:00+00'::timestamptz::ulidflake) AS rows_in_range
FROM bitmap_scan_reads($$SELECT count(*) FROM flog WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulidflake AND id < '2025-01-01 10:10:00+00'::timestamptz::ulidflake$$, 'flog') AS r
UNION ALL
SELECT 'minmax, late ids', r.heap_blocks, r.heap_blocks <= 4 * 8, r.heap_blocks * 4 > r.table_blocks, r.table_blocks,
       (SELECT count(*) FROM late_flog WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulidflake AND id < '2025-01-01 10:10:00+00'::timestamptz::ulidflake)
FROM bitmap_scan_reads($$SELECT count(*) FROM late_flog WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulidflake AND id < '2025-01-01 10:10:00+00'::timestamptz::ulidflake$$, 'late_flog') AS r;
DROP INDEX late_flog_brin;
CREATE INDEX late_flog_brin_multi ON late_flog USING brin (id ulidflake_minmax_multi_ops) WITH (pages_per_range = 8);
SELECT plan_nodes($$SELECT count(*) FROM late_flog WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulidflake AND id < '2025-01-01 10:10:00+00'::timestamptz::ulidflake$$);
SELECT 'minmax-multi, late ids' AS "table", r.heap_blocks, r.heap_blocks <= 4 * 8 AS at_most_4_block_ranges,
       r.heap_blocks * 4 > r.table_blocks AS over_a_quarter_of_the_table, r.table_blocks,
       (SELECT count(*) FROM late_flog WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulidflake AND id < '2025-01-01 10:10:00+00'::timestamptz::ulidflake) AS rows_in_range
FROM bitmap_scan_reads($$SELECT count(*) FROM late_flog WHERE id >= '2025-01-01 10:00:00+00'::timestamptz::ulidflake AND id < '2025-01-01 10:10:00+00'::timestamptz::ulidflake$$, 'late_flog') AS r;
RESET enable_seqscan;
DROP TABLE late_flog;
DROP TABLE flog, fhashed, fevents;
