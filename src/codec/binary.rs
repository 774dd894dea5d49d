//! Why a binary form (receive input, or a `bytea` cast) was rejected.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryError {
    /// Not as many bytes as the type has.
    WrongLength { expected: usize, found: usize },
    /// A 64-bit value with the sign bit set: not a Ulid-Flake.
    SignBit,
}

impl fmt::Display for BinaryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BinaryError::WrongLength { expected, found } => {
                write!(f, "expected {expected} bytes, found {found}")
            }
            BinaryError::SignBit => f.write_str("the sign bit is set"),
        }
    }
}
