-- Prints the benchmark tables in Markdown from what benchmarks.sql and scripts/bench.sh recorded,
-- with the servers (PostgreSQL majors) side by side.
\pset format unaligned
\pset tuples_only on
\pset footer off

CREATE FUNCTION pg_temp.fmt_ms(ms float8) RETURNS text LANGUAGE sql AS $$ SELECT to_char(ms, 'FM999990.0') $$;
CREATE FUNCTION pg_temp.fmt_bytes(b float8) RETURNS text LANGUAGE sql AS $$ SELECT pg_size_pretty(b::bigint) $$;
CREATE FUNCTION pg_temp.major(server text) RETURNS int LANGUAGE sql AS $$ SELECT split_part(server, '.', 1)::int $$;

-- The servers measured, oldest major first.
CREATE TEMP VIEW servers AS
SELECT server, row_number() OVER (ORDER BY pg_temp.major(server)) AS k
FROM (SELECT DISTINCT server FROM bench_times) s;

-- The ratio is the median, over the rounds, of ours / baseline within the same round: each
-- round runs both back to back, so a slow patch of the machine slows both and cancels out.
CREATE TEMP VIEW compared AS
SELECT c.server, c.ord, c.section, c.bench, c.ours, c.baseline, c.target, c.note,
       o.ms AS ours_ms, b.ms AS base_ms, o.reps,
       (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x.ms / y.ms)
        FROM bench_times x JOIN bench_times y ON y.server = x.server AND y.bench = x.bench AND y.rep = x.rep
        WHERE x.server = c.server AND x.bench = c.bench AND x.variant = c.ours AND y.variant = c.baseline) AS ratio
FROM bench_comparisons c
JOIN bench_medians o ON o.server = c.server AND o.bench = c.bench AND o.variant = c.ours
JOIN bench_medians b ON b.server = c.server AND b.bench = c.bench AND b.variant = c.baseline;

-- One row per comparison; a column per server: the ratio, then both medians in ms.
SELECT string_agg(line, E'\n' ORDER BY k) FROM (
    SELECT 0 AS k, '| benchmark | ours | baseline | '
           || (SELECT string_agg('PostgreSQL ' || server || ': ratio (ours / baseline ms)', ' | ' ORDER BY k) FROM servers)
           || ' | target | met |' AS line
    UNION ALL
    SELECT 1, '|---|---|---|' || (SELECT string_agg('---:|', '' ORDER BY k) FROM servers) || '---:|---|'
    UNION ALL
    SELECT 10 + max(c.ord),
           format('| %s | %s | %s | %s | %s | %s |', c.bench, c.ours, c.baseline,
                  (SELECT string_agg(coalesce(to_char(x.ratio, 'FM990.00') || ' (' || pg_temp.fmt_ms(x.ours_ms) || ' / '
                                              || pg_temp.fmt_ms(x.base_ms) || ')', 'not measured'), ' | ' ORDER BY s.k)
                   FROM servers s LEFT JOIN compared x ON x.server = s.server AND x.bench = c.bench
                                                     AND x.ours = c.ours AND x.baseline = c.baseline),
                  CASE WHEN max(c.target) IS NULL THEN coalesce(max(c.note), '')
                       ELSE '<= ' || to_char(max(c.target), 'FM990.00')
                            || coalesce(' (' || max(c.note) || ')', '') END,
                  CASE WHEN max(c.target) IS NULL THEN ''
                       WHEN bool_and(round(c.ratio::numeric, 2) <= c.target) THEN 'yes' ELSE '**no**' END)
    FROM compared c
    GROUP BY c.bench, c.ours, c.baseline
) lines;

SELECT '';
CREATE TEMP VIEW inserts AS
SELECT server, key, clients, rows_per_statement, min(rows) AS rows, count(*) AS rounds,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY tps) AS tps,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY wal_bytes::float8 / rows) AS wal_per_row,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY index_bytes) AS index_bytes
FROM bench_inserts GROUP BY server, key, clients, rows_per_statement;

-- One row per workload, key and server, the servers of a key next to each other; ratios against
-- gen_random_uuid() in the same workload on the same server.
SELECT string_agg(line, E'\n' ORDER BY k) FROM (
    SELECT 0 AS k, '| insert workload | primary key | server | transactions/s | WAL bytes per row | primary-key index | WAL vs gen_random_uuid() | index vs gen_random_uuid() |' AS line
    UNION ALL SELECT 1, '|---|---|---|---:|---:|---:|---:|---:|'
    UNION ALL
    SELECT 10 + row_number() OVER (ORDER BY i.rows_per_statement, i.clients, i.key, pg_temp.major(i.server)),
           format('| %s | %s | %s | %s | %s | %s | %s | %s |',
                  format('%s sessions x %s, %s rows', i.clients,
                         CASE i.rows_per_statement WHEN 1 THEN 'one-row INSERTs' ELSE i.rows_per_statement || '-row INSERTs' END, i.rows),
                  i.key, i.server, to_char(i.tps, 'FM9999990'), to_char(i.wal_per_row, 'FM99990'),
                  pg_temp.fmt_bytes(i.index_bytes),
                  to_char(i.wal_per_row / u.wal_per_row, 'FM990.00'),
                  to_char(i.index_bytes / u.index_bytes, 'FM990.00'))
    FROM inserts i JOIN inserts u ON u.server = i.server AND u.clients = i.clients
                                 AND u.rows_per_statement = i.rows_per_statement AND u.key = 'uuid: gen_random_uuid()'
) lines;

SELECT '';
-- The targets of gen_server_monotonic_ulid() in the bulk workloads.
CREATE TEMP VIEW insert_targets AS
SELECT s.server, s.clients, s.rows_per_statement, t.what, t.ratio, t.target, t.ratio <= t.target AS met
FROM inserts s
JOIN inserts u ON u.server = s.server AND u.clients = s.clients AND u.rows_per_statement = s.rows_per_statement
              AND u.key = 'uuid: gen_random_uuid()'
JOIN inserts g ON g.server = s.server AND g.clients = s.clients AND g.rows_per_statement = s.rows_per_statement
              AND g.key = 'ulid: gen_ulid()',
LATERAL (VALUES ('primary-key index vs gen_random_uuid()', round((s.index_bytes / u.index_bytes)::numeric, 2), 0.82),
                ('WAL per row vs gen_random_uuid()', round((s.wal_per_row / u.wal_per_row)::numeric, 2), 0.70),
                ('transactions/s: gen_ulid() over this (5% slower at most)', round((g.tps / s.tps)::numeric, 2), 1.05)) AS t(what, ratio, target)
WHERE s.key = 'ulid: gen_server_monotonic_ulid()' AND s.rows_per_statement > 1;
SELECT string_agg(line, E'\n' ORDER BY k) FROM (
    SELECT 0 AS k, '| gen_server_monotonic_ulid(), bulk inserts | server | sessions | ratio | target | met |' AS line
    UNION ALL SELECT 1, '|---|---|---:|---:|---:|---|'
    UNION ALL
    SELECT 10 + row_number() OVER (ORDER BY what, clients, pg_temp.major(server)),
           format('| %s | %s | %s | %s | <= %s | %s |', what, server, clients, to_char(ratio, 'FM990.00'),
                  to_char(target, 'FM990.00'), CASE WHEN met THEN 'yes' ELSE '**no**' END)
    FROM insert_targets
) lines;

SELECT '';
SELECT string_agg(line, E'\n' ORDER BY k) FROM (
    SELECT 0 AS k, '| storage | server | rows | table | btree index | table vs baseline | index vs baseline |' AS line
    UNION ALL SELECT 1, '|---|---|---:|---:|---:|---:|---:|'
    UNION ALL
    SELECT 10 + row_number() OVER (ORDER BY s.section DESC, s.table_bytes, s.key, pg_temp.major(s.server)),
           format('| %s | %s | %s | %s | %s | %s | %s |',
                  s.key, s.server, s.rows, pg_temp.fmt_bytes(s.table_bytes), pg_temp.fmt_bytes(s.index_bytes),
                  to_char(s.table_bytes::float8 / b.table_bytes, 'FM990.00'), to_char(s.index_bytes::float8 / b.index_bytes, 'FM990.00'))
    FROM bench_storage s
    JOIN bench_storage b ON b.server = s.server AND b.section = s.section
                        AND b.key = CASE s.section WHEN 'ulid' THEN 'uuid' ELSE 'bigint' END
) lines;
