//! The pgrx glue: one module per SQL type, plus what they share.

pub mod backend;
pub mod datum;
pub mod error;
pub mod ulid;
pub mod ulidflake;
