#!/usr/bin/env bash
# gen_ulidflake() across a server restart. Its state (the last id handed out) lives in shared
# memory and starts empty when the server starts, so the first ids after a restart come from the
# clock alone: they must still be greater than every id made before the restart (the clock was
# not set back). A burst of ids fills the last milliseconds before the restart, and ids made at
# once after it must sort after all of them. Starts its own cluster.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
export PGOPTIONS="-c client_min_messages=warning"

cluster_start R "shared_preload_libraries = 'ulid'"
q() { psql -X -q -At -v ON_ERROR_STOP=1 -h "$R_HOST" -p "$R_PORT" -U postgres -d postgres "$@"; }
q -c "CREATE EXTENSION ulid" -c "CREATE TABLE ids (run int, n int, id ulidflake)"
for run in 1 2 3; do
    q -c "INSERT INTO ids SELECT $run, n, gen_ulidflake() FROM generate_series(1, 50000) AS n"
    cluster_restart "$R_DIR"
done
q -c "INSERT INTO ids SELECT 4, n, gen_ulidflake() FROM generate_series(1, 50000) AS n"
result=$(q -F ' ' <<'SQL'
SELECT count(*), count(DISTINCT id),
       (SELECT count(*) FROM generate_series(2, 4) AS r
        WHERE (SELECT min(id) FROM ids WHERE run = r) > (SELECT max(id) FROM ids WHERE run < r)),
       (SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY run, n) AS prev FROM ids) s WHERE id <= prev)
FROM ids;
SQL
)
read -r rows distinct after_restarts out_of_order <<<"$result"
echo "restarts: 4 runs of 50000 gen_ulidflake() ids with a server restart between runs: $rows ids, $distinct distinct, $out_of_order out of order; the first id after each of the 3 restarts above every earlier one: $after_restarts of 3"
[ "$rows" = 200000 ] && [ "$distinct" = 200000 ] && [ "$after_restarts" = 3 ] && [ "$out_of_order" = 0 ] \
    || fail "gen_ulidflake() across restarts"
echo "  ok"
