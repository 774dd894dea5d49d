#!/usr/bin/env bash
# The Python drivers' tests: psycopg 3 (psycopg_test.py) and asyncpg (asyncpg_test.py), pinned in
# requirements.txt and installed once into target/venv. Needs PGHOST, PGPORT and PGUSER set (a
# server with the extension installed; the caller starts it).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../../../scripts/lib.sh"

venv=$REPO_ROOT/target/venv
if ! command -v python3 >/dev/null || ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    ensure_packages python3 python3-venv
fi
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
# Reinstall only when the pins changed.
if ! cmp -s "$here/requirements.txt" "$venv/requirements.txt"; then
    log "installing the Python drivers into $venv"
    "$venv/bin/pip" install -q -r "$here/requirements.txt"
    cp "$here/requirements.txt" "$venv/requirements.txt"
fi
"$venv/bin/python" "$here/psycopg_test.py"
"$venv/bin/python" "$here/asyncpg_test.py"
