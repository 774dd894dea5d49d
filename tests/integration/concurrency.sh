#!/usr/bin/env bash
# Many sessions generating primary keys at full speed: pgbench, 8 clients, each transaction
# inserting one row into each of three tables whose primary keys default to gen_ulid(),
# gen_monotonic_ulid() and gen_ulidflake(). Each INSERT says ON CONFLICT (id) DO NOTHING, so a
# duplicate id would not abort its client but leave its row out: the unique violations are
# counted as the rows missing. Checks: no transaction failed, zero unique violations, and each
# session's monotonic ulids and ulidflakes strictly increase in the order it made them.
# Needs a cluster that preloads ulid: PGHOST/PGPORT/PGUSER set. Usage: concurrency.sh [transactions-per-client]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"

clients=8
transactions=${1:-10000}
db=ulid_concurrency
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
sql() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
sql <<'SQL'
CREATE EXTENSION ulid;
CREATE SEQUENCE generation_order;
CREATE TABLE keys_ulid (id ulid PRIMARY KEY DEFAULT gen_ulid(), client int NOT NULL, seq bigint NOT NULL);
CREATE TABLE keys_monotonic (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(), client int NOT NULL, seq bigint NOT NULL);
CREATE TABLE keys_flake (id ulidflake PRIMARY KEY DEFAULT gen_ulidflake(), client int NOT NULL, seq bigint NOT NULL);
SQL

script=$(mktemp)
cat >"$script" <<'PGBENCH'
INSERT INTO keys_ulid (client, seq) VALUES (:client_id, nextval('generation_order')) ON CONFLICT (id) DO NOTHING;
INSERT INTO keys_monotonic (client, seq) VALUES (:client_id, nextval('generation_order')) ON CONFLICT (id) DO NOTHING;
INSERT INTO keys_flake (client, seq) VALUES (:client_id, nextval('generation_order')) ON CONFLICT (id) DO NOTHING;
PGBENCH
SECONDS=0
if ! "$PG_BIN/pgbench" -n -c "$clients" -j 2 -t "$transactions" -f "$script" "$db" >"$script.out" 2>&1; then
    cat "$script.out" >&2
    echo "FAIL: pgbench reported failed transactions" >&2
    exit 1
fi
elapsed=$SECONDS
rm -f "$script" "$script.out"

expected=$((clients * transactions))
report=$(sql -At -F ' ' <<SQL
SELECT t, $expected - rows, sessions, coalesce(bad_order::text, '-')
FROM (
    SELECT 'gen_ulid()' AS t, count(*) AS rows, count(DISTINCT client) AS sessions,
           NULL::bigint AS bad_order FROM keys_ulid
    UNION ALL
    SELECT 'gen_monotonic_ulid()', count(*), count(DISTINCT client),
           (SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY client ORDER BY seq) AS bad FROM keys_monotonic) s WHERE bad)
    FROM keys_monotonic
    UNION ALL
    SELECT 'gen_ulidflake()', count(*), count(DISTINCT client),
           (SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY client ORDER BY seq) AS bad FROM keys_flake) s WHERE bad)
    FROM keys_flake
) r
SQL
)
status=0
echo "concurrency: $clients sessions x $transactions transactions, 3 inserts each, in ${elapsed} s"
while read -r generator violations sessions bad_order; do
    # gen_ulid() promises no order within a millisecond, so its order is not checked ("-").
    order=$([ "$bad_order" = - ] && echo "order not checked" || echo "$bad_order out-of-order in a session")
    printf '  %-22s %7s ids generated, %s unique violations, %s sessions, %s\n' \
        "$generator" "$expected" "$violations" "$sessions" "$order"
    if [ "$violations" -ne 0 ] || [ "$sessions" -ne "$clients" ] || { [ "$bad_order" != - ] && [ "$bad_order" -ne 0 ]; }; then
        status=1
    fi
done <<<"$report"
psql -X -q -d postgres -c "DROP DATABASE $db"
[ $status -eq 0 ] || { echo "FAIL: concurrency" >&2; exit 1; }
echo "  ok"
