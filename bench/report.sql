-- Prints the benchmark tables in Markdown from what benchmarks.sql and scripts/bench.sh recorded.
\pset format unaligned
\pset tuples_only on
\pset footer off

CREATE FUNCTION pg_temp.fmt_ms(ms float8) RETURNS text LANGUAGE sql AS $$ SELECT to_char(ms, 'FM999990.0') $$;
CREATE FUNCTION pg_temp.fmt_bytes(b float8) RETURNS text LANGUAGE sql AS $$ SELECT pg_size_pretty(b::bigint) $$;

-- The ratio is the median, over the rounds, of ours / baseline within the same round: each
-- round runs both back to back, so a slow patch of the machine slows both and cancels out.
CREATE TEMP VIEW compared AS
SELECT c.ord, c.section, c.bench, c.ours, c.baseline, c.target, c.note,
       o.ms AS ours_ms, b.ms AS base_ms, o.reps,
       (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x.ms / y.ms)
        FROM bench_times x JOIN bench_times y ON y.bench = x.bench AND y.rep = x.rep
        WHERE x.bench = c.bench AND x.variant = c.ours AND y.variant = c.baseline) AS ratio
FROM bench_comparisons c
JOIN bench_medians o ON o.bench = c.bench AND o.variant = c.ours
JOIN bench_medians b ON b.bench = c.bench AND b.variant = c.baseline;

SELECT string_agg(line, E'\n' ORDER BY k) FROM (
    SELECT 0 AS k, '| benchmark | ours | median ms | baseline | median ms | ratio | target | met |' AS line
    UNION ALL SELECT 1, '|---|---|---:|---|---:|---:|---:|---|'
    UNION ALL
    SELECT 10 + ord,
           format('| %s | %s | %s | %s | %s | %s | %s | %s |',
                  CASE section WHEN 'generation' THEN 'generation' WHEN 'text' THEN bench ELSE bench END,
                  ours, pg_temp.fmt_ms(ours_ms), baseline, pg_temp.fmt_ms(base_ms), to_char(ratio, 'FM990.00'),
                  CASE WHEN target IS NULL THEN coalesce(note, '') ELSE '<= ' || to_char(target, 'FM990.00')
                       || CASE WHEN note IS NULL THEN '' ELSE ' (' || note || ')' END END,
                  CASE WHEN target IS NULL THEN '' WHEN round(ratio::numeric, 2) <= target THEN 'yes' ELSE '**no**' END)
    FROM compared
) lines;

SELECT '';
CREATE TEMP VIEW inserts AS
SELECT key, min(clients) AS clients, min(rows) AS rows, count(*) AS rounds,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY tps) AS tps,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY wal_bytes::float8 / rows) AS wal_per_row,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY index_bytes) AS index_bytes
FROM bench_inserts GROUP BY key;

SELECT string_agg(line, E'\n' ORDER BY k) FROM (
    SELECT 0 AS k, '| insert workload (primary key) | clients | rows per round | transactions/s | WAL bytes per row | primary-key index | WAL vs gen_random_uuid() | index vs gen_random_uuid() |' AS line
    UNION ALL SELECT 1, '|---|---:|---:|---:|---:|---:|---:|---:|'
    UNION ALL
    SELECT 10 + row_number() OVER (ORDER BY i.key), format('| %s | %s | %s | %s | %s | %s | %s | %s |',
                  i.key, i.clients, i.rows, to_char(i.tps, 'FM9999990'), to_char(i.wal_per_row, 'FM99990'),
                  pg_temp.fmt_bytes(i.index_bytes),
                  to_char(i.wal_per_row / u.wal_per_row, 'FM990.00'),
                  to_char(i.index_bytes / u.index_bytes, 'FM990.00'))
    FROM inserts i, inserts u
    WHERE u.key LIKE 'uuid%'
) lines;

SELECT '';
SELECT string_agg(line, E'\n' ORDER BY k) FROM (
    SELECT 0 AS k, '| storage | rows | table | btree index | table vs baseline | index vs baseline |' AS line
    UNION ALL SELECT 1, '|---|---:|---:|---:|---:|---:|'
    UNION ALL
    SELECT 10 + row_number() OVER (ORDER BY s.section DESC, s.table_bytes), format('| %s | %s | %s | %s | %s | %s |',
                  s.key, s.rows, pg_temp.fmt_bytes(s.table_bytes), pg_temp.fmt_bytes(s.index_bytes),
                  to_char(s.table_bytes::float8 / b.table_bytes, 'FM990.00'), to_char(s.index_bytes::float8 / b.index_bytes, 'FM990.00'))
    FROM bench_storage s
    JOIN bench_storage b ON b.section = s.section AND b.key = CASE s.section WHEN 'ulid' THEN 'uuid' ELSE 'bigint' END
) lines;
