#!/usr/bin/env bash
# The JDBC client-driver test (UlidJdbcTest.java, pgjdbc from Debian) against the server that
# PGPORT and PGUSER point at (the caller starts it, with the extension installed).
#
# pgjdbc cannot use a Unix socket without extra jars, so the test connects over TCP, to
# PGHOSTADDR (default 127.0.0.1) port PGPORT; PGHOST, a socket directory, is not used. Start the
# server listening there too, with trust for host connections (initdb -A trust gives it):
#   cluster_start X "shared_preload_libraries = 'ulid'" "listen_addresses = '127.0.0.1'"
#   export PGHOST=$X_HOST PGPORT=$X_PORT PGUSER=postgres
# Installs what is missing (default-jdk-headless, libpostgresql-jdbc-java) with apt, compiles
# into target/driver-java (gitignored) when the source or the driver is newer than the classes,
# then runs the test. Works from any directory.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../../../scripts/lib.sh"

: "${PGPORT:?set PGPORT (and PGUSER) to the server to test}"
PGHOSTADDR=${PGHOSTADDR:-127.0.0.1}
export PGHOSTADDR PGPORT PGUSER=${PGUSER:-postgres}

ensure_packages default-jdk-headless libpostgresql-jdbc-java
jar=/usr/share/java/postgresql.jar
src=$here/UlidJdbcTest.java
out=$REPO_ROOT/target/driver-java

class=$out/UlidJdbcTest.class
if [ ! -f "$class" ] || [ "$src" -nt "$class" ] || [ "$jar" -nt "$class" ]; then
    log "compiling $src into $out"
    rm -rf "$out"
    mkdir -p "$out"
    javac -Xlint:all -d "$out" -cp "$jar" "$src"
fi

(exec 3<>"/dev/tcp/$PGHOSTADDR/$PGPORT") 2>/dev/null \
    || fail "no server listens on TCP $PGHOSTADDR:$PGPORT, and pgjdbc needs TCP: start it with" \
            "\"listen_addresses = '$PGHOSTADDR'\" (or set PGHOSTADDR to an address it listens on)"

java -cp "$out:$jar" UlidJdbcTest
