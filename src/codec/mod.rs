//! The formats, as pure functions: no PostgreSQL in here, so everything is unit-tested directly.

pub mod binary;
pub mod crockford;
#[cfg(test)]
mod fuzz;
pub mod time;
pub mod ulid;
pub mod ulidflake;
