#!/usr/bin/env bash
# A major-version upgrade keeps the data: pg_upgrade of a cluster from PostgreSQL OLD to NEW
# (by default 15, Debian's, to 18) that holds ulid and ulidflake tables with btree, hash and
# BRIN indexes, hash partitions, defaults and generated columns. Afterwards:
#   - every row is identical (a checksum of the text form of every table, before and after);
#   - amcheck verifies every btree index (bt_index_check, heapallindexed);
#   - the hash and BRIN indexes still find every row they found before;
#   - each row is in the hash partition it was in, and a row inserted now with one of the old
#     ids is routed to the partition that holds it;
#   - the defaults still generate ids, and the generated columns compute as before.
# The extension must be installed into both servers. Starts and removes its own clusters.
# Usage: pg_upgrade.sh [OLD NEW]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"

old=${1:-15}
new=${2:-18}

use_major "$old"
cluster_start OLD "shared_preload_libraries = 'ulid'"
old_bin=$PG_BIN
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
q -h "$OLD_HOST" -p "$OLD_PORT" -U postgres -d postgres -c "CREATE DATABASE shop"
q -h "$OLD_HOST" -p "$OLD_PORT" -U postgres -d shop <<'SQL'
CREATE EXTENSION ulid;
CREATE TABLE orders (
    id ulid PRIMARY KEY DEFAULT gen_ulid(),
    ref ulid NOT NULL,                          -- = id, with only a hash index
    seq ulid NOT NULL DEFAULT gen_monotonic_ulid(),
    flake ulidflake NOT NULL DEFAULT gen_ulidflake(),
    created timestamptz GENERATED ALWAYS AS (id::timestamptz) STORED,
    flake_created timestamptz GENERATED ALWAYS AS (flake::timestamptz) STORED,
    note text
);
CREATE INDEX orders_ref_hash ON orders USING hash (ref);
CREATE INDEX orders_flake_hash ON orders USING hash (flake);
CREATE INDEX orders_seq_brin ON orders USING brin (seq) WITH (pages_per_range = 2);
CREATE INDEX orders_flake_brin_multi ON orders USING brin (flake ulidflake_minmax_multi_ops) WITH (pages_per_range = 2);
CREATE UNIQUE INDEX orders_seq ON orders (seq DESC);
INSERT INTO orders (ref, seq, flake, note)
SELECT u, u, ('2025-01-01'::timestamptz + n * interval '1 minute')::ulidflake, 'history ' || n
FROM generate_series(1, 5000) AS n, gen_ulid('2025-01-01'::timestamptz + n * interval '1 minute') AS u;
UPDATE orders SET id = ref;
INSERT INTO orders (ref, note) SELECT gen_ulid(), 'order ' || n FROM generate_series(1, 5000) AS n;
UPDATE orders SET ref = id WHERE note LIKE 'order %';
CREATE TABLE events (id ulidflake NOT NULL DEFAULT gen_ulidflake(), order_id ulid, payload text) PARTITION BY HASH (id);
CREATE TABLE events_0 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE events_1 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE events_2 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE events_3 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 3);
CREATE UNIQUE INDEX ON events (id);
INSERT INTO events (order_id, payload) SELECT id, note FROM orders;
CREATE TABLE docs (id ulid NOT NULL DEFAULT gen_ulid(), body text) PARTITION BY HASH (id);
CREATE TABLE docs_0 PARTITION OF docs FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE docs_1 PARTITION OF docs FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE docs_2 PARTITION OF docs FOR VALUES WITH (MODULUS 3, REMAINDER 2);
CREATE UNIQUE INDEX ON docs (id);
INSERT INTO docs (body) SELECT 'doc ' || n FROM generate_series(1, 3000) AS n;
ANALYZE;
SQL

# The same query before and after: every table's rows as text, with the partition of each
# row, and what the hash and BRIN indexes find (check_plans shows that each is the index used):
# every order found through each hash index, one probe per row, and a day of rows through each
# BRIN index (the same counts as a scan without indexes).
probes="
SELECT 'hash ulid ' || count(*) FROM orders o JOIN orders x ON x.ref = o.id;
SELECT 'hash ulidflake ' || count(*) FROM orders o JOIN orders x ON x.flake = o.flake;
SELECT 'brin ulid ' || count(*) FROM orders WHERE seq >= '2025-01-02'::timestamptz::ulid AND seq < '2025-01-03'::timestamptz::ulid;
SELECT 'brin ulidflake minmax-multi ' || count(*) FROM orders
WHERE flake >= '2025-01-02'::timestamptz::ulidflake AND flake < '2025-01-03'::timestamptz::ulidflake;"
through_indexes="
SET enable_seqscan = off; SET enable_indexscan = off; SET enable_indexonlyscan = off;
SET enable_hashjoin = off; SET enable_mergejoin = off;"
fingerprint() {
    q "$@" -d shop <<'SQL'
SELECT 'orders ' || count(*) || ' ' || md5(string_agg(o::text, '|' ORDER BY id)) FROM orders o;
SELECT 'events ' || count(*) || ' ' || md5(string_agg(tableoid::regclass || ':' || e::text, '|' ORDER BY id)) FROM events e;
SELECT 'docs ' || count(*) || ' ' || md5(string_agg(tableoid::regclass || ':' || d::text, '|' ORDER BY id)) FROM docs d;
SQL
    q "$@" -d shop <<<"$through_indexes $probes"
}
# What the probes count without any index: the right answers.
scan_counts() {
    q "$@" -d shop <<<"SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off; $probes"
}
# The plans of those probes read the hash and BRIN indexes they name.
check_plans() {
    local plans index
    plans=$(q "$@" -d shop <<<"$through_indexes $(sed 's/^SELECT /EXPLAIN (COSTS OFF) SELECT /' <<<"$probes")")
    for index in orders_ref_hash orders_flake_hash orders_seq_brin orders_flake_brin_multi; do
        grep -q "Bitmap Index Scan on $index" <<<"$plans" || fail "a probe does not read $index:"$'\n'"$plans"
    done
}
before=$(fingerprint -h "$OLD_HOST" -p "$OLD_PORT" -U postgres)
check_plans -h "$OLD_HOST" -p "$OLD_PORT" -U postgres
[ "$(tail -4 <<<"$before")" = "$(scan_counts -h "$OLD_HOST" -p "$OLD_PORT" -U postgres)" ] \
    || fail "before the upgrade, the indexes answer differently from a scan: $before"
old_version=$(q -h "$OLD_HOST" -p "$OLD_PORT" -U postgres -d shop -c "SHOW server_version")

# PostgreSQL 15.20 (and the other November 2026 minors) stamps every column with an internal
# option, pg_attver, that earlier releases such as 18.6 do not know: the new server's pg_dump
# copies it into the schema it restores, and the restore fails with 'unrecognized parameter
# "pg_attver"' for any table at all, with or without this extension. The option only versions
# composite datums for checks in the running server, so it is removed from the old cluster's
# catalog before the upgrade (the old cluster is not used again afterwards).
stripped=0
for db in template1 postgres shop; do
    n=$(q -h "$OLD_HOST" -p "$OLD_PORT" -U postgres -d "$db" <<'SQL'
SET allow_system_table_mods = on;
WITH stripped AS (
    UPDATE pg_attribute
    SET attoptions = (SELECT array_agg(o) FROM unnest(attoptions) AS o WHERE o NOT LIKE 'pg_attver=%')
    WHERE attoptions::text LIKE '%pg_attver=%'
    RETURNING 1)
SELECT count(*) FROM stripped;
SQL
)
    stripped=$((stripped + n))
done
cluster_ctl "$OLD_DIR" stop

# The new cluster: the same encoding and locale, and, like the old one, no data checksums
# (initdb of 18 turns them on by default; pg_upgrade needs both sides to agree).
use_major "$new"
[ "$new" -ge 18 ] && INITDB_OPTIONS=(--no-data-checksums)
cluster_start NEW "shared_preload_libraries = 'ulid'"
INITDB_OPTIONS=()
cluster_ctl "$NEW_DIR" stop

log "pg_upgrade from PostgreSQL $old_version to $("$PG_BIN/postgres" --version | awk '{print $3}')"
work=$OLD_DIR/upgrade    # pg_upgrade writes its logs and sockets into its working directory
as_postgres mkdir "$work"
(cd "$work" && as_postgres "$PG_BIN/pg_upgrade" --old-bindir="$old_bin" --new-bindir="$PG_BIN" \
    --old-datadir="$OLD_DIR/data" --new-datadir="$NEW_DIR/data" --socketdir="$work" \
    --old-port="$OLD_PORT" --new-port="$NEW_PORT" --username=postgres >"$work/../pg_upgrade.log" 2>&1) \
    || { cat "$OLD_DIR/pg_upgrade.log" >&2; find "$NEW_DIR/data" -name '*.log' -path '*pg_upgrade_output*' -exec cat {} + >&2; fail "pg_upgrade failed"; }
cluster_ctl "$NEW_DIR" start
new_version=$(q -h "$NEW_HOST" -p "$NEW_PORT" -U postgres -d shop -c "SHOW server_version")

after=$(fingerprint -h "$NEW_HOST" -p "$NEW_PORT" -U postgres)
[ "$before" = "$after" ] || fail "the data differs after pg_upgrade:"$'\n'"$(diff <(echo "$before") <(echo "$after"))"
check_plans -h "$NEW_HOST" -p "$NEW_PORT" -U postgres

checked=$(q -h "$NEW_HOST" -p "$NEW_PORT" -U postgres -d shop <<'SQL'
CREATE EXTENSION amcheck;
SELECT count(bt_index_check(c.oid, true))
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
WHERE am.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace;
SQL
)
[ "$checked" -ge 7 ] || fail "amcheck checked only $checked btree indexes"

# Routing after the upgrade: an old id goes to the partition that already holds it (a unique
# violation proves it was routed there), and new rows take their defaults.
routing=$(q -h "$NEW_HOST" -p "$NEW_PORT" -U postgres -d shop <<'SQL'
CREATE FUNCTION pg_temp.conflicts(query text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE query;
    RETURN false;
EXCEPTION WHEN unique_violation THEN
    RETURN true;
END $$;
SELECT count(*) FILTER (WHERE pg_temp.conflicts(format('INSERT INTO %s (id) VALUES (%L)', tableoid::regclass, id))) = count(*)
   AND count(*) FILTER (WHERE pg_temp.conflicts(format('INSERT INTO events (id) VALUES (%L)', id))) = count(*)
FROM (SELECT tableoid, id FROM events ORDER BY id LIMIT 200) e;
SELECT count(*) FILTER (WHERE pg_temp.conflicts(format('INSERT INTO docs (id) VALUES (%L)', id))) = count(*)
FROM (SELECT id FROM docs ORDER BY id LIMIT 200) d;
INSERT INTO orders (ref, note) VALUES (gen_ulid(), 'after the upgrade') RETURNING id::timestamptz > now() - interval '1 minute'
    AND flake::timestamptz > now() - interval '1 minute' AND created = id::timestamptz AND flake_created = flake::timestamptz
    AND seq > (SELECT max(seq) FROM orders WHERE note <> 'after the upgrade');
INSERT INTO docs (body) VALUES ('after the upgrade') RETURNING satisfies_hash_partition('docs'::regclass, 3,
    substr(tableoid::regclass::text, 6)::int, id);
INSERT INTO events (payload) VALUES ('after the upgrade') RETURNING satisfies_hash_partition('events'::regclass, 4,
    substr(tableoid::regclass::text, 8)::int, id);
SQL
)
[ "$(tr '\n' ' ' <<<"$routing")" = "t t t t t " ] || fail "routing and defaults after the upgrade: $routing"

echo "pg_upgrade: PostgreSQL $old_version -> $new_version"
[ "$stripped" -eq 0 ] || echo "  (first removed the internal column option pg_attver of $old_version, which $new_version cannot restore, from $stripped columns)"
echo "  rows, partitions and index answers identical: $(tr '\n' ';' <<<"$after" | sed 's/;$//; s/;/; /g')"
echo "  amcheck: $checked btree indexes verified; hash and BRIN indexes used and correct; old ids route to their partitions; defaults generate"
echo "  ok"
