#!/usr/bin/env bash
# The demo: installs what is missing, builds the extension (release) and installs it into
# PostgreSQL (15 by default), starts a throwaway cluster as the postgres user on a free port
# (preloading the library, for gen_ulidflake()), runs scripts/demo.sql and shows its output,
# then stops the cluster and removes it.
# Usage: scripts/demo.sh [--pg N]    (N: a supported major, 14 to 18; default 15)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

parse_majors "$@"
[ ${#ARGS[@]} -eq 0 ] && [ ${#MAJORS[@]} -eq 1 ] || { echo "usage: $0 [--pg N]  (N in ${PG_MAJORS[*]})" >&2; exit 2; }
use_major "${MAJORS[0]}"
ensure_setup
install_extension --release

cluster_start DEMO "shared_preload_libraries = 'ulid'"
log "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') running in $DEMO_DIR on port $DEMO_PORT; running scripts/demo.sql"
echo
psql -X -a -v ON_ERROR_STOP=1 -h "$DEMO_HOST" -p "$DEMO_PORT" -U postgres -d postgres -f scripts/demo.sql 2>&1
cluster_stop_all
log "demo finished; the cluster is stopped and removed"
