#!/usr/bin/env bash
# ulid.node_id out of range in the server's configuration files. PostgreSQL refuses such a value
# and keeps the previous one (-1 at start), only logging the refusal; gen_ulidflake() then
# refuses to make ids (22023, with a hint) until the files are fixed, instead of making ids
# without the node number meant for them. Starts its own cluster with ulid.node_id = 40.
#   1. At start: a warning in the log, the setting at -1, gen_ulidflake() refused,
#      gen_ulidflake(5) (which does not read the setting) working.
#   2. Fixed to 7 and reloaded: ids carry 7. ALTER SYSTEM with 40 is refused (22023) and leaves
#      that session's gen_ulidflake() working.
#   3. Set to -2 (below -1) and reloaded: the log says the file has errors, the setting stays 7,
#      and gen_ulidflake() is refused again, in new and existing sessions.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"

cluster_start N "shared_preload_libraries = 'ulid'" "ulid.node_id = 40"
q() { psql -X -q -At -h "$N_HOST" -p "$N_PORT" -U postgres -d postgres "$@"; }
refused() {  # refused VALUE: gen_ulidflake() fails with 22023, naming VALUE, and a hint
    local out
    out=$(q -v VERBOSITY=verbose -c "\\set VERBOSITY verbose" -c "SELECT gen_ulidflake()" 2>&1) && fail "gen_ulidflake() worked with ulid.node_id = $1 in the configuration"
    grep -qF "ERROR:  22023: gen_ulidflake(): the server configuration sets ulid.node_id to $1, outside -1..31" <<<"$out" \
        && grep -qF "HINT:  Fix ulid.node_id in postgresql.conf" <<<"$out" \
        || fail "gen_ulidflake() with ulid.node_id = $1 in the configuration: $out"
}
set_node_id() {  # set_node_id VALUE: the last line of postgresql.conf, then a reload
    as_postgres sed -i '/^ulid.node_id/d' "$N_DIR/data/postgresql.conf"
    echo "ulid.node_id = $1" | as_postgres tee -a "$N_DIR/data/postgresql.conf" >/dev/null
    q -c "SELECT pg_reload_conf()" >/dev/null
    sleep 1
}

q -c "CREATE EXTENSION ulid"
grep -qF 'WARNING:  invalid value for parameter "ulid.node_id": 40' "$N_DIR/server.log" \
    && grep -qF "DETAIL:  ulid.node_id must be between -1 and 31." "$N_DIR/server.log" \
    || fail "no warning about ulid.node_id = 40 in the server log"
[ "$(q -c "SHOW ulid.node_id")" = -1 ] || fail "ulid.node_id is not -1 after 40 was refused"
refused 40
[ "$(q -c "SELECT ulidflake_scalability_id(gen_ulidflake(5))")" = 5 ] || fail "gen_ulidflake(5) with a refused ulid.node_id"
echo "node_id: 40 in postgresql.conf at start: a warning in the log, the setting stays -1, gen_ulidflake() refused (22023), gen_ulidflake(5) works"

set_node_id 7
[ "$(q -c "SELECT ulidflake_scalability_id(gen_ulidflake())")" = 7 ] || fail "ids do not carry node 7 after the fix"
out=$(q -c "ALTER SYSTEM SET ulid.node_id = 40" -c "SELECT 'after'" -c "SELECT ulidflake_scalability_id(gen_ulidflake())" 2>&1 || true)
grep -qF 'ERROR:  invalid value for parameter "ulid.node_id": 40' <<<"$out" && grep -qx 7 <<<"$out" \
    || fail "ALTER SYSTEM SET ulid.node_id = 40: $out"
echo "  fixed to 7: ids carry 7; ALTER SYSTEM SET ulid.node_id = 40 refused, and the session's gen_ulidflake() still works"

# A session open across the reload learns of the refusal at its next statement.
coproc SESSION { psql -X -q -At -h "$N_HOST" -p "$N_PORT" -U postgres -d postgres 2>&1; }
echo "SELECT 'open', ulidflake_scalability_id(gen_ulidflake());" >&"${SESSION[1]}"
read -r -t 10 line <&"${SESSION[0]}" && [ "$line" = "open|7" ] || fail "the open session: $line"
set_node_id -2
grep -qF 'contains errors' "$N_DIR/server.log" || fail "no log line about the refused -2"
[ "$(q -c "SHOW ulid.node_id")" = 7 ] || fail "ulid.node_id changed from 7 after -2 was refused"
refused -2
echo "SELECT gen_ulidflake();" >&"${SESSION[1]}"
read -r -t 10 line <&"${SESSION[0]}"
grep -qF "ulid.node_id to -2, outside -1..31" <<<"$line" || fail "the session open across the reload: $line"
exec {SESSION[1]}>&-
wait
echo "  -2 in postgresql.conf, reloaded: the log says the file has errors, the setting stays 7, gen_ulidflake() refused in new and open sessions"
echo "  ok"
