#!/usr/bin/env bash
# Runs every test of the extension on this machine, installing whatever is missing first:
#   1. cargo pgrx test: the pure-Rust unit tests (with the codec fuzzing) and the in-server
#      (#[pg_test]) tests;
#   2. the SQL regression suite (tests/sql, expected output in tests/expected) against a
#      throwaway PostgreSQL 15 cluster that preloads the library;
#   3. the integration tests (tests/integration): concurrency with pgbench, pg_dump/pg_restore,
#      logical replication between two clusters; and the client-driver test (tests/driver);
#      the README's recipes; the version, install-script baseline and upgrade scripts;
#   4. the regression tests that need the library not preloaded;
#   5. the Debian package (scripts/package.sh): installed with dpkg instead of the build, a
#      smoke test, then removed.
# Exits non-zero if any test fails. Usage: scripts/test.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

ensure_setup
ensure_psycopg

log "Rust unit tests and in-server tests: cargo pgrx test"
pgrx_data=$(mktemp -d /tmp/ulid-pgrx-test.XXXXXX)
cleanup_path "$pgrx_data"
chmod 755 "$pgrx_data"
as_root chown postgres: "$pgrx_data"
cargo pgrx test pg$PG_MAJOR --runas postgres --pgdata "$pgrx_data/data"

install_extension

PG_REGRESS=$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress
results=$REPO_ROOT/target/regress
run_regress() {
    local cluster_host=$1 cluster_port=$2 schedule=$3
    rm -rf "$results" && mkdir -p "$results"
    "$PG_REGRESS" --bindir="$PG_BIN" --inputdir="$REPO_ROOT/tests" --outputdir="$results" \
        --host="$cluster_host" --port="$cluster_port" --user=postgres --dbname=ulid_regress \
        --load-extension=ulid --schedule="$REPO_ROOT/tests/$schedule" \
        || { cat "$results/regression.diffs" >&2 || true; return 1; }
}

log "SQL regression tests, library preloaded"
cluster_start REG "shared_preload_libraries = 'ulid'"
run_regress "$REG_HOST" "$REG_PORT" schedule

export PGHOST=$REG_HOST PGPORT=$REG_PORT PGUSER=postgres
log "integration: concurrency (pgbench, 8 clients)"
bash tests/integration/concurrency.sh
log "integration: pg_dump and pg_restore"
bash tests/integration/dump_restore.sh
log "integration: logical replication"
bash tests/integration/replication.sh
log "client driver: psycopg 3, text and binary"
"$VENV/bin/python" tests/driver/test_driver.py
log "integration: the README's recipes"
bash tests/integration/recipes.sh
log "integration: versions, install script baseline and upgrade scripts"
bash tests/integration/versions.sh

log "SQL regression tests, library not preloaded"
cluster_restart "$REG_DIR" "shared_preload_libraries = ''"
run_regress "$REG_HOST" "$REG_PORT" schedule_no_preload

cluster_stop_all
log "the Debian package: build, install with dpkg, smoke test, remove"
bash scripts/package.sh >/dev/null
bash tests/integration/package.sh

log "all tests passed"
