//! Generator state machines and their inputs: pure Rust, with the clock, the random source and
//! the process id passed in so the rules are tested without PostgreSQL.

pub mod clock;
pub mod entropy;
pub mod flake;
pub mod monotonic;
