//! The pgrx glue: one module per SQL type, plus what they share.

pub mod backend;
pub mod bad_input;
pub mod compat;
pub mod datum;
pub mod error;
pub mod fmgr;
pub mod shared_state;
#[cfg(any(test, feature = "pg_test"))]
pub mod test_support;
pub mod ulid;
pub mod ulidflake;
