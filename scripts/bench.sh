#!/usr/bin/env bash
# The benchmark suite: ulid and ulidflake measured side by side with core uuid and bigint in one
# run, on throwaway clusters with fixed settings, on PostgreSQL 15 and 18 by default (on 18 also
# against core uuidv7()). Builds the extension in release mode, runs every benchmark on each
# major (a warm-up, then several rounds with the variants interleaved; medians reported), prints
# a Markdown report with the majors side by side and writes it to bench/results.md.
#
# Usage: scripts/bench.sh [--pg N]... [--quick] [--update-readme]
#   --pg N           benchmark on major N (repeatable; default: --pg 15 --pg 18)
#   --quick          fewer rows and rounds (a minute or two per major instead of about 15)
#   --update-readme  also put the report into README.md, between the bench markers
# A benchmark, not a test: it exits 0 whatever the numbers; the report says which targets were met.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

DEFAULT_MAJORS="15 18"
parse_majors "$@"
quick=0
update_readme=0
for arg in "${ARGS[@]}"; do
    case $arg in
        --quick) quick=1 ;;
        --update-readme) update_readme=1 ;;
        *) echo "usage: $0 [--pg N]... [--quick] [--update-readme]" >&2; exit 2 ;;
    esac
done
if [ $quick -eq 1 ]; then
    rows=200000; reps=4; clients=4; transactions=2000; prefill=100000; insert_rounds=1; bulk_rows=200000
else
    rows=2000000; reps=15; clients=4; transactions=50000; prefill=1000000; insert_rounds=3; bulk_rows=2000000
fi
# The insert workloads, as SESSIONS:ROWS_PER_STATEMENT:PREFILL:TRANSACTIONS_PER_SESSION.
workloads=("$clients:1:$prefill:$transactions" "4:100:0:$((bulk_rows / 400))" "8:100:0:$((bulk_rows / 800))")
ensure_packages
# Each major's measurements, as CSV, gathered into one database for the report.
results=$(mktemp -d /tmp/ulid-bench.XXXXXX)
cleanup_path "$results"
chmod 755 "$results"
as_root chown postgres: "$results"    # the servers write and read the CSV files
tables=(bench_times bench_comparisons bench_inserts bench_storage)

settings=(
    "shared_preload_libraries = 'ulid'"
    "shared_buffers = '1GB'"
    "work_mem = '1GB'"
    "maintenance_work_mem = '1GB'"
    "max_wal_size = '20GB'"
    "checkpoint_timeout = '1h'"
    "max_parallel_workers_per_gather = 0"
    "max_parallel_maintenance_workers = 0"
    "jit = off"
    "synchronous_commit = on"
    "full_page_writes = on"
    "autovacuum = off"
    "wal_level = minimal"
    "max_wal_senders = 0"
)
run_sql() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
export PGUSER=postgres PGDATABASE=bench PGOPTIONS="-c client_min_messages=warning"

# The insert workloads (benchmark 4), with the primary key of each kind of key made by its
# column default. A workload is SESSIONS:ROWS_PER_STATEMENT:PREFILL:TRANSACTIONS_PER_SESSION.
#   single rows: 4 sessions x one-row INSERTs into a table already holding $prefill rows (ids
#     made as if one every 10 ms up to now), after a warm-up and a CHECKPOINT;
#   bulk: 4 and 8 sessions x INSERT ... SELECT of 100 rows into an empty table, $bulk_rows rows in
#     all, with max_wal_size small enough that checkpoints happen during the run, so that the
#     WAL counts the full-page images a checkpoint makes the next change of each page write.
# insert_workload ROUND WORKLOAD TABLE LABEL COLUMN-DEFINITION [HISTORY-ID]: records
# transactions/s, WAL bytes and the primary-key index size.
insert_workload() {
    local round=$1 workload=$2 table=$3 key=$4 definition=$5 history=${6:-}
    local sessions rows_per prefill_rows transactions script warmup=0
    IFS=: read -r sessions rows_per prefill_rows transactions <<<"$workload"
    script=bench/insert.pgbench
    [ "$rows_per" -gt 1 ] && script=bench/insert_batch.pgbench
    run_sql -c "DROP TABLE IF EXISTS $table" -c "CREATE TABLE $table ($definition, payload int)"
    if [ "$prefill_rows" -gt 0 ]; then
        if [ -n "$history" ]; then
            run_sql -c "INSERT INTO $table (id, payload) SELECT $history, 0 FROM generate_series(1, $prefill_rows) AS n"
        else
            run_sql -c "INSERT INTO $table (payload) SELECT 0 FROM generate_series(1, $prefill_rows)"
        fi
        run_sql -c "VACUUM ANALYZE $table"
        warmup=500
        "$PG_BIN/pgbench" -n -M simple -c "$sessions" -j 2 -t $warmup -D table="$table" -f "$script" >/dev/null
    else
        run_sql -c "ALTER SYSTEM SET max_wal_size = '64MB'" -c "SELECT pg_reload_conf()" >/dev/null
    fi
    run_sql -c "CHECKPOINT"
    local lsn_before out tps
    lsn_before=$(run_sql -At -c "SELECT pg_current_wal_lsn()")
    out=$("$PG_BIN/pgbench" -n -M simple -c "$sessions" -j 2 -t "$transactions" -D table="$table" -f "$script")
    tps=$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)$/\1/p' <<<"$out")
    run_sql -c "INSERT INTO bench_inserts
        SELECT '$key', $round, $sessions, $sessions * $transactions * $rows_per, $tps,
               pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn_before'), pg_relation_size('${table}_pkey'), $rows_per"
    [ "$prefill_rows" -gt 0 ] || run_sql -c "ALTER SYSTEM RESET max_wal_size" -c "SELECT pg_reload_conf()" >/dev/null
    run_sql -At -c "SELECT count(*) = $prefill_rows + $sessions * ($warmup + $transactions) * $rows_per FROM $table" | grep -qx t \
        || { echo "insert workload $key lost rows" >&2; exit 1; }
    run_sql -c "DROP TABLE $table"
}

# bench_major: every benchmark on a fresh cluster of the current major; the measurements go to
# $results/<major>/<table>.csv.
bench_major() {
    install_extension --release
    cluster_start BENCH "${settings[@]}"
    export PGHOST=$BENCH_HOST PGPORT=$BENCH_PORT
    psql -X -q -d postgres -c "CREATE DATABASE bench"
    run_sql -c "CREATE EXTENSION ulid"
    run_sql -f bench/harness.sql
    run_sql -c "CREATE SCHEMA portable" -c "SET search_path = portable" -f portable/ulid_portable.sql
    SERVERS+=("$(run_sql -At -c 'SHOW server_version')")

    log "[$PG_MAJOR] benchmarks 1-3 and 5: $rows rows, $reps rounds after a warm-up"
    run_sql -v n="$rows" -v reps="$reps" -f bench/benchmarks.sql

    log "[$PG_MAJOR] benchmark 4: insert workloads: ${workloads[*]} (sessions:rows per statement:prefill:transactions per session), $insert_rounds rounds"
    local history="now() - ($prefill - n) * interval '10 milliseconds'"
    local keys=(ins_ulid ins_monotonic ins_server ins_uuid ins_flake ins_bigint)
    local labels=("ulid: gen_ulid()" "ulid: gen_monotonic_ulid()" "ulid: gen_server_monotonic_ulid()"
                  "uuid: gen_random_uuid()" "ulidflake: gen_ulidflake()" "bigint: identity")
    local definitions=("id ulid PRIMARY KEY DEFAULT gen_ulid()" "id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid()"
                       "id ulid PRIMARY KEY DEFAULT gen_server_monotonic_ulid()"
                       "id uuid PRIMARY KEY DEFAULT gen_random_uuid()" "id ulidflake PRIMARY KEY DEFAULT gen_ulidflake()"
                       "id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
    local histories=("gen_ulid($history)" "gen_ulid($history)" "gen_ulid($history)" ""
                     "(($history)::ulidflake::bigint + (random() * 1048575)::int)::ulidflake" "")
    if [ "$PG_MAJOR" -ge 18 ]; then
        keys+=(ins_uuidv7)
        labels+=("uuid: uuidv7()")
        definitions+=("id uuid PRIMARY KEY DEFAULT uuidv7()")
        histories+=("uuidv7(-($prefill - n) * interval '10 milliseconds')")
    fi
    local round k i workload
    for workload in "${workloads[@]}"; do
        for round in $(seq "$insert_rounds"); do
            for k in "${!keys[@]}"; do
                i=$(((round + k) % ${#keys[@]}))
                insert_workload "$round" "$workload" "${keys[$i]}" "${labels[$i]}" "${definitions[$i]}" "${histories[$i]}"
            done
        done
    done
    local table
    as_postgres mkdir "$results/$PG_MAJOR"
    for table in "${tables[@]}"; do
        run_sql -c "COPY $table TO '$results/$PG_MAJOR/$table.csv' (FORMAT csv)"
    done
    EXTVERSION=$(run_sql -At -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")
    unset PGHOST PGPORT
    cluster_stop_all
}

for major in "${MAJORS[@]}"; do    # all set up before any build (see scripts/test.sh)
    use_major "$major"
    ensure_postgresql
    ensure_cargo_pgrx
done
SERVERS=()
for major in "${MAJORS[@]}"; do
    use_major "$major"
    bench_major
done

# The report, from every major's measurements in one database.
use_major "${MAJORS[0]}"
cluster_start REPORT
export PGHOST=$REPORT_HOST PGPORT=$REPORT_PORT
psql -X -q -d postgres -c "CREATE DATABASE bench"
run_sql -f bench/harness.sql
for major in "${MAJORS[@]}"; do
    for table in "${tables[@]}"; do
        run_sql -c "COPY $table FROM '$results/$major/$table.csv' (FORMAT csv)"
    done
done
report=bench/results.md
{
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by \`scripts/bench.sh$(printf ' --pg %s' "${MAJORS[@]}")$([ $quick -eq 1 ] && echo ' --quick')\` on"
    echo "$(nproc) cores ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)),"
    echo "$(awk '/^MemTotal:/ {printf "%.0f", $2 / 1048576}' /proc/meminfo) GiB memory, ulid $EXTVERSION (release build), on"
    printf -- '- PostgreSQL %s\n' "${SERVERS[@]}"
    echo
    echo "Settings: $(IFS=';'; echo "${settings[*]}" | sed 's/;/, /g'), fsync = off."
    echo "Benchmarks 1-3: $rows rows, median of $reps rounds after a warm-up, variants interleaved;"
    echo "ratio = the median over the rounds of ours / baseline in the same round (lower is faster);"
    echo "targets are checked at the printed precision, on every server."
    echo "Insert workloads, pgbench, median of $insert_rounds rounds, the key types in a different order each round:"
    echo "single rows: $clients sessions x $transactions one-row transactions into a table already holding $prefill rows"
    echo "(time-ordered keys made as if one every 10 ms up to now), after a warm-up and a CHECKPOINT;"
    echo "bulk: 4 and 8 sessions x INSERT ... SELECT of 100 rows, $bulk_rows rows into an empty table, with"
    echo "max_wal_size = 64MB so that checkpoints, and the full-page writes after them, happen during the run."
    echo
    run_sql -f bench/report.sql
} >"$report"
cat "$report"

if [ $update_readme -eq 1 ]; then
    command -v python3 >/dev/null || ensure_packages python3
    python3 - "$report" <<'PY'
import re, sys
report = open(sys.argv[1]).read().strip()
readme = open("README.md").read()
begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
if begin not in readme or end not in readme:
    sys.exit("README.md has no bench markers")
head, rest = readme.split(begin, 1)
_, tail = rest.split(end, 1)
open("README.md", "w").write(head + begin + "\n" + report + "\n" + end + tail)
PY
    log "README.md updated"
fi
cluster_stop_all
