#!/usr/bin/env bash
# The benchmark suite: ulid and ulidflake measured side by side with core uuid and bigint in one
# run, on a throwaway PostgreSQL 15 cluster with fixed settings. Builds the extension in release
# mode, runs every benchmark (a warm-up, then several rounds with the variants interleaved;
# medians reported), prints a Markdown report and writes it to bench/results.md.
#
# Usage: scripts/bench.sh [--quick] [--update-readme]
#   --quick          fewer rows and rounds (a minute or two instead of ~10)
#   --update-readme  also put the report into README.md, between the bench markers
# A benchmark, not a test: it exits 0 whatever the numbers; the report says which targets were met.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

quick=0
update_readme=0
for arg in "$@"; do
    case $arg in
        --quick) quick=1 ;;
        --update-readme) update_readme=1 ;;
        *) echo "usage: $0 [--quick] [--update-readme]" >&2; exit 2 ;;
    esac
done
if [ $quick -eq 1 ]; then
    rows=200000; reps=4; clients=4; transactions=2000; prefill=100000
else
    rows=2000000; reps=8; clients=4; transactions=50000; prefill=1000000
fi

ensure_setup
install_extension --release

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
)
cluster_start BENCH "${settings[@]}"
export PGHOST=$BENCH_HOST PGPORT=$BENCH_PORT PGUSER=postgres PGDATABASE=bench
export PGOPTIONS="-c client_min_messages=warning"
psql -X -q -d postgres -c "CREATE DATABASE bench"
run_sql() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
run_sql -c "CREATE EXTENSION ulid"
run_sql -f bench/harness.sql

log "benchmarks 1-3 and 5: $rows rows, $reps rounds after a warm-up"
run_sql -v n="$rows" -v reps="$reps" -f bench/benchmarks.sql

log "benchmark 4: insert workload, pgbench with $clients clients x $transactions transactions after $prefill rows"
# insert_workload TABLE LABEL COLUMN-DEFINITION [HISTORY-ID]: fills the table with $prefill rows
# (ids from HISTORY-ID, an expression of n = 1..$prefill, as if made one every 10 ms up to now;
# else from the column default), checkpoints, then times pgbench inserting one row per
# transaction and records transactions/s, WAL bytes and the primary-key index size.
insert_workload() {
    local table=$1 key=$2 definition=$3 history=${4:-}
    run_sql -c "CREATE TABLE $table ($definition, payload int)"
    if [ -n "$history" ]; then
        run_sql -c "INSERT INTO $table (id, payload) SELECT $history, 0 FROM generate_series(1, $prefill) AS n"
    else
        run_sql -c "INSERT INTO $table (payload) SELECT 0 FROM generate_series(1, $prefill)"
    fi
    run_sql -c "VACUUM ANALYZE $table" -c "CHECKPOINT"
    local lsn_before out tps
    lsn_before=$(run_sql -At -c "SELECT pg_current_wal_lsn()")
    out=$("$PG_BIN/pgbench" -n -M simple -c "$clients" -j 2 -t "$transactions" -D table="$table" -f bench/insert.pgbench)
    tps=$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)$/\1/p' <<<"$out")
    run_sql -c "INSERT INTO bench_inserts
        SELECT '$key', $clients, count(*) - $prefill, $tps, pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn_before'),
               pg_relation_size('${table}_pkey')
        FROM $table"
    run_sql -At -c "SELECT count(*) = $prefill + $clients * $transactions FROM $table" | grep -qx t \
        || { echo "insert workload $key lost rows" >&2; exit 1; }
}
history="now() - ($prefill - n) * interval '10 milliseconds'"
insert_workload ins_ulid "ulid: gen_ulid()" "id ulid PRIMARY KEY DEFAULT gen_ulid()" "gen_ulid($history)"
insert_workload ins_monotonic "ulid: gen_monotonic_ulid()" "id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid()" "gen_ulid($history)"
insert_workload ins_uuid "uuid: gen_random_uuid()" "id uuid PRIMARY KEY DEFAULT gen_random_uuid()"
insert_workload ins_flake "ulidflake: gen_ulidflake()" "id ulidflake PRIMARY KEY DEFAULT gen_ulidflake()" \
    "(($history)::ulidflake::bigint + (random() * 1048575)::int)::ulidflake"
insert_workload ins_bigint "bigint: identity" "id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"

report=bench/results.md
{
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by \`scripts/bench.sh$([ $quick -eq 1 ] && echo ' --quick')\` on"
    echo "$(nproc) cores ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)),"
    echo "$(free -g | awk '/^Mem:/ {print $2}') GiB memory, PostgreSQL $(run_sql -At -c 'SHOW server_version'), ulid $(run_sql -At -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'") (release build)."
    echo "Settings: $(IFS=';'; echo "${settings[*]}" | sed 's/;/, /g'), fsync = off."
    echo "Benchmarks 1-3: $rows rows, median of $reps rounds after a warm-up, variants interleaved;"
    echo "ratio = ours / baseline (lower is faster). Insert workload: pgbench, $clients clients x"
    echo "$transactions one-row transactions into a table already holding $prefill rows (time-ordered"
    echo "keys made as if one every 10 ms up to now), after a CHECKPOINT. Targets are checked at the"
    echo "printed precision."
    echo
    run_sql -f bench/report.sql
} >"$report"
cat "$report"

if [ $update_readme -eq 1 ]; then
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
