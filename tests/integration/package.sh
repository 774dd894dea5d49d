#!/usr/bin/env bash
# The Debian package installs and works without the build tree: remove every file of the
# extension from PostgreSQL's directories, install target/debian/*.deb with dpkg, start a fresh
# cluster, CREATE EXTENSION and run a smoke query. Afterwards (also on failure) the machine is
# as the test found it: if the package was not installed before, it is removed and the build's
# files are installed again; if it was, the newly built package stays installed.
# Run after scripts/package.sh, as root (or with sudo).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"
cd "$REPO_ROOT"

version=$(extension_version)
deb=$(ls target/debian/postgresql-$PG_MAJOR-ulid_"$version"-1_*.deb)
pkglibdir=$("$PG_CONFIG" --pkglibdir)
extdir=$("$PG_CONFIG" --sharedir)/extension

package=postgresql-$PG_MAJOR-ulid
was_installed=false
dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' && was_installed=true
restore() {
    if [ "$was_installed" = false ]; then
        as_root dpkg -r "$package" >/dev/null 2>&1 || true
        install_extension >/dev/null 2>&1 || echo "WARNING: could not reinstall the build's files" >&2
    fi
}
trap 'cleanup_all; restore' EXIT

# Not from the build tree: nothing of ulid is left before the package goes in.
as_root dpkg -r "$package" >/dev/null 2>&1 || true
as_root rm -f "$pkglibdir/ulid.so" "$extdir"/ulid.control "$extdir"/ulid--*.sql
as_root dpkg -i "$deb" >/tmp/ulid-dpkg.log 2>&1 || { cat /tmp/ulid-dpkg.log >&2; fail "dpkg -i failed"; }
owner=$(dpkg -S "$pkglibdir/ulid.so" | cut -d: -f1)
[ "$owner" = "$package" ] || fail "ulid.so is not from the package ($owner)"
depends=$(dpkg-deb --info "$deb" | grep -c "^ Depends: postgresql-$PG_MAJOR")
[ "$depends" -eq 1 ] || fail "the package does not depend on postgresql-$PG_MAJOR"

cluster_start PKG "shared_preload_libraries = 'ulid'"
result=$(psql -X -q -At -v ON_ERROR_STOP=1 -h "$PKG_HOST" -p "$PKG_PORT" -U postgres -d postgres <<'SQL'
CREATE EXTENSION ulid;
CREATE TABLE smoke (id ulid PRIMARY KEY DEFAULT gen_ulid(), f ulidflake DEFAULT gen_ulidflake());
INSERT INTO smoke DEFAULT VALUES;
SELECT extversion || ' ' || (SELECT count(*) FROM smoke WHERE id::timestamptz <= now() + interval '1 minute'
                             AND f::timestamptz <= now() + interval '1 minute')
       || ' ' || '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid
FROM pg_extension WHERE extname = 'ulid';
SQL
)
[ "$result" = "$version 1 01563e3a-b5d3-d676-4c61-efb99302bd5b" ] || fail "smoke query gave: $result"
cluster_stop_all
if [ "$was_installed" = false ]; then
    as_root dpkg -r "$package" >/tmp/ulid-dpkg.log 2>&1 || { cat /tmp/ulid-dpkg.log >&2; fail "dpkg -r failed"; }
    [ ! -e "$pkglibdir/ulid.so" ] || fail "dpkg -r left ulid.so behind"
fi
echo "package: $(basename "$deb") installed with dpkg ($(dpkg-deb --contents "$deb" | grep -c -v '/$') files), CREATE EXTENSION and a smoke query passed"
echo "  ok"
