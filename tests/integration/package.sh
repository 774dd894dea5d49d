#!/usr/bin/env bash
# The Debian package of the current major (ULID_PG_MAJOR) holds what it should and works without
# the build tree. Run after scripts/package.sh --pg N, as root (or with sudo).
#   - Contents: ulid.so under /usr/lib/postgresql/N/lib, ulid.control, the install script and
#     every upgrade script under /usr/share/postgresql/N/extension, the portable SQL edition
#     (as in portable/) under /usr/share/postgresql/N/contrib, the docs; it depends on
#     postgresql-N; the library has no test hooks (those exist only in `cargo pgrx test` builds).
#   - PostgreSQL 15 (Debian's server, as on a user's machine): every file of the extension is
#     removed from PostgreSQL's directories, the package is installed with dpkg, then a fresh
#     cluster runs CREATE EXTENSION and a smoke query, then dpkg -r.
#   - The other majors (this machine's servers are not Debian packages, so dpkg cannot install
#     into them): the build's files are removed from the server, the packaged library and
#     scripts (from dpkg-deb -x) are put in their place, and the same smoke test runs.
# Afterwards (also on failure) the machine is as the test found it: the build's files are back
# (or, for 15, the newly built package stays installed if a package was installed before).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"
cd "$REPO_ROOT"

version=$(extension_version)
deb=$(ls target/debian/postgresql-$PG_MAJOR-ulid_"$version"-1_*.deb)
package=postgresql-$PG_MAJOR-ulid
pkglibdir=$("$PG_CONFIG" --pkglibdir)
extdir=$("$PG_CONFIG" --sharedir)/extension
work=$(mktemp -d /tmp/ulid-package.XXXXXX)
cleanup_path "$work"

# What the package holds, whatever the major.
contents=$(dpkg-deb --contents "$deb" | awk '{print $6}' | grep -v '/$' | sed 's|^\./|/|' | sort)
expected=$( (echo "/usr/lib/postgresql/$PG_MAJOR/lib/ulid.so"
             echo "/usr/share/postgresql/$PG_MAJOR/extension/ulid.control"
             for f in "sql/ulid--$version.sql" sql/ulid--*--*.sql; do echo "/usr/share/postgresql/$PG_MAJOR/extension/$(basename "$f")"; done
             echo "/usr/share/postgresql/$PG_MAJOR/contrib/ulid_portable.sql"
             for f in README.md CHANGELOG.md copyright; do echo "/usr/share/doc/$package/$f"; done) | sort)
[ "$contents" = "$expected" ] || fail "package contents differ:"$'\n'"$(diff <(echo "$expected") <(echo "$contents"))"
[ "$(dpkg-deb --field "$deb" Package)" = "$package" ] || fail "the package is not named $package"
dpkg-deb --field "$deb" Depends | grep -q "^postgresql-$PG_MAJOR," || fail "the package does not depend on postgresql-$PG_MAJOR"

dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/share/postgresql/$PG_MAJOR/contrib/ulid_portable.sql" \
    | cmp -s - portable/ulid_portable.sql || fail "the packaged ulid_portable.sql is not portable/ulid_portable.sql"

# The packaged library is a production build: none of the test hooks of `cargo pgrx test` builds,
# whose messages name them "ulid test hook". Controls: the search finds a message the library
# must hold, and finds the hooks in the pg_test build that `cargo pgrx test` just made.
packaged_so=$work/packaged-ulid.so
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/lib/postgresql/$PG_MAJOR/lib/ulid.so" >"$packaged_so"
grep -q "invalid input syntax for type" "$packaged_so" || fail "the search for strings finds nothing in the packaged ulid.so"
if [ -f target/debug/libulid.so ]; then
    grep -q "ulid test hook" target/debug/libulid.so || fail "the pg_test build (target/debug/libulid.so) has no test hooks to look for"
fi
! grep -q "ulid test hook" "$packaged_so" || fail "the packaged ulid.so holds the test hooks of a pg_test build"

# Keep the build's files, to put them back afterwards.
mkdir -p "$work/build"
cp "$pkglibdir/ulid.so" "$extdir"/ulid.control "$extdir"/ulid--*.sql "$work/build/"
restore_build_files() {
    as_root cp "$work/build/ulid.so" "$pkglibdir/"
    as_root cp "$work/build"/ulid.control "$work/build"/ulid--*.sql "$extdir/"
}
remove_extension_files() {
    as_root rm -f "$pkglibdir/ulid.so" "$extdir"/ulid.control "$extdir"/ulid--*.sql
}

if [ "$PG_MAJOR" = 15 ]; then
    was_installed=false
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' && was_installed=true
    restore() {
        if [ "$was_installed" = false ]; then
            as_root dpkg -r "$package" >/dev/null 2>&1 || true
            restore_build_files
        fi
    }
    trap 'restore; cleanup_all' EXIT
    # Not from the build tree: nothing of ulid is left before the package goes in.
    as_root dpkg -r "$package" >/dev/null 2>&1 || true
    remove_extension_files
    as_root dpkg -i "$deb" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log" >&2; fail "dpkg -i failed"; }
    owner=$(dpkg -S "$pkglibdir/ulid.so" | cut -d: -f1)
    [ "$owner" = "$package" ] || fail "ulid.so is not from the package ($owner)"
    how="installed with dpkg"
else
    trap 'restore_build_files; cleanup_all' EXIT
    dpkg-deb -x "$deb" "$work/root"
    remove_extension_files
    as_root cp "$work/root/usr/lib/postgresql/$PG_MAJOR/lib/ulid.so" "$pkglibdir/"
    as_root cp "$work/root/usr/share/postgresql/$PG_MAJOR/extension"/ulid* "$extdir/"
    how="unpacked into PostgreSQL $PG_MAJOR's directories"
fi

cluster_start PKG "shared_preload_libraries = 'ulid'"
result=$(psql -X -q -At -v ON_ERROR_STOP=1 -h "$PKG_HOST" -p "$PKG_PORT" -U postgres -d postgres <<'SQL'
CREATE EXTENSION ulid;
CREATE TABLE smoke (id ulid PRIMARY KEY DEFAULT gen_ulid(), f ulidflake DEFAULT gen_ulidflake());
INSERT INTO smoke DEFAULT VALUES;
SELECT extversion || ' ' || (SELECT count(*) FROM smoke WHERE id::timestamptz <= now() + interval '1 minute'
                             AND f::timestamptz <= now() + interval '1 minute')
       || ' ' || '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid
       || ' ' || (SELECT probin FROM pg_proc WHERE proname = 'gen_ulid' AND pronargs = 0)
FROM pg_extension WHERE extname = 'ulid';
SQL
)
[ "$result" = "$version 1 01563e3a-b5d3-d676-4c61-efb99302bd5b \$libdir/ulid" ] || fail "smoke query gave: $result"
# The server ran the packaged library: the one in its directory is byte for byte the package's.
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/lib/postgresql/$PG_MAJOR/lib/ulid.so" | cmp -s - "$pkglibdir/ulid.so" \
    || fail "the library in $pkglibdir is not the packaged one"
cluster_stop_all
if [ "$PG_MAJOR" = 15 ] && [ "$was_installed" = false ]; then
    as_root dpkg -r "$package" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log" >&2; fail "dpkg -r failed"; }
    [ ! -e "$pkglibdir/ulid.so" ] || fail "dpkg -r left ulid.so behind"
fi
echo "package: $(basename "$deb") ($(wc -l <<<"$contents") files, as expected) $how; CREATE EXTENSION and a smoke query passed"
echo "  ok"
