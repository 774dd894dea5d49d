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
    # Every btree index is internally consistent. The hash, BRIN and expression indexes each
    # answer a query, read by the plan (EXPLAIN shows the index), and give the rows a scan gives:
    # through_index() drops, for its transaction only, every other index of the table (the
    # btree keys would otherwise answer instead), so the named index is the one the plan can use.
    psql -X -q -v ON_ERROR_STOP=1 -d "$db" <<'SQL' >/dev/null
CREATE EXTENSION amcheck;
SELECT bt_index_check(c.oid, true) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_am am ON am.oid = c.relam
WHERE am.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace;
SET search_path = public, ids;
CREATE FUNCTION pg_temp.through_index(idx regclass, query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    other record;
    line text;
    plan text;
    found bigint;
    expected bigint;
BEGIN
    EXECUTE query INTO expected;
    FOR other IN
        SELECT i.indexrelid::regclass AS name, c.conname, i.indrelid::regclass AS tbl
        FROM pg_index i LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid
        WHERE i.indrelid = (SELECT indrelid FROM pg_index WHERE indexrelid = idx) AND i.indexrelid <> idx
    LOOP
        IF other.conname IS NOT NULL THEN
            EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I CASCADE', other.tbl, other.conname);
        ELSE
            EXECUTE format('DROP INDEX %s', other.name);
        END IF;
    END LOOP;
    SET LOCAL enable_seqscan = off;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        plan := concat_ws(chr(10), plan, line);
    END LOOP;
    IF position(idx::text IN plan) = 0 THEN
        RAISE 'the plan of % does not read %: %', query, idx, plan;
    END IF;
    EXECUTE query INTO found;
    IF found IS DISTINCT FROM expected THEN
        RAISE 'through % the query counted % rows, another plan %: %', idx, found, expected, query;
    END IF;
    RETURN found;
END
$$;
DO $$
DECLARE
    probe orders;
    checks text[] := ARRAY[
        'orders_id_hash', 'SELECT count(*) FROM orders WHERE id = %L',
        'orders_id_brin_multi', 'SELECT count(*) FROM orders WHERE id >= ''2025-01-02''::timestamptz::ulid AND id < ''2025-01-03''::timestamptz::ulid',
        'orders_flake_brin', 'SELECT count(*) FROM orders WHERE flake >= ''2025-01-02''::timestamptz::ulidflake AND flake < ''2025-01-03''::timestamptz::ulidflake',
        'orders_created', 'SELECT count(*) FROM orders WHERE id::timestamptz = %L::timestamptz'];
    n bigint;
BEGIN
    SELECT * INTO probe FROM orders ORDER BY id OFFSET 1234 LIMIT 1;
    FOR i IN 1..array_length(checks, 1) BY 2 LOOP
        BEGIN
            n := pg_temp.through_index(checks[i]::regclass,
                                       format(checks[i + 1], CASE checks[i] WHEN 'orders_created' THEN probe.created::text ELSE probe.id::text END));
            IF n < 1 THEN RAISE 'through % nothing was found', checks[i]; END IF;
            RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'rollback', DETAIL = n::text;
        EXCEPTION WHEN SQLSTATE 'P0001' THEN
            IF SQLERRM <> 'rollback' THEN RAISE; END IF;
        END;
    END LOOP;
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
    echo "identical ($(wc -l <"$work/src.txt") fingerprints), btree indexes pass amcheck, hash/BRIN/expression indexes read and right, defaults generate"
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
