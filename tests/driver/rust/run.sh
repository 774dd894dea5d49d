#!/usr/bin/env bash
# The Rust client-driver test (src/): tokio-postgres and sqlx against the server that PGHOST
# (a socket directory or a host), PGPORT and PGUSER point at (the caller starts it, with the
# extension installed). Builds with the pinned Cargo.lock into target/driver-rust of the
# repository (gitignored; cargo rebuilds only what changed), then runs the checks.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)

command -v cargo >/dev/null || { echo "run.sh: cargo is needed" >&2; exit 1; }
: "${PGHOST:?set PGHOST (and PGPORT, PGUSER) to the server to test}"
: "${PGPORT:?set PGPORT}"
: "${PGUSER:?set PGUSER}"

export CARGO_TARGET_DIR=$repo/target/driver-rust
[ -x "$CARGO_TARGET_DIR/release/ulid-driver-rust" ] \
    || echo "==> building the Rust driver test into $CARGO_TARGET_DIR (about a minute, once)" >&2
cargo build --release --locked --quiet --manifest-path "$here/Cargo.toml"
exec "$CARGO_TARGET_DIR/release/ulid-driver-rust"
