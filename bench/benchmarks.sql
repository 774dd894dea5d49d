-- The benchmarks. psql variables: n (rows), reps (repetitions). Run by scripts/bench.sh.
\set ON_ERROR_STOP 1
SET max_parallel_workers_per_gather = 0;
SET max_parallel_maintenance_workers = 0;
SET jit = off;

-- 1. Generation, per row. On PostgreSQL 18 and later, also core uuidv7(). The portable SQL
-- edition's generator (portable/ulid_portable.sql, installed in schema portable by bench.sh) too.
SELECT current_setting('server_version_num')::int >= 180000 AS has_uuidv7 \gset
CALL bench_group('generation',
    ARRAY['floor: count(x)', 'gen_ulid()', 'gen_monotonic_ulid()', 'gen_ulidflake()', 'gen_random_uuid()',
          'clock_timestamp()', 'portable: gen_ulid_uuid()']
        || CASE WHEN :'has_uuidv7'::boolean THEN ARRAY['uuidv7()'] ELSE '{}' END,
    ARRAY[format('SELECT count(x) FROM generate_series(1, %s) AS x', :n),
          format('SELECT count(gen_ulid()) FROM generate_series(1, %s) AS x', :n),
          format('SELECT count(gen_monotonic_ulid()) FROM generate_series(1, %s) AS x', :n),
          format('SELECT count(gen_ulidflake()) FROM generate_series(1, %s) AS x', :n),
          format('SELECT count(gen_random_uuid()) FROM generate_series(1, %s) AS x', :n),
          format('SELECT count(clock_timestamp()) FROM generate_series(1, %s) AS x', :n),
          format('SELECT count(portable.gen_ulid_uuid()) FROM generate_series(1, %s) AS x', :n)]
        || CASE WHEN :'has_uuidv7'::boolean THEN ARRAY[format('SELECT count(uuidv7()) FROM generate_series(1, %s) AS x', :n)]
                ELSE '{}' END,
    :reps);
-- The least time the Ulid-Flake rules allow for n ids, however fast the code: each millisecond
-- starts at a random 20-bit value (2^19 left on average) and steps by 1..255 (128 on average),
-- so a millisecond holds about 2^19 / 128 = 4096 ids on average, and then the generator must
-- wait for the next one. n ids take at least n / 4096 ms; recorded for every round so that the
-- report can set it against the floor and against gen_ulidflake().
INSERT INTO bench_times
SELECT 'generation', 'the format''s rate limit: n / 4096 ms', r, :n / 4096.0 FROM generate_series(1, :reps) AS r;
INSERT INTO bench_comparisons (section, bench, ours, baseline, target, note) VALUES
    ('generation', 'generation', 'gen_ulid()', 'floor: count(x)', 1.4, NULL),
    ('generation', 'generation', 'gen_ulid()', 'gen_random_uuid()', 0.2, 'at least 5x faster'),
    ('generation', 'generation', 'gen_monotonic_ulid()', 'gen_ulid()', 1.1, NULL),
    ('generation', 'generation', 'gen_ulidflake()', 'floor: count(x)', 1.3, NULL),
    ('generation', 'generation', 'the format''s rate limit: n / 4096 ms', 'floor: count(x)', NULL,
     'for reference: the least time any gen_ulidflake() needs, as a ratio to the floor'),
    ('generation', 'generation', 'gen_ulidflake()', 'the format''s rate limit: n / 4096 ms', NULL,
     'for reference: gen_ulidflake() against that limit'),
    ('generation', 'generation', 'gen_random_uuid()', 'floor: count(x)', NULL, 'for reference'),
    ('generation', 'generation', 'clock_timestamp()', 'floor: count(x)', NULL,
     'for reference: core''s read of the wall clock, which every generator must make'),
    ('generation', 'generation', 'portable: gen_ulid_uuid()', 'gen_ulid()', NULL,
     'for reference: the portable SQL edition, for databases without the extension'),
    ('generation', 'generation', 'portable: gen_ulid_uuid()', 'gen_random_uuid()', NULL,
     'for reference: the portable edition against the core generator it draws its random bits from');
INSERT INTO bench_comparisons (section, bench, ours, baseline, target, note)
SELECT * FROM (VALUES
    ('generation', 'generation', 'gen_ulid()', 'uuidv7()', 1.0, 'as fast as core''s time-ordered uuid'),
    ('generation', 'generation', 'uuidv7()', 'floor: count(x)', NULL, 'for reference')) AS v
WHERE :'has_uuidv7'::boolean;

-- The data for the other benchmarks: n ids from the last 30 days, in random order; the uuid and
-- bigint tables hold the same values.
CREATE TABLE d_ulid AS
SELECT gen_ulid(now() - random() * interval '30 days') AS v FROM generate_series(1, :n) ORDER BY random();
CREATE TABLE d_uuid AS SELECT v::uuid AS v FROM d_ulid;
CREATE TABLE d_ulid2 AS SELECT v FROM d_ulid ORDER BY random();
CREATE TABLE d_uuid2 AS SELECT v::uuid AS v FROM d_ulid2;
CREATE TABLE d_flake AS
SELECT ((now() - random() * interval '30 days')::ulidflake::bigint + (random() * 1048575)::int)::ulidflake AS v
FROM generate_series(1, :n) ORDER BY random();
CREATE TABLE d_bigint AS SELECT v::bigint AS v FROM d_flake;
CREATE TABLE d_flake2 AS SELECT v FROM d_flake ORDER BY random();
CREATE TABLE d_bigint2 AS SELECT v::bigint AS v FROM d_flake2;
CREATE TABLE t_ulid AS SELECT v::text AS s FROM d_ulid;
CREATE TABLE t_uuid AS SELECT v::text AS s FROM d_uuid;
CREATE TABLE t_flake AS SELECT v::text AS s FROM d_flake;
CREATE TABLE t_bigint AS SELECT v::text AS s FROM d_bigint;
VACUUM ANALYZE;

-- 2. Text input and output.
CALL bench_group('parse ulid', ARRAY['ulid', 'uuid'],
    ARRAY['SELECT count(s::ulid) FROM t_ulid', 'SELECT count(s::uuid) FROM t_uuid'], :reps);
CALL bench_group('print ulid', ARRAY['ulid', 'uuid'],
    ARRAY['SELECT count(v::text) FROM d_ulid', 'SELECT count(v::text) FROM d_uuid'], :reps);
CALL bench_group('parse ulidflake', ARRAY['ulidflake', 'bigint'],
    ARRAY['SELECT count(s::ulidflake) FROM t_flake', 'SELECT count(s::bigint) FROM t_bigint'], :reps);
CALL bench_group('print ulidflake', ARRAY['ulidflake', 'bigint'],
    ARRAY['SELECT count(v::text) FROM d_flake', 'SELECT count(v::text) FROM d_bigint'], :reps);
INSERT INTO bench_comparisons (section, bench, ours, baseline, target) VALUES
    ('text', 'parse ulid', 'ulid', 'uuid', 1.0),
    ('text', 'print ulid', 'ulid', 'uuid', 1.0),
    ('text', 'parse ulidflake', 'ulidflake', 'bigint', 1.0),
    ('text', 'print ulidflake', 'ulidflake', 'bigint', 1.0);

-- 3. Sorting and indexing.
CALL bench_group('CREATE INDEX (ulid)', ARRAY['ulid', 'uuid'],
    ARRAY['CREATE INDEX bench_a ON d_ulid (v)', 'CREATE INDEX bench_b ON d_uuid (v)'], :reps,
    'DROP INDEX IF EXISTS bench_a; DROP INDEX IF EXISTS bench_b');
CALL bench_group('ORDER BY (ulid)', ARRAY['ulid', 'uuid'],
    ARRAY['SELECT count(*) FROM (SELECT v FROM d_ulid ORDER BY v) s',
          'SELECT count(*) FROM (SELECT v FROM d_uuid ORDER BY v) s'], :reps);
SET enable_mergejoin = off;
SET enable_nestloop = off;
CALL bench_group('hash join (ulid)', ARRAY['ulid', 'uuid'],
    ARRAY['SELECT count(*) FROM d_ulid a JOIN d_ulid2 b ON a.v = b.v',
          'SELECT count(*) FROM d_uuid a JOIN d_uuid2 b ON a.v = b.v'], :reps);
RESET enable_mergejoin;
RESET enable_nestloop;
SET enable_sort = off;
CALL bench_group('hash aggregate (ulid)', ARRAY['ulid', 'uuid'],
    ARRAY['SELECT count(*) FROM (SELECT v FROM d_ulid GROUP BY v) s',
          'SELECT count(*) FROM (SELECT v FROM d_uuid GROUP BY v) s'], :reps);
RESET enable_sort;
CALL bench_group('CREATE INDEX (ulidflake)', ARRAY['ulidflake', 'bigint'],
    ARRAY['CREATE INDEX bench_a ON d_flake (v)', 'CREATE INDEX bench_b ON d_bigint (v)'], :reps,
    'DROP INDEX IF EXISTS bench_a; DROP INDEX IF EXISTS bench_b');
CALL bench_group('ORDER BY (ulidflake)', ARRAY['ulidflake', 'bigint'],
    ARRAY['SELECT count(*) FROM (SELECT v FROM d_flake ORDER BY v) s',
          'SELECT count(*) FROM (SELECT v FROM d_bigint ORDER BY v) s'], :reps);
SET enable_mergejoin = off;
SET enable_nestloop = off;
CALL bench_group('hash join (ulidflake)', ARRAY['ulidflake', 'bigint'],
    ARRAY['SELECT count(*) FROM d_flake a JOIN d_flake2 b ON a.v = b.v',
          'SELECT count(*) FROM d_bigint a JOIN d_bigint2 b ON a.v = b.v'], :reps);
RESET enable_mergejoin;
RESET enable_nestloop;
SET enable_sort = off;
CALL bench_group('hash aggregate (ulidflake)', ARRAY['ulidflake', 'bigint'],
    ARRAY['SELECT count(*) FROM (SELECT v FROM d_flake GROUP BY v) s',
          'SELECT count(*) FROM (SELECT v FROM d_bigint GROUP BY v) s'], :reps);
RESET enable_sort;
INSERT INTO bench_comparisons (section, bench, ours, baseline, target)
SELECT 'sort', b, o, base, 1.05
FROM (VALUES ('CREATE INDEX (ulid)', 'ulid', 'uuid'), ('ORDER BY (ulid)', 'ulid', 'uuid'),
             ('hash join (ulid)', 'ulid', 'uuid'), ('hash aggregate (ulid)', 'ulid', 'uuid'),
             ('CREATE INDEX (ulidflake)', 'ulidflake', 'bigint'), ('ORDER BY (ulidflake)', 'ulidflake', 'bigint'),
             ('hash join (ulidflake)', 'ulidflake', 'bigint'), ('hash aggregate (ulidflake)', 'ulidflake', 'bigint'))
     AS v(b, o, base);

-- 5. Storage: n rows in a table with a btree index, for each representation.
CREATE TABLE s_ulid AS SELECT v FROM d_ulid ORDER BY v;
CREATE TABLE s_uuid AS SELECT v FROM d_uuid ORDER BY v;
CREATE TABLE s_text AS SELECT v::text AS v FROM d_ulid ORDER BY v;
CREATE TABLE s_flake AS SELECT v FROM d_flake ORDER BY v;
CREATE TABLE s_bigint AS SELECT v FROM d_bigint ORDER BY v;
CREATE INDEX ON s_ulid (v);
CREATE INDEX ON s_uuid (v);
CREATE INDEX ON s_text (v COLLATE "C");
CREATE INDEX ON s_flake (v);
CREATE INDEX ON s_bigint (v);
VACUUM ANALYZE s_ulid, s_uuid, s_text, s_flake, s_bigint;
INSERT INTO bench_storage
SELECT section, key, (SELECT reltuples::bigint FROM pg_class WHERE oid = t),
       pg_table_size(t), (SELECT sum(pg_relation_size(indexrelid)) FROM pg_index WHERE indrelid = t)
FROM (VALUES ('ulid', 'ulid', 's_ulid'::regclass), ('ulid', 'uuid', 's_uuid'), ('ulid', 'text (26 characters)', 's_text'),
             ('ulidflake', 'ulidflake', 's_flake'), ('ulidflake', 'bigint', 's_bigint')) AS v(section, key, t);
DROP TABLE s_ulid, s_uuid, s_text, s_flake, s_bigint;
