#!/usr/bin/env bash
# Hostile input cannot crash the server, grow a backend's memory or make an unbounded message
# (tests/integration/hostile_input.py says what it sends and checks): oversized bad text in UTF8,
# LATIN1 and SQL_ASCII databases through the cast, COPY and (16+) the soft-error functions;
# binary values of every length as parameters, in arrays, records and random COPY files. Then
# the server must never have restarted: the same start time, and no "terminated by signal" in
# its log. Starts its own cluster.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"

cluster_start H "shared_preload_libraries = 'ulid'"
q() { psql -X -q -At -v ON_ERROR_STOP=1 -h "$H_HOST" -p "$H_PORT" -U postgres "$@"; }
for db in utf8:UTF8 latin1:LATIN1 sql_ascii:SQL_ASCII; do
    q -d postgres -c "CREATE DATABASE ulid_hostile_${db%%:*} ENCODING '${db#*:}' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0"
    q -d "ulid_hostile_${db%%:*}" -c "CREATE EXTENSION ulid" -c "CREATE TABLE hostile_text (id ulid, note text)"
done
q -d ulid_hostile_utf8 -c "CREATE TYPE hostile_pair AS (a ulid, b ulidflake)" \
    -c "CREATE TABLE hostile_binary (ulid_value ulid, ulidflake_value ulidflake)"
started=$(q -d postgres -c "SELECT pg_postmaster_start_time()")
files=$(mktemp -d /tmp/ulid-hostile.XXXXXX)
cleanup_path "$files"
chmod 777 "$files"

python3 "$REPO_ROOT/tests/integration/hostile_input.py" --host "$H_HOST" --port "$H_PORT" --major "$PG_MAJOR" --files "$files"

[ "$(q -d postgres -c "SELECT pg_postmaster_start_time()")" = "$started" ] || fail "the server restarted"
! grep -E "terminated by signal|fatal runtime error|was terminated" "$H_DIR/server.log" \
    || fail "a backend was terminated (server log above)"
echo "  the server never restarted; its log shows no backend terminated"
echo "  ok"
