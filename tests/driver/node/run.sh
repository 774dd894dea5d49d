#!/usr/bin/env bash
# The node-postgres client-driver test (pg.test.mjs) against the server that PGHOST, PGPORT and
# PGUSER point at (the caller starts it), on the pinned Node.js that scripts/lib.sh installs
# (ensure_node). Installs the pinned dependencies of package-lock.json
# with `npm ci` into target/driver-node (gitignored, outside the source tree) once, and again
# only when package.json or package-lock.json change; the test file is copied there so that its
# `import pg from 'pg'` resolves to that node_modules (ES modules ignore NODE_PATH).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../../../scripts/lib.sh"
cache=$REPO_ROOT/target/driver-node
ensure_node
: "${PGHOST:?set PGHOST (and PGPORT, PGUSER) to the server to test}"

stamp=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$cache/.installed" 2>/dev/null)" != "$stamp" ] || [ ! -f "$cache/node_modules/pg/package.json" ]; then
    echo "==> installing node-postgres (npm ci) into $cache" >&2
    mkdir -p "$cache"
    rm -f "$cache/.installed"
    cp "$here/package.json" "$here/package-lock.json" "$cache/"
    npm ci --prefix "$cache" --no-audit --no-fund --loglevel=error >&2
    echo "$stamp" >"$cache/.installed"
fi

cp "$here/pg.test.mjs" "$cache/pg.test.mjs"
exec node "$cache/pg.test.mjs"
