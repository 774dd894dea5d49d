#!/usr/bin/env bash
# pg_dump / pg_restore, plain and custom format, of a database using ulid and ulidflake in
# every way: defaults, primary keys, btree/hash/BRIN/expression indexes, a generated column, a
# view, hash-partitioned tables, and the extension in its own schema. Each restore goes into a
# fresh database and must hold identical rows, identical index definitions, valid btree indexes
# (amcheck) and rows in the same partitions.
# Needs a cluster that preloads ulid: PGHOST/PGPORT/PGUSER set.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"

work=$(mktemp -d /tmp/ulid-dump.XXXXXX)
cleanup_path "$work"
src=ulid_dump_src
psql -X -q -v ON_ERROR_STOP=1 -d postgres \
    -c "DROP DATABASE IF EXISTS $src" -c "DROP DATABASE IF EXISTS ${src}_plain" -c "DROP DATABASE IF EXISTS ${src}_custom" \
    -c "CREATE DATABASE $src"
psql -X -q -v ON_ERROR_STOP=1 -d "$src" <<'SQL'
CREATE SCHEMA ids;
CREATE EXTENSION ulid SCHEMA ids;
SET search_path = public, ids;
CREATE TABLE orders (
    id ulid PRIMARY KEY DEFAULT gen_ulid(),
    seq ulid UNIQUE DEFAULT gen_monotonic_ulid(),
    flake ulidflake UNIQUE DEFAULT gen_ulidflake(),
    created timestamptz GENERATED ALWAYS AS (id::timestamptz) STORED,
    note text
);
CREATE INDEX orders_id_hash ON orders USING hash (id);
CREATE INDEX orders_flake_brin ON orders USING brin (flake);
CREATE INDEX orders_id_brin_multi ON orders USING brin (id ulid_minmax_multi_ops);
CREATE INDEX orders_created ON orders ((id::timestamptz));
INSERT INTO orders (note) SELECT 'order ' || n FROM generate_series(1, 5000) AS n;
INSERT INTO orders (id, flake, note)
SELECT gen_ulid('2025-01-01'::timestamptz + n * interval '1 minute'),
       ('2025-01-01'::timestamptz + n * interval '1 minute')::ulidflake, 'history ' || n
FROM generate_series(1, 5000) AS n;
CREATE TABLE events (id ulidflake PRIMARY KEY, order_id ulid REFERENCES orders (id), payload jsonb)
    PARTITION BY HASH (id);
CREATE TABLE events_0 PARTITION OF events FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE events_1 PARTITION OF events FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE events_2 PARTITION OF events FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO events SELECT gen_ulidflake(), id, jsonb_build_object('n', row_number() OVER ()) FROM orders;
CREATE TABLE docs (id ulid, body text) PARTITION BY HASH (id);
CREATE TABLE docs_0 PARTITION OF docs FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE docs_1 PARTITION OF docs FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO docs SELECT gen_ulid(), 'doc ' || n FROM generate_series(1, 3000) AS n;
CREATE VIEW recent_orders AS SELECT id, id::timestamptz AS at, flake::bigint AS flake_number FROM orders;
SQL

# What must survive: every row (as text, in key order), every index definition, which
# partition each row is in, the column defaults and generated columns, and the view's
# definition. Printed by the same query on both sides.
fingerprint() {
    psql -X -q -At -v ON_ERROR_STOP=1 -d "$1" <<'SQL'
SET search_path = public, ids;
SELECT 'orders', count(*), md5(string_agg(o::text, '|' ORDER BY id)) FROM orders o;
SELECT 'events', count(*), md5(string_agg(tableoid::regclass || ':' || e::text, '|' ORDER BY id)) FROM events e;
SELECT 'docs', count(*), md5(string_agg(tableoid::regclass || ':' || d::text, '|' ORDER BY id)) FROM docs d;
SELECT 'view', count(*), md5(string_agg(v::text, '|' ORDER BY id)) FROM recent_orders v;
SELECT 'indexes', count(*), md5(string_agg(indexdef, '|' ORDER BY indexname)) FROM pg_indexes WHERE schemaname = 'public';
SELECT 'defaults and generated columns', count(*),
       md5(string_agg(format('%s.%s %s %s', c.relname, a.attname, a.attgenerated, pg_get_expr(d.adbin, d.adrelid)), '|'
                      ORDER BY c.relname, a.attname))
FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
JOIN pg_class c ON c.oid = d.adrelid WHERE c.relnamespace = 'public'::regnamespace;
SELECT 'view definition', md5(pg_get_viewdef('recent_orders'::regclass));
SELECT 'extension', extversion, extnamespace::regnamespace FROM pg_extension WHERE extname = 'ulid';
SQL
}
fingerprint "$src" >"$work/src.txt"

log_step() { printf '  %-48s' "$1"; }
check_restored() {
    local db=$1
    fingerprint "$db" >"$work/$db.txt"
    if ! diff -u "$work/src.txt" "$work/$db.txt"; then
        echo "FAIL: $db differs from the dumped database" >&2
        exit 1
    fi
    # Every btree index is internally consistent, and the hash and BRIN indexes find rows.
    psql -X -q -v ON_ERROR_STOP=1 -d "$db" <<'SQL' >/dev/null
CREATE EXTENSION amcheck;
SELECT bt_index_check(c.oid, true) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_am am ON am.oid = c.relam
WHERE am.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace;
SET enable_seqscan = off;
SET search_path = public, ids;
DO $$
DECLARE probe orders;
BEGIN
    SELECT * INTO probe FROM orders ORDER BY id OFFSET 1234 LIMIT 1;
    IF (SELECT count(*) FROM orders WHERE id = probe.id) <> 1 THEN RAISE 'hash lookup failed'; END IF;
    IF (SELECT count(*) FROM orders WHERE flake = probe.flake) <> 1 THEN RAISE 'flake lookup failed'; END IF;
    IF (SELECT count(*) FROM orders WHERE id::timestamptz = probe.created) < 1 THEN RAISE 'expression index lookup failed'; END IF;
END
$$;
-- The restored defaults generate: a new row gets all three ids and its generated column.
INSERT INTO orders (note) VALUES ('after restore');
DO $$
BEGIN
    IF (SELECT count(*) FROM orders WHERE note = 'after restore' AND id IS NOT NULL AND seq IS NOT NULL
        AND flake IS NOT NULL AND created = id::timestamptz AND id > (now() - interval '1 minute')::ulid) <> 1
    THEN RAISE 'restored defaults did not generate'; END IF;
END
$$;
SQL
    echo "identical ($(wc -l <"$work/src.txt") fingerprints), btree indexes pass amcheck, defaults generate"
}

echo "dump and restore: $(head -1 "$work/src.txt" | cut -d'|' -f2) orders, $(sed -n 2p "$work/src.txt" | cut -d'|' -f2) events, $(sed -n 3p "$work/src.txt" | cut -d'|' -f2) docs"
log_step "plain format (pg_dump | psql):"
"$PG_BIN/pg_dump" -d "$src" -f "$work/plain.sql"
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE ${src}_plain"
psql -X -q -v ON_ERROR_STOP=1 -d "${src}_plain" -f "$work/plain.sql" >/dev/null
check_restored "${src}_plain"

log_step "custom format (pg_dump -Fc | pg_restore):"
"$PG_BIN/pg_dump" -Fc -d "$src" -f "$work/custom.dump"
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE ${src}_custom"
"$PG_BIN/pg_restore" --exit-on-error -d "${src}_custom" "$work/custom.dump"
check_restored "${src}_custom"

psql -X -q -d postgres -c "DROP DATABASE $src" -c "DROP DATABASE ${src}_plain" -c "DROP DATABASE ${src}_custom"
echo "  ok"
