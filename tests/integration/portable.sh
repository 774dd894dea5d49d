#!/usr/bin/env bash
# The portable SQL edition (portable/ulid_portable.sql), for databases that cannot install the
# extension. On the server PGHOST/PGPORT/PGUSER point at (a superuser; the extension installed):
#   1. a role that is not a superuser installs the file into a schema of its own, in a database
#      without the extension; a second run is refused before it changes anything;
#   2. there, 100,000 generated ids are distinct, carry the millisecond of the clock when they
#      were made, and have 80 random bits (each bit set in about half of them);
#   3. two tables keyed by uuid (one referencing the other) are filled by the portable
#      generator; then the extension is created in the same database (both live side by side),
#      the columns become ulid as the README says, with no rewrite and no byte changed, and
#      every id reads as the same text and timestamp as before;
#   4. every conformance vector held (the ULID spec's and the seed articles' examples, the
#      smallest and largest ULID, and the pgx_ulid 0.2.2 fixture's ids with the uuids pgx_ulid
#      made of them), and 100,000 ids from gen_ulid(), go through the portable functions and
#      the extension's type with identical text, bytes and timestamp;
#   5. bad text input, a fixed list and 20,000 random strings and mutated ids, gets exactly the
#      SQLSTATE and message of ulid_in, in UTF-8, LATIN1 and SQL_ASCII databases; instants out
#      of range get the same error as the cast to ulid.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning" PGCLIENTENCODING=UTF8

portable=$REPO_ROOT/portable/ulid_portable.sql
fixture=$REPO_ROOT/tests/fixtures/pgx_ulid-0.2.2
[ -f "$fixture/dump.sql" ] || fail "no pgx_ulid fixture at $fixture"
owner=ulid_portable_owner
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
outcome=$REPO_ROOT/tests/integration/portable_outcome.sql
# expect DB LABEL SQL: the query must print exactly "t". pg_temp.outcome(EXPRESSION) is there
# (portable_outcome.sql): 'ok', or the SQLSTATE, message and hint of the error.
expect() {
    local got
    got=$(q -d "$1" -f "$outcome" -c "$3") || fail "$2: the query failed"
    [ "$got" = t ] || fail "$2: got $got"
}

q -d postgres -c "DROP DATABASE IF EXISTS ulid_portable" -c "DROP DATABASE IF EXISTS ulid_portable_latin1" \
    -c "DROP DATABASE IF EXISTS ulid_portable_sql_ascii" -c "DROP ROLE IF EXISTS $owner" \
    -c "CREATE ROLE $owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE" \
    -c "CREATE DATABASE ulid_portable OWNER $owner" \
    -c "CREATE DATABASE ulid_portable_latin1 OWNER $owner ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0" \
    -c "CREATE DATABASE ulid_portable_sql_ascii OWNER $owner ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0"

# 1. The install a user without superuser rights types, into schema ids, and into the first
#    schema of the search_path of the other databases. A second run stops at its first
#    statement, saying so, and changes nothing.
q -U "$owner" -d ulid_portable -c "CREATE SCHEMA ids" -c "SET search_path = ids" -f "$portable"
again=$(q -U "$owner" -d ulid_portable -c "SET search_path = ids" -f "$portable" 2>&1) && fail "a second install succeeded"
grep -qF 'ulid_portable.sql is already installed in schema "ids": function gen_ulid_uuid() exists' <<<"$again" \
    || fail "a second install: $again"
for db in ulid_portable_latin1 ulid_portable_sql_ascii; do
    q -U "$owner" -d "$db" -f "$portable"
done
expect ulid_portable "installed as a non-superuser, without the extension" "
SELECT count(*) = 5
       AND bool_and(pg_get_userbyid(p.proowner) = '$owner')
       AND bool_and(p.proconfig = '{\"search_path=pg_catalog, pg_temp\"}')
       AND bool_and(p.proparallel = 's')
       AND count(*) FILTER (WHERE p.provolatile = 'v' AND p.proname = 'gen_ulid_uuid') = 2
       AND count(*) FILTER (WHERE p.provolatile = 'i' AND p.proisstrict) = 3
       AND NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'ulid')
       AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = '$owner')
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'ids'"
# A schema earlier in the search_path cannot change what the functions do: this one shadows
# functions and an operator that they use.
q -d ulid_portable <<'SQL'
CREATE SCHEMA shadow;
CREATE FUNCTION shadow.lpad(text, integer, text) RETURNS text LANGUAGE sql AS $$ SELECT 'shadowed' $$;
CREATE FUNCTION shadow.substr(text, integer, integer) RETURNS text LANGUAGE sql AS $$ SELECT 'shadowed' $$;
CREATE FUNCTION shadow.textcat(text, text) RETURNS text LANGUAGE sql AS $$ SELECT 'shadowed' $$;
CREATE OPERATOR shadow.|| (LEFTARG = text, RIGHTARG = text, FUNCTION = shadow.textcat);
SQL
expect ulid_portable "a shadowing schema first in the search_path changes nothing" "
SET search_path = shadow, pg_catalog, ids, public;
SELECT ulid_uuid_to_text(ulid_uuid_from_text('01ARZ3NDEKTSV4RRFFQ69G5FAV')) = '01ARZ3NDEKTSV4RRFFQ69G5FAV'
       AND ulid_uuid_timestamp(gen_ulid_uuid('2025-01-01 00:00:00+00')) = '2025-01-01 00:00:00+00'
       AND 'a' || 'b' = 'shadowed'"

# The caller's collation plays no part: a nondeterministic ICU collation (which regular
# expressions and strpos() refuse) on the input, good and bad, gives what the default one gives.
# Nondeterministic collations need ICU: Debian's servers have it, the pinned PyPI builds of the
# other majors do not.
if ! icu=$(q -d ulid_portable -c "CREATE COLLATION ignore_case (provider = icu, locale = 'und-u-ks-level2', deterministic = false)" 2>&1); then
    grep -q "ICU is not supported in this build" <<<"$icu" || fail "creating an ICU collation: $icu"
    echo "  (this server has no ICU, so no nondeterministic collation: the collation check runs on PostgreSQL 15)"
else
expect ulid_portable "text input in a nondeterministic collation" "
SET search_path = ids, public;
SELECT ulid_uuid_from_text('01ARZ3NDEKTSV4RRFFQ69G5FAV' COLLATE ignore_case) = ulid_uuid_from_text('01ARZ3NDEKTSV4RRFFQ69G5FAV')
       AND ulid_uuid_from_text('01arz3ndektsv4rrffq69g5fav' COLLATE ignore_case) = ulid_uuid_from_text('01ARZ3NDEKTSV4RRFFQ69G5FAV')
       AND pg_temp.outcome('ids.ulid_uuid_from_text(''01ARZ3NDEKTSV4RRFFQ69G5FAU'' COLLATE ignore_case)')
           = pg_temp.outcome('ids.ulid_uuid_from_text(''01ARZ3NDEKTSV4RRFFQ69G5FAU'')')
       AND pg_temp.outcome('ids.ulid_uuid_from_text(''01ARZ3NDEKTSV4RRFFQ69G5FAU'')') LIKE '22P02 %position 26%'"
echo "  text input in a nondeterministic ICU collation: as in the default one"
fi

# 2. Generation, before the extension exists: distinct ids, the clock's millisecond, random bits.
expect ulid_portable "100,000 generated ids" "
SET search_path = ids;
CREATE TEMP TABLE made AS
SELECT clock_timestamp() AS before, gen_ulid_uuid() AS id, clock_timestamp() AS after
FROM generate_series(1, 100000);
CREATE TEMP TABLE bits AS SELECT ('x' || replace(id::text, '-', ''))::bit(128) AS b FROM made;
SELECT (SELECT count(DISTINCT id) = 100000 FROM made)
       AND (SELECT bool_and(ulid_uuid_timestamp(id) BETWEEN date_trunc('milliseconds', before) AND after) FROM made)
       AND (SELECT count(*) = 0 FROM (SELECT k, sum(get_bit(b, k)) AS ones FROM bits, generate_series(48, 127) AS k
                                      GROUP BY k) AS s WHERE ones NOT BETWEEN 48000 AND 52000)"

# 3. Migration: a uuid column filled by the portable generator becomes ulid.
q -U "$owner" -d ulid_portable <<'SQL'
CREATE TABLE orders (
    id     uuid PRIMARY KEY DEFAULT ids.gen_ulid_uuid(),
    placed timestamptz NOT NULL DEFAULT clock_timestamp(),
    note   text
);
CREATE INDEX orders_placed ON orders ((ids.ulid_uuid_timestamp(id)));
CREATE TABLE order_lines (
    id       uuid PRIMARY KEY DEFAULT ids.gen_ulid_uuid(),
    order_id uuid NOT NULL REFERENCES orders
);
INSERT INTO orders (note) SELECT 'order ' || n FROM generate_series(1, 10000) AS n;
INSERT INTO orders (id, placed, note)
SELECT ids.gen_ulid_uuid(t), t, 'back-dated' FROM generate_series(1, 1000) AS n,
       LATERAL (SELECT timestamptz '1970-01-01 00:00:00+00' + random() * interval '100 years' + n * interval '1 ms') AS t(t);
INSERT INTO order_lines (order_id) SELECT id FROM orders, generate_series(1, 2);
CREATE TABLE lines_before AS SELECT id, order_id FROM order_lines;
CREATE TABLE orders_before AS
SELECT id, uuid_send(id) AS bytes, ids.ulid_uuid_to_text(id) AS text, ids.ulid_uuid_timestamp(id) AS at, placed
FROM orders;
SQL
expect ulid_portable "the portable ids before the move" "
SELECT count(*) = 11000
       AND bool_and(b.at = date_trunc('milliseconds', b.placed)) FILTER (WHERE o.note = 'back-dated')
       AND bool_and(b.at <= b.placed AND b.at > b.placed - interval '1 second') FILTER (WHERE o.note <> 'back-dated')
FROM orders_before b JOIN orders o USING (id)"
relfiles=$(q -d ulid_portable -c "SELECT array[pg_relation_filenode('orders'), pg_relation_filenode('order_lines')]")
q -d ulid_portable -c "CREATE EXTENSION ulid"
# Both in one database: the portable functions keep working beside the extension's.
expect ulid_portable "portable functions and the extension side by side" "
SELECT ids.ulid_uuid_to_text(u::uuid) = u::text AND ids.ulid_uuid_from_text(u::text) = u::uuid
       AND ids.ulid_uuid_timestamp(p) = p::ulid::timestamptz
       AND p::ulid::timestamptz BETWEEN date_trunc('milliseconds', now()) AND clock_timestamp()
FROM (SELECT gen_ulid() AS u, ids.gen_ulid_uuid() AS p) AS g"
# The README's steps: a foreign key between uuid and ulid cannot exist, so it goes and comes back;
# an index on ulid_uuid_timestamp(id) is made again on id::timestamptz.
q -U "$owner" -d ulid_portable <<'SQL'
BEGIN;
ALTER TABLE order_lines DROP CONSTRAINT order_lines_order_id_fkey;
DROP INDEX orders_placed;
ALTER TABLE orders ALTER COLUMN id SET DEFAULT gen_ulid(), ALTER COLUMN id TYPE ulid;
ALTER TABLE order_lines ALTER COLUMN id SET DEFAULT gen_ulid(), ALTER COLUMN id TYPE ulid,
                        ALTER COLUMN order_id TYPE ulid;
ALTER TABLE order_lines ADD FOREIGN KEY (order_id) REFERENCES orders;
CREATE INDEX orders_placed ON orders ((id::timestamptz));
COMMIT;
SQL
expect ulid_portable "the move to ulid rewrote no table and changed no byte" "
SELECT array[pg_relation_filenode('orders'), pg_relation_filenode('order_lines')] = '$relfiles'
       AND (SELECT count(*) = 3 FROM pg_attribute WHERE atttypid = 'ulid'::regtype
                                                    AND attrelid IN ('orders'::regclass, 'order_lines'::regclass))
       AND count(*) = 11000
       AND bool_and(ulid_send(o.id) = b.bytes AND o.id::text = b.text AND o.id::timestamptz = b.at)
       AND (SELECT count(*) = 22000 FROM order_lines l JOIN lines_before b ON b.id = l.id::uuid AND b.order_id = l.order_id::uuid)
FROM orders o JOIN orders_before b ON b.id = o.id::uuid"
expect ulid_portable "new rows after the move" "
INSERT INTO orders (note) VALUES ('after the move');
SELECT id::timestamptz > now() - interval '1 minute' FROM orders WHERE note = 'after the move'"

# 4. Conformance vectors: through the portable functions and through the type, identical.
# The texts: the ULID spec's examples and those of the articles (tests/fixtures/spec-vectors), the
# smallest and largest ULID; the pgx_ulid fixture's ulids (users, orders) and its audit table's
# (event_id uuid, order_id ulid) pairs, made by pgx_ulid's own cast.
vectors=$(mktemp /tmp/ulid-portable-vectors.XXXXXX)
pairs=$(mktemp /tmp/ulid-portable-pairs.XXXXXX)
cleanup_path "$vectors"
cleanup_path "$pairs"
cut -f1 "$REPO_ROOT/tests/fixtures/spec-vectors/ulids.tsv" >"$vectors"
[ "$(wc -l <"$vectors")" -eq 19 ] || fail "expected the 19 ULIDs of tests/fixtures/spec-vectors/ulids.tsv, found $(wc -l <"$vectors")"
echo 00000000000000000000000000 >>"$vectors"
awk '/^COPY public\.(users|orders) /{copy=1; next} /^\\\.$/{copy=0} copy {print $1}' "$fixture/dump.sql" >>"$vectors"
awk '/^COPY public\.audit /{copy=1; next} /^\\\.$/{copy=0} copy {print $1 "\t" $2}' "$fixture/dump.sql" >"$pairs"
[ "$(wc -l <"$pairs")" -eq 500 ] || fail "expected 500 audit rows in the fixture, found $(wc -l <"$pairs")"
chmod 644 "$vectors" "$pairs"
count=$(wc -l <"$vectors")
q -d ulid_portable -c "CREATE TABLE vectors (t text)" -c "\\copy vectors FROM '$vectors'" \
    -c "CREATE TABLE pgx_pairs (event_id uuid, order_id text)" -c "\\copy pgx_pairs FROM '$pairs'"
expect ulid_portable "$count conformance vectors, as given and in lower case" "
SET search_path = ids, public;
SELECT count(*) = 2 * $count
       AND bool_and(uuid_send(ulid_uuid_from_text(t)) = ulid_send(t::ulid))
       AND bool_and(ulid_uuid_to_text(ulid_uuid_from_text(t)) = t::ulid::text)
       AND bool_and(ulid_uuid_to_text(t::ulid::uuid) = upper(t))
       AND bool_and(ulid_uuid_timestamp(ulid_uuid_from_text(t)) = t::ulid::timestamptz)
       AND bool_and(left(ulid_uuid_to_text(gen_ulid_uuid(t::ulid::timestamptz)), 10) = left(upper(t), 10))
FROM (SELECT t FROM vectors UNION ALL SELECT lower(t) FROM vectors) AS v"
# 01ARZ3NDEK decoded by hand is 1469922850259; the seed's worked example gives 01JGFJJZ00 for 2025.
expect ulid_portable "the timestamps of the spec's example, the seed's worked example, the smallest and largest ULID" "
SET search_path = ids;
SELECT ulid_uuid_timestamp(ulid_uuid_from_text('01ARZ3NDEKTSV4RRFFQ69G5FAV')) = '2016-07-30 23:54:10.259+00'
       AND ulid_uuid_timestamp(ulid_uuid_from_text('01JGFJJZ00XHF7E02JJ03AE4T7')) = '2025-01-01 00:00:00+00'
       AND ulid_uuid_timestamp(ulid_uuid_from_text('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')) = '10889-08-02 05:31:50.655+00'
       AND ulid_uuid_timestamp(ulid_uuid_from_text('00000000000000000000000000')) = '1970-01-01 00:00:00+00'"
expect ulid_portable "pgx_ulid's 500 ulid -> uuid conversions" "
SELECT count(*) = 500
       AND bool_and(ids.ulid_uuid_to_text(event_id) = order_id)
       AND bool_and(ids.ulid_uuid_from_text(order_id) = event_id)
FROM pgx_pairs"
expect ulid_portable "100,000 ids of gen_ulid(), now and at random instants over the whole range" "
SET search_path = ids, public;
SELECT count(*) = 100000
       AND bool_and(ulid_uuid_to_text(u::uuid) = u::text)
       AND bool_and(uuid_send(ulid_uuid_from_text(u::text)) = ulid_send(u))
       AND bool_and(ulid_uuid_timestamp(u::uuid) = u::timestamptz)
FROM (SELECT CASE WHEN n % 2 = 0 THEN gen_ulid()
                  ELSE gen_ulid(to_timestamp(0) + random() * (timestamptz '10889-08-02 05:31:50.655+00' - to_timestamp(0)))
             END AS u
      FROM generate_series(1, 100000) AS n) AS g"

# 5. Bad input: the SQLSTATE and message of ulid_in, whatever the database's encoding.
q -d ulid_portable_latin1 -c "CREATE EXTENSION ulid"
q -d ulid_portable_sql_ascii -c "CREATE EXTENSION ulid"
expect ulid_portable "a message word for word" "
SELECT pg_temp.outcome('ids.ulid_uuid_from_text(''01ARZ3NDEKTSV4RRFFQ69G5FAu'')')
       = '22P02 invalid input syntax for type ulid: \"01ARZ3NDEKTSV4RRFFQ69G5FAu\": invalid character \"u\" at position 26 (Crockford base32 has no I, L, O or U)'"
# compare DB SCHEMA EXTRA-CHARACTERS [BYTES]: a fixed list of inputs, 10,000 random strings over
# the Crockford digits, lower case, I L O U, punctuation, controls and EXTRA-CHARACTERS, and
# 10,000 ids with one character replaced; with BYTES (hex byte sequences, for SQL_ASCII, which
# stores what the client sends), also ids with those bytes and 2,000 with random bytes put in.
# Both ways must give the same SQLSTATE and message (or value) for every input.
compare() {
    local db=$1 schema=$2 extra=$3 bytes=${4:-} report
    report=$(q -d "$db" -v schema="$schema" -v extra="$extra" -v bytes="$bytes" -f "$outcome" \
                   -f "$REPO_ROOT/tests/integration/portable_inputs.sql") \
        || fail "$db: the comparison of bad input failed"
    local inputs rejected accepted problems different
    read -r inputs rejected accepted problems different <<<"$(head -1 <<<"$report")"
    echo "  $db: $inputs inputs: $rejected rejected ($problems different problems named), $accepted accepted; $different differ"
    [ "$different" -eq 0 ] || fail "$db: the portable function and ulid_in differ:"$'\n'"$(tail -n +2 <<<"$report")"
    [ "$rejected" -ge 15000 ] && [ "$accepted" -ge 500 ] && [ "$problems" -ge 200 ] \
        || fail "$db: too few inputs of a kind to compare: $rejected rejected, $accepted accepted, $problems problems"
}
compare ulid_portable ids 'é€😀£ÄÿÖ'
compare ulid_portable_latin1 public 'éÄÿÖ£'
compare ulid_portable_sql_ascii public 'é€😀£ÄÿÖ' 'c3 c328 e282 e282ac f09f98 f09f9880 eda080 c0af f4908080 80 ff'

# Instants out of range: the error of the cast to ulid.
expect ulid_portable "instants in and out of range" "
SET search_path = ids, public;
SELECT count(*) = 8
       AND count(*) FILTER (WHERE native = 'ok') = 3
       AND bool_and(native = portable)
       AND bool_and(native LIKE '22008 timestamp out of range for type ulid: %') FILTER (WHERE native <> 'ok')
FROM (SELECT pg_temp.outcome(format('%L::timestamptz::ulid', t)) AS native, pg_temp.outcome(format('gen_ulid_uuid(%L::timestamptz)', t)) AS portable
      FROM unnest(ARRAY['infinity', '-infinity', '1969-12-31 23:59:59.999+00', '10889-08-02 05:31:50.656+00',
                        '294276-12-31 23:59:59+00', '1970-01-01 00:00:00+00', '10889-08-02 05:31:50.655+00',
                        '10889-08-02 05:31:50.655999+00']) AS t) AS o"
expect ulid_portable "NULL in, NULL out" "
SELECT ids.gen_ulid_uuid(NULL) IS NULL AND ids.ulid_uuid_from_text(NULL) IS NULL
       AND ids.ulid_uuid_to_text(NULL) IS NULL AND ids.ulid_uuid_timestamp(NULL) IS NULL"

q -d postgres -c "DROP DATABASE ulid_portable" -c "DROP DATABASE ulid_portable_latin1" \
    -c "DROP DATABASE ulid_portable_sql_ascii" -c "DROP ROLE $owner"
echo "portable SQL edition: installed by a non-superuser; 100,000 ids distinct, of the clock's millisecond, 80 random bits;"
echo "  orders (11,000) and order lines (22,000) moved from uuid to ulid: no rewrite, no byte changed;"
echo "  $count vectors, pgx_ulid's 500 pairs and 100,000 gen_ulid() ids alike;"
echo "  bad input as ulid_in in UTF8, LATIN1 and SQL_ASCII databases"
echo "  ok"
