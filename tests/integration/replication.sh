#!/usr/bin/env bash
# Logical replication of ulid- and ulidflake-keyed tables between two local clusters, once with
# the text protocol and once with binary = true: the initial copy (with binary = true in binary
# from PostgreSQL 16 on, in text before), then inserts, updates (also of the key) and deletes by
# key, which binary = true sends in binary, must arrive intact.
# Starts its own publisher (wal_level = logical) and subscriber clusters.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"

cluster_start PUB "shared_preload_libraries = 'ulid'" "wal_level = logical"
cluster_start SUB "shared_preload_libraries = 'ulid'"
pub() { psql -X -q -v ON_ERROR_STOP=1 -h "$PUB_HOST" -p "$PUB_PORT" -U postgres -d postgres "$@"; }
sub() { local db=$1; shift; psql -X -q -v ON_ERROR_STOP=1 -h "$SUB_HOST" -p "$SUB_PORT" -U postgres -d "$db" "$@"; }

schema='
CREATE EXTENSION ulid;
CREATE TABLE by_ulid (id ulid PRIMARY KEY DEFAULT gen_ulid(), flake ulidflake, note text);
CREATE TABLE by_flake (id ulidflake PRIMARY KEY DEFAULT gen_ulidflake(), ref ulid, note text);'
pub -c "$schema" -c "
INSERT INTO by_ulid (flake, note) SELECT gen_ulidflake(), 'row ' || n FROM generate_series(1, 3000) AS n;
INSERT INTO by_flake (ref, note) SELECT gen_ulid(), 'row ' || n FROM generate_series(1, 3000) AS n;
CREATE PUBLICATION ids FOR TABLE by_ulid, by_flake;"

fingerprint=$(cat <<'SQL'
SELECT count(*) || ' ' || md5(string_agg(t::text, '|' ORDER BY id)) FROM by_ulid t
UNION ALL
SELECT count(*) || ' ' || md5(string_agg(t::text, '|' ORDER BY id)) FROM by_flake t;
SQL
)

# wait_for DB: until the subscriber database DB holds what the publisher holds (60 s at most).
wait_for() {
    local db=$1 want got
    want=$(pub -At -c "$fingerprint")
    for _ in $(seq 600); do
        got=$(sub "$db" -At -c "$fingerprint")
        [ "$got" = "$want" ] && return 0
        sleep 0.1
    done
    echo "FAIL: $db did not catch up:"$'\n'"publisher: $want"$'\n'"subscriber: $got" >&2
    exit 1
}

for mode in text binary; do
    db=sub_$mode
    binary=$([ $mode = binary ] && echo true || echo false)
    sub postgres -c "CREATE DATABASE $db"
    sub "$db" -c "$schema" \
        -c "CREATE SUBSCRIPTION ids_$mode CONNECTION 'host=$PUB_HOST port=$PUB_PORT dbname=postgres user=postgres' PUBLICATION ids WITH (binary = $binary)"
done
for mode in text binary; do wait_for "sub_$mode"; done
initial=$(pub -At -c "SELECT (SELECT count(*) FROM by_ulid) + (SELECT count(*) FROM by_flake)")

# Changes after the initial copy: inserts, updates by key (also of the key itself), deletes.
pub -c "
INSERT INTO by_ulid (flake, note) SELECT gen_ulidflake(), 'later ' || n FROM generate_series(1, 500) AS n;
INSERT INTO by_flake (ref, note) SELECT gen_ulid(), 'later ' || n FROM generate_series(1, 500) AS n;
UPDATE by_ulid SET note = 'updated', flake = gen_ulidflake() WHERE id IN (SELECT id FROM by_ulid ORDER BY id LIMIT 200);
UPDATE by_flake SET note = 'updated', ref = gen_ulid() WHERE id IN (SELECT id FROM by_flake ORDER BY id DESC LIMIT 200);
UPDATE by_ulid SET id = gen_ulid() WHERE id IN (SELECT id FROM by_ulid ORDER BY id OFFSET 500 LIMIT 50);
UPDATE by_flake SET id = gen_ulidflake() WHERE id IN (SELECT id FROM by_flake ORDER BY id OFFSET 500 LIMIT 50);
DELETE FROM by_ulid WHERE id IN (SELECT id FROM by_ulid ORDER BY id OFFSET 1000 LIMIT 300);
DELETE FROM by_flake WHERE id IN (SELECT id FROM by_flake ORDER BY id OFFSET 1000 LIMIT 300);"
for mode in text binary; do wait_for "sub_$mode"; done
final=$(pub -At -c "SELECT (SELECT count(*) FROM by_ulid) + (SELECT count(*) FROM by_flake)")

echo "logical replication: $initial rows copied, then 1000 inserts, 500 updates (100 of the key), 600 deletes"
echo "  text protocol:   $(sub sub_text -At -c "SELECT count(*) FROM by_ulid") + $(sub sub_text -At -c "SELECT count(*) FROM by_flake") rows identical to the publisher"
echo "  binary protocol: $(sub sub_binary -At -c "SELECT count(*) FROM by_ulid") + $(sub sub_binary -At -c "SELECT count(*) FROM by_flake") rows identical to the publisher ($final in all)"
for mode in text binary; do sub "sub_$mode" -c "DROP SUBSCRIPTION ids_$mode"; done
echo "  ok"
