//! Real Rust client drivers over the wire: tokio-postgres and sqlx (Postgres, tokio runtime).
//!
//! Both drivers use the binary format for typed parameters and results, and both check a
//! column's type before decoding it (tokio-postgres `FromSql::accepts`, sqlx `Type::compatible`),
//! so neither reads a `ulid` or a `ulidflake` without glue: the recipes (between the
//! `// recipe:begin` and `// recipe:end` markers of tokio_postgres_driver.rs and
//! sqlx_driver.rs, copied verbatim into the README) are that glue, and the checks call them.
//!
//! Checks, against a real server, for each driver: results, parameters in WHERE and INSERT,
//! NULLs both ways, bad ids as parameters (SQLSTATE 22P02 in text, 22P03 in binary) with the
//! connection still usable, text where the driver allows it, and the no-glue alternative (cast
//! in SQL). Run by run.sh with PGHOST (a socket directory or a host), PGPORT and PGUSER set; it
//! creates the database ulid_rust, drops it at the end, and exits non-zero on the first failure.

use std::error::Error;
use std::fmt::Debug;
use std::sync::atomic::{AtomicUsize, Ordering};

mod sqlx_driver;
mod tokio_postgres_driver;

pub const DATABASE: &str = "ulid_rust";

pub const ULID: &str = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
pub const ULID_AS_UUID: &str = "01563e3a-b5d3-d676-4c61-efb99302bd5b";
pub const FLAKE: &str = "00CMXB6TAK4SA";
pub const FLAKE_AS_INT: i64 = 14246757444195114;
pub const LARGEST_ULID: &str = "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"; // u128::MAX
pub const LARGEST_FLAKE: &str = "7ZZZZZZZZZZZZ"; // i64::MAX

// A ulidflake whose text is all digits: read as a decimal number it would be 123, not 1091.
pub const DIGITS_FLAKE: &str = "0000000000123";
pub const DIGITS_FLAKE_AS_INT: i64 = 32 * 32 + 2 * 32 + 3;

pub const BAD_TEXT_ULID: &str = "01ARZ3NDEKTSV4RRFFQ69G5FAU";
pub const BAD_TEXT_ULID_MESSAGE: &str =
    "invalid input syntax for type ulid: \"01ARZ3NDEKTSV4RRFFQ69G5FAU\": \
     invalid character \"U\" at position 26 (Crockford base32 has no I, L, O or U)";
pub const SHORT_TEXT_ULID: &str = "01ARZ3NDEK";
pub const SHORT_TEXT_ULID_MESSAGE: &str =
    "invalid input syntax for type ulid: \"01ARZ3NDEK\": expected 26 characters, found 10";
pub const BAD_TEXT_FLAKE: &str = "00CMXB6TAK4SU";
pub const BAD_TEXT_FLAKE_MESSAGE: &str =
    "invalid input syntax for type ulidflake: \"00CMXB6TAK4SU\": \
     invalid character \"U\" at position 13 (Crockford base32 has no I, L, O or U)";
pub const SHORT_BINARY_ULID_MESSAGE: &str = "invalid binary ulid: expected 16 bytes, found 15";
pub const NEGATIVE_FLAKE_MESSAGE: &str = "invalid binary ulidflake: the sign bit is set";

pub type Res<T = ()> = Result<T, Box<dyn Error + Send + Sync>>;

static CHECKS: AtomicUsize = AtomicUsize::new(0);

/// One check: stops the program (exit status 1) when `got` is not `want`.
pub fn check<T: PartialEq + Debug>(label: &str, got: T, want: T) {
    if got != want {
        eprintln!("FAIL: {label}: got {got:?}, want {want:?}");
        std::process::exit(1);
    }
    CHECKS.fetch_add(1, Ordering::Relaxed);
}

/// The text of a ulidflake, as the ulid crate encodes the same value: the last 13 of 26 characters.
pub fn flake_text(value: i64) -> String {
    ulid::Ulid(value as u128).to_string()[13..].to_string()
}

/// The version of a dependency, from Cargo.lock (which run.sh builds with --locked).
fn locked_version(name: &str) -> &'static str {
    let lock = include_str!("../Cargo.lock");
    let entry = format!("name = \"{name}\"\nversion = \"");
    let start = lock.find(&entry).expect("dependency in Cargo.lock") + entry.len();
    let len = lock[start..].find('"').unwrap();
    &lock[start..start + len]
}

/// Prints a driver's line, and starts the count of checks over for the next one.
fn report(driver: &str) {
    let checks = CHECKS.swap(0, Ordering::Relaxed);
    println!(
        "driver ({driver} {}): {checks} checks, binary",
        locked_version(driver)
    );
    println!("  ok");
}

/// The libpq-style settings of the caller's server.
pub struct Server {
    pub host: String,
    pub port: u16,
    pub user: String,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Res {
    let env = |name: &str| {
        std::env::var(name).map_err(|_| format!("set {name} (PGHOST, PGPORT, PGUSER)"))
    };
    let server = Server {
        host: env("PGHOST")?,
        port: env("PGPORT")?.parse()?,
        user: env("PGUSER")?,
    };

    let admin = tokio_postgres_driver::connect(&server, "postgres").await?;
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {DATABASE}"))
        .await?;
    admin
        .batch_execute(&format!("CREATE DATABASE {DATABASE}"))
        .await?;
    tokio_postgres_driver::connect(&server, DATABASE)
        .await?
        .batch_execute("CREATE EXTENSION ulid")
        .await?;

    tokio_postgres_driver::run(&server).await?;
    report("tokio-postgres");
    sqlx_driver::run(&server).await?;
    report("sqlx");

    admin
        .batch_execute(&format!("DROP DATABASE {DATABASE} WITH (FORCE)"))
        .await?;
    Ok(())
}
