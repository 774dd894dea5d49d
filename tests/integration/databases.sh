#!/usr/bin/env bash
# The generators that share a sequence between sessions keep one per database: a database's ids
# tell nothing about another's. Starts its own cluster, with room for 3 databases
# (ulid.max_databases = 3).
#   1. Two databases generate 300,000 ids each with gen_server_monotonic_ulid() and
#      gen_ulidflake(), at the same time. Within a millisecond each one's ids step as if it were
#      alone: ulids by exactly 1, ulidflakes by 1..255 (with one state for the server, the other
#      database's ids filled the gaps: 154,322 of 300,000 sat between two consecutive ids). No
#      ulid of one database falls between two consecutive ulids of the other in a millisecond.
#   2. A fourth database finds every slot taken: both generators fail with 53400 and a hint;
#      once one of the others is dropped, its slot is freed and the fourth one generates. The
#      first database's ids increase through all of it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"

cluster_start D "shared_preload_libraries = 'ulid'" "ulid.max_databases = 3"
q() { psql -X -q -At -v ON_ERROR_STOP=1 -h "$D_HOST" -p "$D_PORT" -U postgres "$@"; }
for db in a b c d; do
    q -d postgres -c "CREATE DATABASE ulid_db_$db"
    q -d "ulid_db_$db" -c "CREATE EXTENSION ulid" \
        -c "CREATE TABLE ids (n bigint, id ulid, flake ulidflake)"
done
q -d ulid_db_a -c "CREATE EXTENSION dblink"

# 1. At the same time, in two databases.
generate="INSERT INTO ids SELECT n, gen_server_monotonic_ulid(), gen_ulidflake() FROM generate_series(1, 300000) AS n"
q -d ulid_db_a -c "$generate" &
q -d ulid_db_b -c "$generate" &
wait
conn="host=$D_HOST port=$D_PORT user=postgres dbname=ulid_db_b"
result=$(q -d ulid_db_a -F ' ' <<SQL
CREATE TABLE b_ids AS SELECT * FROM dblink('$conn', 'SELECT n, id, flake FROM ids') AS t(n bigint, id ulid, flake ulidflake);
-- Steps within a millisecond between consecutive ids of one database (in the order made) that
-- are not what it would have made alone: exactly 1 for ulids, 1..255 for ulidflakes.
CREATE VIEW steps AS
SELECT ulid_timestamp(id) = ulid_timestamp(next_id) AND ulid_randomness(next_id) - ulid_randomness(id) <> 1 AS odd_ulid,
       ulidflake_timestamp(flake) = ulidflake_timestamp(next_flake)
           AND next_flake::bigint - flake::bigint NOT BETWEEN 1 AND 255 AS odd_flake
FROM (SELECT id, lead(id) OVER (ORDER BY n) AS next_id, flake, lead(flake) OVER (ORDER BY n) AS next_flake FROM ids
      UNION ALL
      SELECT id, lead(id) OVER (ORDER BY n), flake, lead(flake) OVER (ORDER BY n) FROM b_ids) AS s;
-- The ulids of one database that sit between two consecutive ulids of the other in the same
-- millisecond: in both sets sorted together, the other's nearest ids below and above it.
CREATE VIEW between_other AS
SELECT count(*) FILTER (WHERE ulid_timestamp(below) = ulid_timestamp(above)) AS ids
FROM (SELECT src, max(CASE WHEN src = 'a' THEN id END) OVER up AS below_a, min(CASE WHEN src = 'a' THEN id END) OVER down AS above_a,
             max(CASE WHEN src = 'b' THEN id END) OVER up AS below_b, min(CASE WHEN src = 'b' THEN id END) OVER down AS above_b
      FROM (SELECT 'a' AS src, id FROM ids UNION ALL SELECT 'b', id FROM b_ids) AS u
      WINDOW up AS (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
             down AS (ORDER BY id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)) AS s,
     LATERAL (VALUES (CASE WHEN src = 'b' THEN below_a ELSE below_b END, CASE WHEN src = 'b' THEN above_a ELSE above_b END)) AS o(below, above);
SELECT (SELECT count(*) FROM ids), (SELECT count(*) FROM b_ids),
       (SELECT count(*) FILTER (WHERE odd_ulid) FROM steps), (SELECT count(*) FILTER (WHERE odd_flake) FROM steps),
       (SELECT ids FROM between_other),
       (SELECT count(*) FROM (SELECT DISTINCT ulid_timestamp(id) FROM ids) x JOIN (SELECT DISTINCT ulid_timestamp(id) FROM b_ids) y USING (ulid_timestamp));
SQL
)
read -r a_rows b_rows ulid_steps flake_steps between same_ms <<<"$result"
echo "databases: 2 x 300000 ids made at once, in $same_ms milliseconds of both: $ulid_steps ulid and $flake_steps ulidflake steps within a millisecond not as if alone; $between ulids of one between two consecutive ulids of the other"
[ "$a_rows" = 300000 ] && [ "$b_rows" = 300000 ] || fail "rows: $a_rows and $b_rows"
[ "$same_ms" -gt 100 ] || fail "the two databases hardly generated in the same milliseconds ($same_ms): the check proves nothing"
[ "$ulid_steps" = 0 ] && [ "$flake_steps" = 0 ] && [ "$between" = 0 ] || fail "one database's ids depend on the other's"

# 2. More databases than slots: a and b hold two, c takes the third, d finds none.
q -d ulid_db_c -c "SELECT gen_ulidflake()" >/dev/null
before_full=$(q -d ulid_db_a -c "INSERT INTO ids SELECT 400000 + n, gen_server_monotonic_ulid(), gen_ulidflake() FROM generate_series(1, 1000) AS n RETURNING 1" | wc -l)
for function in "gen_server_monotonic_ulid()" "gen_ulidflake()"; do
    error=$(psql -X -q -At -h "$D_HOST" -p "$D_PORT" -U postgres -d ulid_db_d -c "\\set VERBOSITY verbose" -c "SELECT $function" 2>&1 || true)
    grep -q "ERROR:  53400: $function: all 3 slots of ulid.max_databases are taken by other databases" <<<"$error" \
        && grep -q "HINT:  Raise ulid.max_databases in postgresql.conf and restart the server." <<<"$error" \
        || fail "a fourth database, $function: expected 53400 with a hint, got: $error"
done
q -d postgres -c "DROP DATABASE ulid_db_b"
q -d ulid_db_d -c "INSERT INTO ids SELECT n, gen_server_monotonic_ulid(), gen_ulidflake() FROM generate_series(1, 1000) AS n"
q -d ulid_db_a -c "INSERT INTO ids SELECT 500000 + n, gen_server_monotonic_ulid(), gen_ulidflake() FROM generate_series(1, 1000) AS n"
result=$(q -d ulid_db_a -F ' ' -c "
SELECT count(*), count(*) FILTER (WHERE id <= prev_id OR flake <= prev_flake)
FROM (SELECT id, flake, lag(id) OVER (ORDER BY n) AS prev_id, lag(flake) OVER (ORDER BY n) AS prev_flake FROM ids) s")
read -r rows backwards <<<"$result"
d_rows=$(q -d ulid_db_d -c "SELECT count(DISTINCT id) + count(DISTINCT flake) FROM ids")
echo "  a fourth database with 3 slots taken: 53400 and a hint from both generators; after one database was dropped it generated $((d_rows / 2)) ids; the first database's $rows ids: $backwards out of order"
[ "$before_full" = 1000 ] && [ "$rows" = 302000 ] && [ "$backwards" = 0 ] && [ "$d_rows" = 2000 ] \
    || fail "through the full table and the freed slot: $rows rows, $backwards out of order, $d_rows distinct in the fourth database"
echo "  ok"
