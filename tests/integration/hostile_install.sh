#!/usr/bin/env bash
# Installing and updating the extension, and installing the portable edition, where a hostile
# role got there first. Role mallory (no privileges beyond CREATE on schema public, which every
# role has on PostgreSQL 14) plants objects; alice owns the database and installs. Each install
# either fails cleanly (nothing of it is left) or installs untouched: every object of the
# extension is the same as in a clean install (tests/integration/fingerprint.sql: markings,
# bodies, owners, schemas) and none is owned by, or depends on, anything of mallory's or in a
# pg_temp schema.
#   1. pg_temp objects shadowing names the install script uses (types uuid, bytea, timestamptz,
#      ulid; functions uuid_send, uuid_cmp): the install ignores them.
#   2. Planted before CREATE EXTENSION in the target schema: a function and a type with the
#      extension's names (the install fails cleanly), an operator and functions on core types
#      (installs untouched).
#   3. Planted before ALTER EXTENSION ulid UPDATE from 0.2.0: a function the update creates (the
#      update fails cleanly, the extension stays at 0.2.0 and works; once the planted function
#      is gone the update succeeds), and an operator on ulid (the update succeeds untouched).
#   4. The extension's schema owned by another role: CREATE EXTENSION (by alice or a superuser)
#      is refused, and so is an update once the schema is given to another role.
#   5. The portable edition over a planted function: refused before creating anything, the
#      planted function still mallory's with its body; installed again by its owner: refused.
# Starts its own cluster.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"

cluster_start I "shared_preload_libraries = 'ulid'"
q() { psql -X -q -At -v ON_ERROR_STOP=1 -h "$I_HOST" -p "$I_PORT" "$@"; }
su() { q -U postgres "$@"; }
# fails WHO DB SQL EXPECTED: the statement must fail with EXPECTED in its error.
fails() {
    local out
    if out=$(q -U "$1" -d "$2" -c "$3" 2>&1); then fail "expected an error from: $3"; fi
    grep -qF -- "$4" <<<"$out" || fail "$3: expected '$4', got: $out"
}
fingerprint=$(cat "$REPO_ROOT/tests/integration/fingerprint.sql")
# No object of the extension owned by mallory, or depending on her objects or on pg_temp ones.
clean_members="
WITH members AS (SELECT classid, objid FROM pg_depend WHERE deptype = 'e'
                 AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid'))
SELECT count(*) FROM pg_depend d JOIN members m ON (d.classid, d.objid) = (m.classid, m.objid)
WHERE d.deptype <> 'e' AND (
      (d.refclassid = 'pg_proc'::regclass AND (SELECT pg_get_userbyid(proowner) = 'mallory' OR pronamespace::regnamespace::text LIKE 'pg\_temp%'
                                               FROM pg_proc WHERE oid = d.refobjid))
   OR (d.refclassid = 'pg_type'::regclass AND (SELECT pg_get_userbyid(typowner) = 'mallory' OR typnamespace::regnamespace::text LIKE 'pg\_temp%'
                                               FROM pg_type WHERE oid = d.refobjid))
   OR (d.refclassid = 'pg_operator'::regclass AND (SELECT pg_get_userbyid(oprowner) = 'mallory' FROM pg_operator WHERE oid = d.refobjid)))"

su -d postgres -c "CREATE ROLE mallory LOGIN" -c "CREATE ROLE alice LOGIN" \
    -c "CREATE DATABASE ulid_clean OWNER alice" -c "CREATE DATABASE ulid_hostile OWNER alice"
for db in ulid_clean ulid_hostile; do
    su -d "$db" -c "GRANT CREATE ON SCHEMA public TO mallory"
done
q -U alice -d ulid_clean -c "CREATE EXTENSION ulid"
clean=$(su -d ulid_clean -c "$fingerprint")
# installed DB: the extension in DB is a clean install, untouched by mallory.
installed() {
    [ "$(su -d "$1" -c "$fingerprint")" = "$clean" ] \
        || { diff <(echo "$clean") <(su -d "$1" -c "$fingerprint") >&2; fail "$2: the extension differs from a clean install"; }
    [ "$(su -d "$1" -c "$clean_members")" = 0 ] || fail "$2: an object of the extension depends on mallory's or on pg_temp"
}
# unplant DB: mallory's objects dropped (DROP OWNED also takes her CREATE on public: given back).
unplant() {
    su -d "$1" -c "DROP OWNED BY mallory" -c "GRANT CREATE ON SCHEMA public TO mallory"
}
# nothing_left DB: a failed install left no trace.
nothing_left() {
    [ "$(su -d "$1" -c "SELECT count(*) FROM pg_extension WHERE extname = 'ulid'")" = 0 ] \
        && [ "$(su -d "$1" -c "SELECT count(*) FROM pg_proc WHERE proname = 'ulid_in'")" = 0 ] \
        || fail "$2: a failed install left objects behind"
}

# 1. pg_temp shadows, in the installing session.
q -U alice -d ulid_hostile <<'SQL'
CREATE FUNCTION pg_temp.uuid_send(pg_catalog.uuid) RETURNS pg_catalog.bytea LANGUAGE sql AS $$ SELECT '\x00'::pg_catalog.bytea $$;
CREATE FUNCTION pg_temp.uuid_cmp(pg_catalog.uuid, pg_catalog.uuid) RETURNS int LANGUAGE sql AS $$ SELECT 0 $$;
CREATE TYPE pg_temp.uuid AS (planted int);
CREATE TYPE pg_temp.bytea AS (planted int);
CREATE TYPE pg_temp.timestamptz AS (planted int);
CREATE TYPE pg_temp.ulid AS (planted int);
SET search_path = pg_temp, public;
CREATE EXTENSION ulid SCHEMA public;
SQL
installed ulid_hostile "pg_temp shadows"
su -d ulid_hostile -c "DROP EXTENSION ulid"
echo "hostile installs: pg_temp types and functions named like those the install script uses: ignored"

# 2. Planted before CREATE EXTENSION.
planted_name() {  # planted_name SQL: mallory plants SQL, alice's install fails, nothing left
    q -U mallory -d ulid_hostile -c "$1"
    fails alice ulid_hostile "CREATE EXTENSION ulid" "already exists"
    nothing_left ulid_hostile "after $1"
    unplant ulid_hostile
}
planted_name "CREATE FUNCTION public.gen_ulid() RETURNS uuid LANGUAGE sql AS 'SELECT gen_random_uuid()'"
planted_name "CREATE TYPE public.ulidflake AS (planted int)"
planted_name "CREATE FUNCTION public.ulid_is_valid(text) RETURNS boolean LANGUAGE sql AS 'SELECT true'"
q -U mallory -d ulid_hostile <<'SQL'
CREATE FUNCTION public.uuid_cmp(uuid, uuid) RETURNS int LANGUAGE sql AS 'SELECT 0';
CREATE FUNCTION public.uuid_eq(uuid, uuid) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE FUNCTION public.planted_eq(bytea, text) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR public.= (LEFTARG = bytea, RIGHTARG = text, FUNCTION = public.planted_eq);
CREATE FUNCTION public.timestamptz(text) RETURNS timestamptz LANGUAGE sql AS 'SELECT now()';
SQL
q -U alice -d ulid_hostile -c "CREATE EXTENSION ulid"
installed ulid_hostile "functions and an operator on core types planted first"
fails mallory ulid_hostile "CREATE CAST (ulid AS text) WITH INOUT" "must be owner of type ulid or type text"
fails mallory ulid_hostile "CREATE OR REPLACE FUNCTION public.gen_ulid() RETURNS ulid LANGUAGE sql AS 'SELECT NULL::ulid'" "must be owner of function gen_ulid"
su -d ulid_hostile -c "DROP EXTENSION ulid"
unplant ulid_hostile
echo "  planted first: a function and a type with the extension's names (install fails cleanly), functions and an operator on core types (installs untouched)"

# 3. Planted before ALTER EXTENSION ulid UPDATE from 0.2.0.
extdir="$("$PG_CONFIG" --sharedir)/extension"
as_root cp "$REPO_ROOT/sql/ulid--0.2.0.sql" "$extdir/"
q -U alice -d ulid_hostile -c "CREATE EXTENSION ulid VERSION '0.2.0'" -c "CREATE TABLE t (id ulid DEFAULT gen_ulid())" \
    -c "INSERT INTO t DEFAULT VALUES"
q -U mallory -d ulid_hostile <<'SQL'
CREATE FUNCTION public.ulid_randomness(ulid) RETURNS numeric LANGUAGE sql AS 'SELECT 42';
CREATE FUNCTION public.planted_eq(ulid, text) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR public.= (LEFTARG = ulid, RIGHTARG = text, FUNCTION = public.planted_eq);
SQL
fails alice ulid_hostile "ALTER EXTENSION ulid UPDATE" "function \"ulid_randomness\" already exists"
[ "$(su -d ulid_hostile -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")" = 0.2.0 ] \
    || fail "a failed update changed the version"
[ "$(su -d ulid_hostile -c "SELECT pg_get_userbyid(proowner) || ' ' || prosrc FROM pg_proc WHERE proname = 'ulid_randomness'")" = "mallory SELECT 42" ] \
    || fail "the planted function changed"
[ "$(q -U alice -d ulid_hostile -c "INSERT INTO t DEFAULT VALUES RETURNING length(id::text)")" = 26 ] \
    || fail "the extension at 0.2.0 does not work after the failed update"
su -d ulid_hostile -c "DROP FUNCTION public.ulid_randomness(ulid)"
q -U alice -d ulid_hostile -c "ALTER EXTENSION ulid UPDATE"
installed ulid_hostile "the update after an operator on ulid was planted"
as_root rm -f "$extdir/ulid--0.2.0.sql"
echo "  planted before the update from 0.2.0: a function it creates (the update fails cleanly, 0.2.0 keeps working; then it succeeds), an operator on ulid (untouched)"

# 4. The extension's schema owned by another role.
su -d ulid_hostile -c "DROP EXTENSION ulid CASCADE"
unplant ulid_hostile
su -d ulid_hostile -c "CREATE SCHEMA theirs AUTHORIZATION mallory"
message='extension "ulid" must not be installed in schema "theirs", which role "mallory" owns'
fails alice ulid_hostile "CREATE EXTENSION ulid SCHEMA theirs" "$message"
fails postgres ulid_hostile "CREATE EXTENSION ulid SCHEMA theirs" "$message"
nothing_left ulid_hostile "a schema owned by another role"
as_root cp "$REPO_ROOT/sql/ulid--0.2.0.sql" "$extdir/"
su -d ulid_hostile -c "CREATE SCHEMA ours" -c "CREATE EXTENSION ulid SCHEMA ours VERSION '0.2.0'"
su -d ulid_hostile -c "ALTER SCHEMA ours OWNER TO mallory"
fails postgres ulid_hostile "ALTER EXTENSION ulid UPDATE" 'must not be installed in schema "ours", which role "mallory" owns'
as_root rm -f "$extdir/ulid--0.2.0.sql"
echo "  a schema owned by another role: CREATE EXTENSION refused (as the database owner and as a superuser), and ALTER EXTENSION UPDATE"

# 5. The portable edition over a planted function.
su -d postgres -c "CREATE DATABASE ulid_portable_hostile OWNER alice"
su -d ulid_portable_hostile -c "GRANT CREATE ON SCHEMA public TO mallory"
q -U mallory -d ulid_portable_hostile -c "CREATE FUNCTION public.ulid_uuid_to_text(uuid) RETURNS text LANGUAGE sql AS 'SELECT current_user::text'"
# By the database owner, and by a superuser (who could replace the body, mallory staying owner).
for installer in alice postgres; do
    out=$(q -U "$installer" -d ulid_portable_hostile -f "$REPO_ROOT/portable/ulid_portable.sql" 2>&1) \
        && fail "the portable edition installed over a planted function (as $installer)"
    grep -qF 'function ulid_uuid_to_text(uuid) already exists in schema "public" and belongs to role "mallory"' <<<"$out" \
        || fail "the portable edition over a planted function, as $installer: $out"
done
[ "$(su -d ulid_portable_hostile -c "SELECT count(*) FROM pg_proc WHERE proname LIKE '%ulid_uuid%' OR proname = 'gen_ulid_uuid'")" = 1 ] \
    && [ "$(su -d ulid_portable_hostile -c "SELECT pg_get_userbyid(proowner) || ' ' || prosrc FROM pg_proc WHERE proname = 'ulid_uuid_to_text'")" = "mallory SELECT current_user::text" ] \
    || fail "the refused portable install created or changed functions"
q -U alice -d ulid_portable_hostile -c "CREATE SCHEMA ids" -c "SET search_path = ids" -f "$REPO_ROOT/portable/ulid_portable.sql"
out=$(q -U alice -d ulid_portable_hostile -c "SET search_path = ids" -f "$REPO_ROOT/portable/ulid_portable.sql" 2>&1) \
    && fail "the portable edition installed twice"
grep -qF 'ulid_portable.sql is already installed in schema "ids"' <<<"$out" || fail "a second install: $out"
echo "  the portable edition over mallory's function (by the database owner, by a superuser): refused, nothing created, hers unchanged; a second install by its owner: refused"
echo "  ok"
