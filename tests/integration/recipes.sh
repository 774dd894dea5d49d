#!/usr/bin/env bash
# Runs the README's recipes: every ```sql block after a "<!-- recipe: NAME -->" marker, in
# order, in one database, as written (psql, stop at the first error), then checks what each
# one should have done. A recipe marked "<!-- recipe: NAME (PostgreSQL N and later) -->" runs
# on major N and later only. The ulidflake-nodes recipe runs on two more clusters with
# ulid.node_id = 1 and 2, whose rows are then merged into one table.
# Needs a cluster that preloads ulid: PGHOST/PGPORT/PGUSER set.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"
cd "$REPO_ROOT"

work=$(mktemp -d /tmp/ulid-recipes.XXXXXX)
cleanup_path "$work"
python3 - "$work" <<'PY'
import re, sys
readme = open("README.md").read()
found = re.findall(r"<!-- recipe: ([a-z0-9-]+)(?: \(PostgreSQL (\d+) and later\))? -->\s*```sql\n(.*?)```",
                   readme, flags=re.S)
for i, (name, since, sql) in enumerate(found):
    open(f"{sys.argv[1]}/{i:02d}-{name}.{since or 0}.sql", "w").write(sql)
PY
# Every marker must have found its block: a marker whose SQL block moved away is a failure.
markers=$(grep -c '^<!-- recipe: ' README.md)
[ "$(ls "$work" | wc -l)" -eq "$markers" ] || fail "the README has $markers recipe markers, but only $(ls "$work" | wc -l) are followed by a SQL block"

db=ulid_recipes
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
run() { psql -X -q -v ON_ERROR_STOP=1 "$@" >/dev/null; }
check() {  # check NAME DB SQL: the query must return t
    local got
    got=$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$2" -c "$3")
    [ "$got" = t ] || fail "recipe $1: check returned '$got': $3"
}
plan_uses() {  # plan_uses NAME INDEX SQL: with sequential scans off, the plan reads INDEX
    psql -X -q -At -d "$db" -c "SET enable_seqscan = off" -c "EXPLAIN $3" | grep -q "$2" \
        || fail "recipe $1: the plan does not use $2"
}

ran=0
skipped=0
for file in "$work"/*.sql; do
    name=$(basename "$file" .sql); since=${name##*.}; name=${name%.*}; name=${name#*-}
    if [ "$PG_MAJOR" -lt "$since" ]; then
        echo "  recipe $name: needs PostgreSQL $since, not run on $PG_MAJOR"
        skipped=$((skipped + 1))
        continue
    fi
    ran=$((ran + 1))
    if [ "$name" = ulidflake-nodes ]; then
        cluster_start N1 "shared_preload_libraries = 'ulid'" "ulid.node_id = 1"
        cluster_start N2 "shared_preload_libraries = 'ulid'" "ulid.node_id = 2"
        for n in N1 N2; do
            host=${n}_HOST port=${n}_PORT
            run -h "${!host}" -p "${!port}" -U postgres -d postgres -c "CREATE EXTENSION ulid" -f "$file"
        done
        # Merge node 2's rows into node 1's table: no key conflict.
        psql -X -q -h "$N2_HOST" -p "$N2_PORT" -U postgres -d postgres -c "COPY orders TO STDOUT" \
            | psql -X -q -v ON_ERROR_STOP=1 -h "$N1_HOST" -p "$N1_PORT" -U postgres -d postgres -c "COPY orders FROM STDIN"
        got=$(psql -X -q -At -h "$N1_HOST" -p "$N1_PORT" -U postgres -d postgres \
            -c "SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || string_agg(DISTINCT ulidflake_scalability_id(id)::text, ',') FROM orders")
        [ "$got" = "4 4 1,2" ] || fail "recipe $name: merged rows, distinct ids, nodes: $got"
        echo "  recipe $name: ran on nodes 1 and 2; merged 4 rows, ids carry their node"
        continue
    fi
    # The portable SQL edition's recipe runs where the extension is not (yet): the README's
    # install command first.
    if [ "$name" = portable-table ]; then
        check "$name" "$db" "SELECT NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'ulid')"
        run -d "$db" -f portable/ulid_portable.sql
    fi
    run -d "$db" -f "$file"
    case $name in
        portable-table)
            check "$name" "$db" "SELECT NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'ulid')
                                        AND count(*) = 3 AND count(DISTINCT id) = 3
                                        AND bool_and(ulid_uuid_timestamp(id) BETWEEN now() - interval '1 hour' AND clock_timestamp())
                                        AND (SELECT count(*) = 3 FROM invoice_lines)
                                 FROM invoices"
            plan_uses "$name" invoices_created "SELECT count(*) FROM invoices WHERE ulid_uuid_timestamp(id) >= now() - interval '1 day'"
            portable_before=$(psql -X -q -At -d "$db" -c "SELECT string_agg(encode(uuid_send(id), 'hex') || ulid_uuid_to_text(id) || ulid_uuid_timestamp(id), ',' ORDER BY id) FROM invoices")
            portable_files=$(psql -X -q -At -d "$db" -c "SELECT pg_relation_filenode('invoices') || ' ' || pg_relation_filenode('invoice_lines')") ;;
        portable-to-ulid)
            # No table rewritten, the same bytes, text and times; the foreign key and the index
            # are back, and new rows come from gen_ulid().
            check "$name" "$db" "SELECT (SELECT string_agg(encode(ulid_send(id), 'hex') || id::text || id::timestamptz, ',' ORDER BY id) FROM invoices) = '$portable_before'
                                        AND pg_relation_filenode('invoices') || ' ' || pg_relation_filenode('invoice_lines') = '$portable_files'
                                        AND (SELECT count(*) = 2 FROM pg_attribute WHERE atttypid = 'ulid'::regtype
                                                 AND attrelid IN ('invoices'::regclass, 'invoice_lines'::regclass))
                                        AND (SELECT count(*) = 1 FROM pg_constraint WHERE conrelid = 'invoice_lines'::regclass AND contype = 'f')
                                        AND (SELECT pg_get_expr(adbin, adrelid) = 'gen_ulid()' FROM pg_attrdef WHERE adrelid = 'invoices'::regclass)"
            plan_uses "$name" invoices_created "SELECT count(*) FROM invoices WHERE id::timestamptz >= now() - interval '1 day'" ;;
        primary-key)
            check "$name" "$db" "SELECT count(*) = 3 AND count(DISTINCT id) = 3 FROM customers" ;;
        server-monotonic)
            check "$name" "$db" "SELECT count(*) = 1000 AND count(DISTINCT id) = 1000
                                        AND bool_and(id::timestamptz BETWEEN now() - interval '1 hour' AND clock_timestamp())
                                        AND (SELECT pg_get_expr(adbin, adrelid) = 'gen_server_monotonic_ulid()' FROM pg_attrdef WHERE adrelid = 'measurements'::regclass)
                                 FROM measurements" ;;
        creation-time)
            check "$name" "$db" "SELECT bool_and(created_at = id::timestamptz AND created_at BETWEEN now() - interval '1 hour' AND now()) FROM customers" ;;
        time-range)
            check "$name" "$db" "SELECT count(*) = 3 FROM customers WHERE id >= (now() - interval '1 day')::ulid AND id < (now() + interval '1 day')::ulid"
            plan_uses "$name" customers_pkey "SELECT count(*) FROM customers WHERE id >= (now() - interval '1 day')::ulid AND id < (now() + interval '1 day')::ulid" ;;
        monthly-partitions)
            check "$name" "$db" "SELECT (SELECT count(*) = 3 FROM pg_inherits WHERE inhparent = 'events'::regclass)
                                        AND (SELECT tableoid::regclass::text = 'events_' || to_char(now(), 'YYYY_MM') FROM events)"
            plan=$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" -c "EXPLAIN SELECT * FROM events WHERE id >= date_trunc('month', now())::ulid")
            last_month=events_$(psql -X -q -At -d "$db" -c "SELECT to_char(now() - interval '1 month', 'YYYY_MM')")
            this_month=events_$(psql -X -q -At -d "$db" -c "SELECT to_char(now(), 'YYYY_MM')")
            grep -q "on $this_month" <<<"$plan" || fail "recipe $name: the plan does not read $this_month: $plan"
            ! grep -q "$last_month" <<<"$plan" || fail "recipe $name: $last_month is not pruned: $plan" ;;
        brin)
            # The same count through the BRIN index as by a sequential scan, at the same now().
            counts=$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" <<'SQL'
BEGIN;
SET LOCAL enable_seqscan = off;
SELECT count(*) FROM readings WHERE id >= (now() - interval '1 hour')::ulid;
SET LOCAL enable_seqscan = on;
SET LOCAL enable_bitmapscan = off;
SET LOCAL enable_indexscan = off;
SELECT count(*) FROM readings WHERE id >= (now() - interval '1 hour')::ulid;
COMMIT;
SQL
)
            [ "$(sed -n 1p <<<"$counts")" = "$(sed -n 2p <<<"$counts")" ] && [ "$(sed -n 1p <<<"$counts")" -gt 3000 ] \
                || fail "recipe $name: through the index and by a scan: $counts"
            plan_uses "$name" readings_id_brin "SELECT count(*) FROM readings WHERE id >= (now() - interval '1 hour')::ulid" ;;
        uuid-table)
            ids_before=$(psql -X -q -At -d "$db" -c "SELECT string_agg(id::text, ',' ORDER BY email) FROM accounts") ;;
        uuidv7-table)
            v7_before=$(psql -X -q -At -d "$db" -c "SELECT string_agg(encode(uuid_send(id), 'hex') || uuid_extract_timestamp(id), ',' ORDER BY name) FROM devices") ;;
        uuidv7-to-ulid)
            # The same bytes and creation times after the round trip; the row made while the column
            # was a ulid has a ulid's time; the three sort in the order they were made.
            check "$name" "$db" "SELECT (SELECT string_agg(encode(uuid_send(id), 'hex') || uuid_extract_timestamp(id), ',' ORDER BY name) FROM devices WHERE name <> 'sensor-3') = '$v7_before'
                                        AND (SELECT id::ulid::timestamptz BETWEEN now() - interval '1 hour' AND now() FROM devices WHERE name = 'sensor-3')
                                        AND (SELECT array_agg(name ORDER BY id) = '{sensor-1,sensor-2,sensor-3}' FROM devices)
                                        AND (SELECT atttypid = 'uuid'::regtype FROM pg_attribute WHERE attrelid = 'devices'::regclass AND attname = 'id')" ;;
        migrate-uuid)
            # The ids came back unchanged, and the row inserted while the column was a ulid has a
            # ulid's creation time.
            check "$name" "$db" "SELECT (SELECT string_agg(id::text, ',' ORDER BY email) FROM accounts WHERE email <> 'c@example.org') = '$ids_before'
                                        AND (SELECT id::ulid::timestamptz BETWEEN now() - interval '1 hour' AND now() FROM accounts WHERE email = 'c@example.org')
                                        AND (SELECT atttypid = 'uuid'::regtype FROM pg_attribute WHERE attrelid = 'accounts'::regclass AND attname = 'id')
                                        AND (SELECT pg_get_expr(adbin, adrelid) = 'gen_random_uuid()' FROM pg_attrdef WHERE adrelid = 'accounts'::regclass)" ;;
        *) fail "recipe $name has no check in $0" ;;
    esac
    echo "  recipe $name: ran as written, checked"
done
psql -X -q -d postgres -c "DROP DATABASE $db"
[ "$ran" -eq "$((markers - skipped))" ] || fail "$ran recipes ran, expected $((markers - skipped))"
echo "recipes: $ran of the README's $markers tested recipes ran on PostgreSQL $PG_MAJOR ($skipped need a later major) and passed their checks (the Citus one is marked untested)"

# The client-driver recipes: the README holds, verbatim, the code between the "recipe:begin" and
# "recipe:end" lines of each driver test (tests/driver), which the test runs.
python3 - <<'PY' || fail "the README does not hold a driver recipe as its test runs it"
import glob, re, sys
readme = open("README.md").read()
regions = 0
for path in sorted(glob.glob("tests/driver/**/*.*", recursive=True)):
    if "node_modules" in path:
        continue
    text = open(path, errors="replace").read()
    for match in re.finditer(r"^.*recipe:begin.*\n((?:.*\n)*?).*recipe:end.*$", text, flags=re.M):
        regions += 1
        if match.group(1) not in readme:
            sys.exit(f"  {path}: its recipe is not in README.md as it is in the test")
if regions < 6:
    sys.exit(f"  found only {regions} driver recipes in tests/driver")
print(f"  driver recipes: the README holds all {regions} as the tests run them")
PY
echo "  ok"
