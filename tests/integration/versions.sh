#!/usr/bin/env bash
# The release is consistent and upgradable:
#   - Cargo.toml, ulid.control, CHANGELOG.md and sql/ulid--<version>.sql name the same version;
#   - the install script this build generates is the committed baseline sql/ulid--<version>.sql
#     (statement for statement; comments aside). A change to the SQL surface after a release
#     needs a new version, an upgrade script sql/ulid--<old>--<new>.sql and a new baseline;
#   - every upgrade script takes a database from the old version to the new one with the same
#     objects as a fresh install (ALTER EXTENSION ulid UPDATE): same functions with the same
#     markings and bodies, types, casts and contexts, operators, operator classes, comments.
# Needs the extension installed and PGHOST/PGPORT/PGUSER set.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"
cd "$REPO_ROOT"

version=$(extension_version)
cargo_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
changelog_version=$(sed -n 's/^## \([0-9][^ ]*\).*/\1/p' CHANGELOG.md | head -1)
[ "$version" = "$cargo_version" ] || fail "ulid.control says $version, Cargo.toml $cargo_version"
[ "$version" = "$changelog_version" ] || fail "ulid.control says $version, CHANGELOG.md's latest entry $changelog_version"
[ -f "sql/ulid--$version.sql" ] || fail "no baseline sql/ulid--$version.sql"
# The release before this one (the CHANGELOG's second entry) must upgrade to it.
previous=$(sed -n 's/^## \([0-9][^ ]*\).*/\1/p' CHANGELOG.md | sed -n 2p)
[ -z "$previous" ] || [ -f "sql/ulid--$previous--$version.sql" ] \
    || fail "no upgrade script sql/ulid--$previous--$version.sql from the previous release"

# Statements only: pgrx's block comments, line comments and blank lines removed.
statements() {
    python3 -c 'import re, sys
text = re.sub(r"/\*.*?\*/", "", open(sys.argv[1]).read(), flags=re.S)
print("\n".join(l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("--")))' "$1"
}
installed="$("$PG_CONFIG" --sharedir)/extension/ulid--$version.sql"
if ! diff -u <(statements "sql/ulid--$version.sql") <(statements "$installed") >/tmp/ulid-baseline.diff; then
    cat /tmp/ulid-baseline.diff >&2
    fail "the generated install script differs from sql/ulid--$version.sql: after a release, a SQL change needs a new version and an upgrade script"
fi
echo "versions: $version everywhere; the generated install script matches sql/ulid--$version.sql ($(statements "sql/ulid--$version.sql" | grep -c ';') statements)"

db=ulid_versions
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
# Everything an upgrade must get right, one line per object (fingerprint.sql).
objects=$(cat "$REPO_ROOT/tests/integration/fingerprint.sql")
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION ulid"
fresh=$(psql -X -q -At -d "$db" -c "$objects")
echo "  a fresh $version: $(wc -l <<<"$fresh") objects fingerprinted (markings, bodies, casts, operators, operator classes)"

upgrades=0
extdir="$("$PG_CONFIG" --sharedir)/extension"
for script in sql/ulid--*--*.sql; do
    [ -e "$script" ] || continue
    from=$(basename "$script" .sql | cut -d- -f3)
    [ -f "sql/ulid--$from.sql" ] || fail "$script has no baseline sql/ulid--$from.sql to start from"
    as_root cp "sql/ulid--$from.sql" "$extdir/"
    # Objects of the old version in use while it is upgraded: a table whose generated column,
    # expression index, default and view use the casts, and rows in it.
    psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "DROP TABLE IF EXISTS in_use CASCADE" -c "DROP EXTENSION ulid CASCADE" \
        -c "CREATE EXTENSION ulid VERSION '$from'"
    psql -X -q -v ON_ERROR_STOP=1 -d "$db" <<'SQL'
CREATE TABLE in_use (id ulid PRIMARY KEY DEFAULT gen_ulid(), at timestamptz GENERATED ALWAYS AS (id::timestamptz) STORED);
CREATE INDEX in_use_at ON in_use ((id::timestamptz));
CREATE VIEW in_use_bytes AS SELECT id::bytea AS bytes, id::uuid AS as_uuid FROM in_use;
INSERT INTO in_use DEFAULT VALUES;
SQL
    psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "ALTER EXTENSION ulid UPDATE"
    upgraded=$(psql -X -q -At -d "$db" -c "$objects")
    [ "$upgraded" = "$fresh" ] || { diff <(echo "$fresh") <(echo "$upgraded") >&2; fail "$from -> $version differs from a fresh install"; }
    in_use=$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" <<'SQL'
INSERT INTO in_use DEFAULT VALUES;
SET enable_seqscan = off;
SELECT count(*) FILTER (WHERE at = id::timestamptz) || ' ' || (SELECT count(*) FROM in_use_bytes WHERE length(bytes) = 16 AND as_uuid = bytes::ulid::uuid)
FROM in_use WHERE id::timestamptz > now() - interval '1 hour';
SQL
)
    [ "$in_use" = "2 2" ] || fail "after the update from $from, the table, index and view that use the casts gave: $in_use"
    [ "$from" = "$version" ] || as_root rm -f "$extdir/ulid--$from.sql"
    echo "  ALTER EXTENSION ulid UPDATE from $from, with a table, index and view using its casts: the same fingerprint as a fresh $version; they still work"
    upgrades=$((upgrades + 1))
done
scripts=$(ls sql/ulid--*--*.sql | wc -l)
[ "$upgrades" -eq "$scripts" ] && { [ -z "$previous" ] || [ "$upgrades" -gt 0 ]; } \
    || fail "$upgrades upgrades tested of $scripts upgrade scripts"
psql -X -q -d postgres -c "DROP DATABASE $db"
echo "  ok"
