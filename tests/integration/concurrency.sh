#!/usr/bin/env bash
# Many sessions generating primary keys at full speed: pgbench, 8 clients, each transaction
# inserting one row into each of four tables whose primary keys come from gen_ulid(),
# gen_monotonic_ulid(), gen_server_monotonic_ulid() and gen_ulidflake(). Each INSERT says
# ON CONFLICT (id) DO NOTHING, so a duplicate id would not abort its client but leave its row out:
# the unique violations are counted as the rows missing. Checks: no transaction failed, zero
# unique violations, and each session's monotonic ulids and ulidflakes strictly increase in the
# order it made them.
# gen_server_monotonic_ulid() also promises order across sessions. Each of its rows takes a number
# from one sequence just before its id is made and one just after (an INSERT evaluates its columns
# in table order). When row a's "after" is below row b's "before", a's id was made before b's
# began, so a.id < b.id must hold; any pair that breaks this is counted. Its ids are never ahead
# of the clock either: the clock read after each one (clock_timestamp()) is at or past its
# millisecond, for every row.
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
-- Column order matters: seq (before), id, made_after are evaluated in this order.
CREATE TABLE keys_server (client int NOT NULL, seq bigint NOT NULL, id ulid PRIMARY KEY, made_after bigint NOT NULL,
                          clock_after timestamptz NOT NULL);
SQL

script=$(mktemp)
cat >"$script" <<'PGBENCH'
INSERT INTO keys_ulid (client, seq) VALUES (:client_id, nextval('generation_order')) ON CONFLICT (id) DO NOTHING;
INSERT INTO keys_monotonic (client, seq) VALUES (:client_id, nextval('generation_order')) ON CONFLICT (id) DO NOTHING;
INSERT INTO keys_flake (client, seq) VALUES (:client_id, nextval('generation_order')) ON CONFLICT (id) DO NOTHING;
INSERT INTO keys_server (client, seq, id, made_after, clock_after)
    VALUES (:client_id, nextval('generation_order'), gen_server_monotonic_ulid(), nextval('generation_order'), clock_timestamp())
    ON CONFLICT (id) DO NOTHING;
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
SELECT t, $expected - rows, sessions, coalesce(bad_order::text, '-'), coalesce(bad_cross::text, '-'), coalesce(ahead::text, '-')
FROM (
    SELECT 'gen_ulid()' AS t, count(*) AS rows, count(DISTINCT client) AS sessions,
           NULL::bigint AS bad_order, NULL::bigint AS bad_cross, NULL::bigint AS ahead FROM keys_ulid
    UNION ALL
    SELECT 'gen_monotonic_ulid()', count(*), count(DISTINCT client),
           (SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY client ORDER BY seq) AS bad FROM keys_monotonic) s WHERE bad),
           NULL, NULL
    FROM keys_monotonic
    UNION ALL
    SELECT 'gen_server_monotonic_ulid()', count(*), count(DISTINCT client),
           (SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY client ORDER BY seq) AS bad FROM keys_server) s WHERE bad),
           -- Walking ids from the highest down, the lowest "after" seen so far belongs to a row
           -- with a greater id; if it is below this row's "before", that row was made first.
           (SELECT count(*) FROM (SELECT seq > min(made_after) OVER (ORDER BY id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS bad
                                  FROM keys_server) s WHERE bad),
           count(*) FILTER (WHERE ulid_timestamp(id) > clock_after)
    FROM keys_server
    UNION ALL
    SELECT 'gen_ulidflake()', count(*), count(DISTINCT client),
           (SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY client ORDER BY seq) AS bad FROM keys_flake) s WHERE bad),
           NULL, NULL
    FROM keys_flake
) r
SQL
)
status=0
echo "concurrency: $clients sessions x $transactions transactions, 4 inserts each, in ${elapsed} s"
while read -r generator violations sessions bad_order bad_cross ahead; do
    # gen_ulid() promises no order within a millisecond, so its order is not checked ("-"); only
    # gen_server_monotonic_ulid() promises order across sessions.
    order=$([ "$bad_order" = - ] && echo "order not checked" || echo "$bad_order out-of-order in a session")
    [ "$bad_cross" = - ] || order+=", $bad_cross out-of-order across sessions"
    [ "$ahead" = - ] || order+=", $ahead ahead of the clock"
    printf '  %-29s %7s ids generated, %s unique violations, %s sessions, %s\n' \
        "$generator" "$expected" "$violations" "$sessions" "$order"
    if [ "$violations" -ne 0 ] || [ "$sessions" -ne "$clients" ] \
        || { [ "$bad_order" != - ] && [ "$bad_order" -ne 0 ]; } || { [ "$bad_cross" != - ] && [ "$bad_cross" -ne 0 ]; } \
        || { [ "$ahead" != - ] && [ "$ahead" -ne 0 ]; }; then
        status=1
    fi
done <<<"$report"
psql -X -q -d postgres -c "DROP DATABASE $db"
[ $status -eq 0 ] || { echo "FAIL: concurrency" >&2; exit 1; }
echo "  ok"
