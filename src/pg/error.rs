//! Raising PostgreSQL errors with a SQLSTATE, a message and optionally a hint.

use pgrx::pg_sys::panic::ErrorReport;
use pgrx::{PgLogLevel, PgSqlErrorCode};

/// Raises `ERROR` with `code` and `message`. Never returns: the transaction is aborted and the
/// session stays usable.
#[track_caller]
pub fn raise(code: PgSqlErrorCode, message: String) -> ! {
    ErrorReport::new(code, message, "ulid").report(PgLogLevel::ERROR);
    unreachable!("ERROR does not return")
}

/// Like [`raise`], with a `HINT:` line that tells the user what to do.
#[track_caller]
pub fn raise_with_hint(code: PgSqlErrorCode, message: String, hint: &str) -> ! {
    ErrorReport::new(code, message, "ulid")
        .set_hint(hint)
        .report(PgLogLevel::ERROR);
    unreachable!("ERROR does not return")
}
