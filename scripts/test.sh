#!/usr/bin/env bash
# Runs every test of the extension on every supported PostgreSQL major (14 to 18), installing
# whatever is missing first (Debian packages, cargo-pgrx, the PostgreSQL servers, the drivers).
# For each major, against throwaway clusters of that major:
#   1. cargo pgrx test: the pure-Rust unit tests (with the codec fuzzing) and the in-server
#      (#[pg_test]) tests;
#   2. the SQL regression suite (tests/sql, expected output in tests/expected) on a cluster that
#      preloads the library: the tests of tests/schedule, plus those of tests/schedule.<M> for
#      every M up to this major (features that PostgreSQL M introduced) and of
#      tests/schedule.upto.<M> for every M from this major on (behaviour that changed after M);
#   3. the integration tests (tests/integration): concurrency with pgbench, pg_dump/pg_restore,
#      logical replication between two clusters, gen_ulidflake() across server restarts, one
#      generator state per database, hostile input and hostile installs, a pgx_ulid dump restored, the README's recipes, the portable SQL edition (portable/), the
#      version, install-script baseline and upgrade scripts; and the client drivers
#      (tests/driver: Python, Node, Rust, Java);
#   4. the regression tests that need the library not preloaded;
#   5. the Debian package of that major (scripts/package.sh --pg N, then
#      tests/integration/package.sh).
# Then, if 15 and 18 were both tested: pg_upgrade from 15 to 18 (tests/integration/pg_upgrade.sh).
# Exits non-zero if any test fails; prints a summary per major at the end.
#
# Usage: scripts/test.sh [--pg N]...
#   --pg N   test only major N (repeatable; e.g. --pg 15 for a quick local run). Default: all.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

DEFAULT_MAJORS="${PG_MAJORS[*]}"
parse_majors "$@"
[ ${#ARGS[@]} -eq 0 ] || { echo "usage: $0 [--pg N]...  (N in ${PG_MAJORS[*]})" >&2; exit 2; }

ensure_packages
# Every SQL regression test is in a schedule: one that is in none would never run.
for test_file in tests/sql/*.sql; do
    grep -qx "test: $(basename "$test_file" .sql)" tests/schedule* \
        || fail "$test_file is in no tests/schedule* file: it would never run"
done
# Every server and pgrx's configuration for it first: pgrx rebuilds its bindings whenever its
# configuration file changes, so it must not change between one major's builds.
for major in "${MAJORS[@]}"; do
    use_major "$major"
    ensure_postgresql
    ensure_cargo_pgrx
done

# Logs and schedules go to target/, which a fresh clone does not have until the first build.
mkdir -p target
PG_REGRESS_FROM=$REPO_ROOT/target/regress
run_regress() {  # run_regress HOST PORT SCHEDULE-FILE OUTPUT-DIR
    local host=$1 port=$2 schedule=$3 results=$4 pg_regress
    pg_regress=$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress
    rm -rf "$results" && mkdir -p "$results"
    "$pg_regress" --bindir="$PG_BIN" --inputdir="$REPO_ROOT/tests" --outputdir="$results" \
        --host="$host" --port="$port" --user=postgres --dbname=ulid_regress \
        --load-extension=ulid --schedule="$schedule" | tee "$results/summary.log" \
        || { cat "$results/regression.diffs" >&2 || true; return 1; }
}

# regress_schedule BASE OUT: the schedule of this major: tests/BASE, then tests/BASE.M for each
# M <= major (what PostgreSQL M introduced) and tests/BASE.upto.M for each M >= major (what
# changed after M), into OUT.
regress_schedule() {
    local base=$1 out=$2 m
    cat "tests/$base" >"$out"
    for m in "${PG_MAJORS[@]}"; do
        [ "$m" -le "$PG_MAJOR" ] && [ -f "tests/$base.$m" ] && cat "tests/$base.$m" >>"$out"
        [ "$m" -ge "$PG_MAJOR" ] && [ -f "tests/$base.upto.$m" ] && cat "tests/$base.upto.$m" >>"$out"
    done
    return 0
}

SUMMARY=()
for major in "${MAJORS[@]}"; do
    use_major "$major"
    export ULID_PG_MAJOR=$major
    started=$SECONDS
    version=$("$PG_BIN/postgres" --version | awk '{print $3}')
    log "PostgreSQL $version: every test"

    log "[$major] Rust unit tests and in-server tests: cargo pgrx test pg$major"
    pgrx_data=$(mktemp -d /tmp/ulid-pgrx-test.XXXXXX)
    cleanup_path "$pgrx_data"
    chmod 755 "$pgrx_data"
    as_root chown postgres: "$pgrx_data"
    cargo pgrx test "pg$major" --runas postgres --pgdata "$pgrx_data/data" \
        | tee "target/cargo-test-pg$major.log"
    cluster_remove "$pgrx_data"
    rust_tests=$(awk '/^test result: ok\./ {n += $4} END {print n}' "target/cargo-test-pg$major.log")
    # Every test in the source ran: one that vanished (left out by a cfg, a filter, a harness
    # that stopped collecting it) is a failure.
    rust_expected=$(grep -rhEc '^\s*#\[(pg_)?test\]' src | awk '{n += $1} END {print n}')
    [ "$rust_tests" -eq "$rust_expected" ] \
        || fail "$rust_tests Rust tests passed, but the source has $rust_expected #[test] and #[pg_test] functions"

    # The release build is what the regression and integration tests run, and what the package holds.
    install_extension --release

    log "[$major] SQL regression tests, library preloaded"
    # TCP on 127.0.0.1 too, for the JDBC driver (it cannot use the Unix socket).
    cluster_start REG "shared_preload_libraries = 'ulid'" "listen_addresses = '127.0.0.1'"
    regress_schedule schedule "target/schedule-pg$major"
    run_regress "$REG_HOST" "$REG_PORT" "target/schedule-pg$major" "$PG_REGRESS_FROM-pg$major"

    export PGHOST=$REG_HOST PGPORT=$REG_PORT PGUSER=postgres
    log "[$major] integration: concurrency (pgbench, 8 clients)"
    bash tests/integration/concurrency.sh
    log "[$major] integration: pg_dump and pg_restore"
    bash tests/integration/dump_restore.sh
    log "[$major] integration: logical replication"
    bash tests/integration/replication.sh
    log "[$major] integration: gen_ulidflake() across server restarts"
    bash tests/integration/restart.sh
    log "[$major] integration: ulid.node_id out of range in the configuration"
    bash tests/integration/node_id.sh
    log "[$major] integration: one generator state per database"
    bash tests/integration/databases.sh
    log "[$major] integration: hostile input (oversized text, binary values of every length)"
    bash tests/integration/hostile_input.sh
    log "[$major] integration: hostile installs (planted objects, a schema of another role)"
    bash tests/integration/hostile_install.sh
    log "[$major] integration: a pgx_ulid 0.2.2 dump restores unchanged"
    bash tests/integration/pgx_ulid_dump.sh
    log "[$major] client drivers: psycopg 3 and asyncpg (Python), node-postgres, tokio-postgres and sqlx (Rust), pgjdbc"
    bash tests/driver/python/run.sh
    bash tests/driver/node/run.sh
    bash tests/driver/rust/run.sh
    PGHOSTADDR=127.0.0.1 bash tests/driver/java/run.sh
    log "[$major] integration: the README's recipes"
    bash tests/integration/recipes.sh
    log "[$major] integration: the portable SQL edition, without and then beside the extension"
    bash tests/integration/portable.sh
    log "[$major] integration: versions, install script baseline and upgrade scripts"
    bash tests/integration/versions.sh

    log "[$major] SQL regression tests, library not preloaded"
    cluster_restart "$REG_DIR" "shared_preload_libraries = ''"
    regress_schedule schedule_no_preload "target/schedule-no-preload-pg$major"
    run_regress "$REG_HOST" "$REG_PORT" "target/schedule-no-preload-pg$major" "$PG_REGRESS_FROM-pg$major-no-preload"
    regress_counts=$(cat "$PG_REGRESS_FROM-pg$major/summary.log" "$PG_REGRESS_FROM-pg$major-no-preload/summary.log" \
        | sed -n 's/.*All \([0-9]*\) tests passed.*/\1/p' | paste -sd' ')
    regress_expected="$(grep -c '^test: ' "target/schedule-pg$major") $(grep -c '^test: ' "target/schedule-no-preload-pg$major")"
    [ "$regress_counts" = "$regress_expected" ] \
        || fail "regression tests passed: $regress_counts; in this major's schedules: $regress_expected"
    unset PGHOST PGPORT PGUSER
    cluster_stop_all

    log "[$major] the Debian package: build, install, smoke test"
    bash scripts/package.sh --pg "$major" >/dev/null
    bash tests/integration/package.sh

    SUMMARY+=("PostgreSQL $version: $rust_tests Rust tests, regression tests ${regress_counts/ / + } (preloaded + not), integration, client drivers, recipes, portable edition, versions, package: passed in $((SECONDS - started)) s")
done

if [[ " ${MAJORS[*]} " == *" 15 "* && " ${MAJORS[*]} " == *" 18 "* ]]; then
    log "integration: pg_upgrade from PostgreSQL 15 to 18"
    bash tests/integration/pg_upgrade.sh 15 18
    SUMMARY+=("pg_upgrade 15 -> 18: passed")
fi

log "all tests passed"
printf '  %s\n' "${SUMMARY[@]}"
