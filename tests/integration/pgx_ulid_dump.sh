#!/usr/bin/env bash
# Moving from pgx_ulid: a real pgx_ulid 0.2.2 database, dumped (tests/fixtures/pgx_ulid-0.2.2,
# see its README), restores into this extension unchanged, and its checks print exactly what a
# correct restore must print:
#   - plain format: psql -v ON_ERROR_STOP=1 -f dump.sql;
#   - custom format: pg_restore --exit-on-error;
# each into a fresh database (the dump's CREATE EXTENSION IF NOT EXISTS creates ulid) and into
# one where CREATE EXTENSION ulid ran first. Then checks.sql's output must equal
# expected-after-restore.out, and the restored defaults still generate ids.
# Needs a cluster with the extension installed: PGHOST/PGPORT/PGUSER set.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"

fixture=$REPO_ROOT/tests/fixtures/pgx_ulid-0.2.2
[ -f "$fixture/dump.sql" ] || fail "no pgx_ulid fixture at $fixture"
work=$(mktemp -d /tmp/ulid-pgx.XXXXXX)
cleanup_path "$work"

restored=0
for format in plain custom; do
    for start in fresh extension-first; do
        db=pgx_${format}_${start//-/_}
        psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
        [ "$start" = fresh ] || psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION ulid"
        if [ "$format" = plain ]; then
            psql -X -q -v ON_ERROR_STOP=1 -d "$db" -f "$fixture/dump.sql" >/dev/null 2>"$work/$db.log" \
                || { cat "$work/$db.log" >&2; fail "$format dump into a $start database: psql stopped at an error"; }
        else
            pg_restore --exit-on-error -d "$db" "$fixture/dump.custom" >"$work/$db.log" 2>&1 \
                || { cat "$work/$db.log" >&2; fail "$format dump into a $start database: pg_restore stopped at an error"; }
        fi
        # Not even a warning.
        [ ! -s "$work/$db.log" ] || { cat "$work/$db.log" >&2; fail "$format dump into a $start database printed: $(head -3 "$work/$db.log")"; }
        psql -X -d "$db" -f "$fixture/checks.sql" >"$work/$db.out" 2>&1
        diff -u "$fixture/expected-after-restore.out" "$work/$db.out" >&2 \
            || fail "checks.sql after the $format restore into a $start database differs from expected-after-restore.out"
        # The restored defaults still generate (gen_ulid() and gen_monotonic_ulid() of this
        # extension now), and the generated column follows the new ids.
        got=$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" <<'SQL'
INSERT INTO users (name) VALUES ('after the move') RETURNING created_at = id::timestamp AND id::timestamptz > now() - interval '1 minute';
INSERT INTO orders (user_id, amount) SELECT id, 1 FROM users WHERE name = 'after the move'
RETURNING id > (SELECT max(id) FROM orders WHERE user_id <> (SELECT id FROM users WHERE name = 'after the move'));
SELECT extversion = (SELECT default_version FROM pg_available_extensions WHERE name = 'ulid') FROM pg_extension WHERE extname = 'ulid';
SQL
)
        [ "$(tr '\n' ' ' <<<"$got")" = "t t t " ] || fail "$db: after the restore, defaults and generated column: $got"
        restored=$((restored + 1))
        psql -X -q -d postgres -c "DROP DATABASE $db"
    done
done
echo "pgx_ulid 0.2.2 dump: $restored restores (plain and custom, into fresh databases and ones with the extension) without an error; checks.sql printed expected-after-restore.out each time; defaults generate"
echo "  ok"
