#!/usr/bin/env bash
# The Debian package installs and works without the build tree: remove every file of the
# extension from PostgreSQL's directories, install target/debian/*.deb with dpkg, start a fresh
# cluster, CREATE EXTENSION and run a smoke query; then remove the package again.
# Run after scripts/package.sh, as root (or with sudo).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"
cd "$REPO_ROOT"

fail() { echo "FAIL: $*" >&2; exit 1; }
version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" ulid.control)
deb=$(ls target/debian/postgresql-$PG_MAJOR-ulid_"$version"-1_*.deb)
pkglibdir=$("$PG_CONFIG" --pkglibdir)
extdir=$("$PG_CONFIG" --sharedir)/extension

# Not from the build tree: nothing of ulid is left before the package goes in.
as_root dpkg -r postgresql-$PG_MAJOR-ulid >/dev/null 2>&1 || true
as_root rm -f "$pkglibdir/ulid.so" "$extdir"/ulid.control "$extdir"/ulid--*.sql
as_root dpkg -i "$deb" >/tmp/ulid-dpkg.log 2>&1 || { cat /tmp/ulid-dpkg.log >&2; fail "dpkg -i failed"; }
owner=$(dpkg -S "$pkglibdir/ulid.so" | cut -d: -f1)
[ "$owner" = "postgresql-$PG_MAJOR-ulid" ] || fail "ulid.so is not from the package ($owner)"

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
as_root dpkg -r postgresql-$PG_MAJOR-ulid >/tmp/ulid-dpkg.log 2>&1 || { cat /tmp/ulid-dpkg.log >&2; fail "dpkg -r failed"; }
[ ! -e "$pkglibdir/ulid.so" ] || fail "dpkg -r left ulid.so behind"
echo "package: $(basename "$deb") installed with dpkg ($(dpkg-deb --contents "$deb" | grep -c -v '/$') files), CREATE EXTENSION and a smoke query passed, removed again"
echo "  ok"
