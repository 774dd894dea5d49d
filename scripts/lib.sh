# Shared by scripts/demo.sh, scripts/test.sh and the test scripts: idempotent setup of the
# machine, building and installing the extension, and throwaway PostgreSQL 15 clusters.
# Source it; do not run it.

PG_MAJOR=15
PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
PG_CONFIG=$PG_BIN/pg_config
PGRX_VERSION=0.18.0
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

log() { printf '\n==> %s\n' "$*" >&2; }

# For test scripts: report a failed check and stop.
fail() { echo "FAIL: $*" >&2; exit 1; }

# The extension's version, as ulid.control declares it.
extension_version() { sed -n "s/^default_version = '\(.*\)'$/\1/p" "$REPO_ROOT/ulid.control"; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Debian packages: the server, its headers (pgrx's bindgen), libclang (bindgen), sudo (to run
# PostgreSQL as the postgres user), and what building cargo-pgrx and the extension needs.
ensure_packages() {
    local wanted=(postgresql-$PG_MAJOR postgresql-server-dev-$PG_MAJOR libclang-dev sudo
                  build-essential pkg-config libssl-dev "$@")
    local missing=() p
    for p in "${wanted[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    log "installing Debian packages: ${missing[*]}"
    local running_before
    running_before=$(online_clusters)
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # Installing the server may start Debian's default cluster; we leave nothing running that we started.
    local c
    for c in $(online_clusters); do
        grep -qx "$c" <<<"$running_before" || as_root pg_ctlcluster "${c%/*}" "${c#*/}" stop || true
    done
}

# The Debian clusters that are running, as VERSION/NAME; nothing if postgresql-common is absent.
online_clusters() {
    command -v pg_lsclusters >/dev/null || return 0
    pg_lsclusters -h 2>/dev/null | awk '$4 == "online" {print $1 "/" $2}' || true
}

ensure_cargo_pgrx() {
    if ! cargo pgrx --version 2>/dev/null | grep -qx "cargo-pgrx $PGRX_VERSION"; then
        log "installing cargo-pgrx $PGRX_VERSION (takes a few minutes, once)"
        cargo install cargo-pgrx --version "$PGRX_VERSION" --locked
    fi
    if ! grep -qx "pg$PG_MAJOR = \"$PG_CONFIG\"" "${PGRX_HOME:-$HOME/.pgrx}/config.toml" 2>/dev/null; then
        log "pointing pgrx at Debian's PostgreSQL $PG_MAJOR"
        cargo pgrx init --pg$PG_MAJOR "$PG_CONFIG"
    fi
}

ensure_setup() {
    ensure_packages "$@"
    ensure_cargo_pgrx
}

# A Python virtual environment with psycopg 3, for the client-driver test.
VENV=$REPO_ROOT/target/venv
ensure_psycopg() {
    if ! command -v python3 >/dev/null || ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
        ensure_packages python3 python3-venv
    fi
    [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
    if ! "$VENV/bin/python" -c 'import psycopg' 2>/dev/null; then
        log "installing psycopg 3 into $VENV"
        "$VENV/bin/pip" install -q 'psycopg[binary]>=3.1,<4'
    fi
}

# Builds the extension and installs it into Debian's PostgreSQL 15 (needs root for the copy).
install_extension() {
    local profile=("$@")
    log "building and installing the extension ${profile[*]}"
    (cd "$REPO_ROOT" && as_root env "PATH=$PATH" "HOME=$HOME" cargo pgrx install --pg-config "$PG_CONFIG" "${profile[@]}")
}

# A TCP port on 127.0.0.1 that nothing listens on.
free_port() {
    local port _
    for _ in $(seq 200); do
        port=$((20000 + RANDOM % 40000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return 0
        fi
    done
    echo "no free port found" >&2
    return 1
}

as_postgres() {
    as_root sudo -u postgres -- "$@"
}

# cluster_start VAR [postgresql.conf lines...]: initdb a new cluster in a temporary directory
# owned by postgres and start it on a free port, reachable only through a socket in that
# directory; set VAR_DIR, VAR_PORT and VAR_HOST. Every cluster (and anything registered with
# cleanup_path) is stopped and removed when the script exits, whether it succeeds or not.
CLUSTERS=()
CLEANUP_PATHS=()
trap cleanup_all EXIT

cluster_start() {
    local name=$1; shift
    local dir port
    dir=$(mktemp -d /tmp/ulid-pg.XXXXXX)
    CLUSTERS+=("$dir")
    chmod 755 "$dir"
    as_root chown postgres: "$dir"
    as_postgres "$PG_BIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; return 1; }
    port=$(free_port)
    {
        echo "port = $port"
        echo "listen_addresses = ''"
        echo "unix_socket_directories = '$dir'"
        echo "fsync = off"
        local setting
        for setting in "$@"; do echo "$setting"; done
    } | as_postgres tee -a "$dir/data/postgresql.conf" >/dev/null
    as_postgres "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null \
        || { cat "$dir/server.log" >&2; return 1; }
    printf -v "${name}_DIR" '%s' "$dir"
    printf -v "${name}_PORT" '%s' "$port"
    printf -v "${name}_HOST" '%s' "$dir"
}

# cluster_restart DIR [postgresql.conf lines...]: appends the lines and restarts.
cluster_restart() {
    local dir=$1; shift
    local setting
    for setting in "$@"; do echo "$setting"; done | as_postgres tee -a "$dir/data/postgresql.conf" >/dev/null
    as_postgres "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 restart >/dev/null \
        || { cat "$dir/server.log" >&2; return 1; }
}

# cleanup_path PATH: remove PATH (a temporary directory) when the script exits.
cleanup_path() {
    CLEANUP_PATHS+=("$1")
}

cluster_stop_all() {
    local dir
    for dir in "${CLUSTERS[@]}"; do
        if [ -f "$dir/data/postmaster.pid" ]; then
            as_postgres "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null 2>&1 \
                || as_postgres "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
        fi
        as_root rm -rf "$dir" || true
    done
    CLUSTERS=()
}

cleanup_all() {
    cluster_stop_all
    local path
    for path in "${CLEANUP_PATHS[@]}"; do
        if [ -f "$path/data/postmaster.pid" ]; then
            as_postgres "$PG_BIN/pg_ctl" -D "$path/data" -m immediate -w stop >/dev/null 2>&1 || true
        fi
        as_root rm -rf "$path" || true
    done
    CLEANUP_PATHS=()
}
