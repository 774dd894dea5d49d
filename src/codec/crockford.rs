//! Crockford base32 digits: the text alphabet shared by `ulid` and `ulidflake`.
//!
//! Pure functions, no PostgreSQL. A value is written most significant digit first, five bits per
//! character. Decoding is case-insensitive and strict: only the 32 digits of the alphabet are
//! accepted (no I, L, O or U, no hyphens, no padding), so every accepted string has exactly one
//! reading.

use std::fmt;

/// The 32 digits, in value order. ASCII order equals value order, so text order equals numeric order.
pub const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Marks a byte that is not a digit in [`DECODE`].
const NOT_A_DIGIT: u8 = 0xFF;

/// Digit value of every byte, [`NOT_A_DIGIT`] for bytes outside the alphabet (either case).
static DECODE: [u8; 256] = {
    let mut table = [NOT_A_DIGIT; 256];
    let mut value = 0;
    while value < ALPHABET.len() {
        let upper = ALPHABET[value];
        table[upper as usize] = value as u8;
        table[upper.to_ascii_lowercase() as usize] = value as u8;
        value += 1;
    }
    table
};

/// The offending character of [`TextError::InvalidCharacter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    Char(char),
    /// A byte that does not start a valid UTF-8 character.
    Byte(u8),
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Found::Char(c) if !c.is_control() => write!(f, "\"{c}\""),
            Found::Char(c) => write!(f, "U+{:04X}", c as u32),
            Found::Byte(b) => write!(f, "byte 0x{b:02X}"),
        }
    }
}

/// Why a text form was rejected. Positions are 1-based and count characters, not bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextError {
    /// A character outside the alphabet.
    InvalidCharacter { found: Found, position: usize },
    /// Only digits, but not as many as the type's text form has.
    WrongLength { expected: usize, found: usize },
    /// Right length and digits, but the value needs more bits than the type has.
    OutOfRange { largest: &'static str },
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::InvalidCharacter { found, position } => {
                write!(f, "invalid character {found} at position {position}")?;
                if let Found::Char('I' | 'i' | 'L' | 'l' | 'O' | 'o' | 'U' | 'u') = found {
                    f.write_str(" (Crockford base32 has no I, L, O or U)")?;
                }
                Ok(())
            }
            TextError::WrongLength { expected, found } => {
                write!(f, "expected {expected} characters, found {found}")
            }
            TextError::OutOfRange { largest } => {
                write!(f, "value out of range, the largest is {largest}")
            }
        }
    }
}

/// Two digits for each 10-bit value, most significant first: [`encode`] looks up two digits at a
/// time (the output functions run once per row).
static PAIRS: [[u8; 2]; 1024] = {
    let mut table = [[0u8; 2]; 1024];
    let mut value = 0;
    while value < 1024 {
        table[value] = [ALPHABET[value >> 5], ALPHABET[value & 0x1F]];
        value += 1;
    }
    table
};

/// A value whose text form is a fixed number of digits (`Ulid`, `Ulidflake`): what a type's
/// input function parses.
pub trait TextForm: Sized {
    /// Parses the text form, or says what is wrong with it.
    fn parse(text: &[u8]) -> Result<Self, TextError>;
    /// Parses a NUL-terminated text form read through `byte_at`, which is never asked for a
    /// byte past the first one that is not a digit; `None` where `parse` gives an error.
    fn parse_terminated(byte_at: impl Fn(usize) -> u8) -> Option<Self>;
}

/// The integer a text form is read into and written from: `u128` for `ulid`, `u64` for
/// `ulidflake` (narrower is faster).
pub trait Word: Copy {
    const ZERO: Self;
    /// `self << 5 | digit`.
    fn push_digit(self, digit: u8) -> Self;
    /// The low 5 bits, then `self >>= 5`.
    fn pop_digit(&mut self) -> u8;
    /// The low 10 bits (two digits), then `self >>= 10`.
    fn pop_pair(&mut self) -> usize;
}

macro_rules! word {
    ($ty:ty) => {
        impl Word for $ty {
            const ZERO: Self = 0;
            #[inline]
            fn push_digit(self, digit: u8) -> Self {
                (self << 5) | digit as $ty
            }
            #[inline]
            fn pop_digit(&mut self) -> u8 {
                let digit = (*self & 0x1F) as u8;
                *self >>= 5;
                digit
            }
            #[inline]
            fn pop_pair(&mut self) -> usize {
                let pair = (*self & 0x3FF) as usize;
                *self >>= 10;
                pair
            }
        }
    };
}
word!(u64);
word!(u128);

/// Decodes exactly `N` digits into the low `5 * N` bits of a `W`.
///
/// `bits` is how many bits the type has (128 for `ulid`, 63 for `ulidflake`, whose sign bit is
/// 0); a first digit that would set a bit above them is [`TextError::OutOfRange`], with
/// `largest` as the message's example. (Such a digit may not fit `W`; it is rejected before the
/// value is used.)
#[inline]
pub fn decode<W: Word, const N: usize>(
    text: &[u8],
    bits: u32,
    largest: &'static str,
) -> Result<W, TextError> {
    debug_assert!(N * 5 >= bits as usize && N * 5 < bits as usize + 5);
    if text.len() == N {
        let mut value = W::ZERO;
        let mut invalid = false;
        for &byte in text {
            let digit = DECODE[byte as usize];
            invalid |= digit == NOT_A_DIGIT;
            value = value.push_digit(digit & 0x1F);
        }
        if !invalid {
            // The first digit carries the top `bits - 5 * (N - 1)` bits; anything above is overflow.
            let top_bits = bits - 5 * (N as u32 - 1);
            if DECODE[text[0] as usize] >> top_bits != 0 {
                return Err(TextError::OutOfRange { largest });
            }
            return Ok(value);
        }
    }
    Err(explain_rejection(text, N))
}

/// [`decode`] for a NUL-terminated text (a C string, as input functions get), read one byte at a
/// time through `byte_at` and never past its first non-digit, so never past the NUL: no `strlen`
/// first. `None` for any text [`decode`] would reject; [`decode`] then says why.
#[inline]
pub fn decode_terminated<W: Word, const N: usize>(
    byte_at: impl Fn(usize) -> u8,
    bits: u32,
) -> Option<W> {
    let mut value = W::ZERO;
    for index in 0..N {
        let digit = DECODE[byte_at(index) as usize];
        if digit == NOT_A_DIGIT {
            return None;
        }
        value = value.push_digit(digit);
    }
    let top_bits = bits - 5 * (N as u32 - 1);
    (byte_at(N) == 0 && DECODE[byte_at(0) as usize] >> top_bits == 0).then_some(value)
}

/// The slow path: says what is wrong with a text that is not `expected` digits.
#[cold]
fn explain_rejection(text: &[u8], expected: usize) -> TextError {
    if let Some(index) = text.iter().position(|&b| DECODE[b as usize] == NOT_A_DIGIT) {
        let rest = &text[index..];
        let found = match rest
            .utf8_chunks()
            .next()
            .and_then(|c| c.valid().chars().next())
        {
            Some(c) => Found::Char(c),
            None => Found::Byte(rest[0]),
        };
        return TextError::InvalidCharacter {
            found,
            position: character_count(&text[..index]) + 1,
        };
    }
    TextError::WrongLength {
        expected,
        found: text.len(),
    }
}

/// Counts UTF-8 characters (bytes that do not continue a multi-byte sequence).
fn character_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}

/// Encodes the low `5 * N` bits of `value` as `N` upper-case digits, most significant first.
#[inline]
pub fn encode<W: Word, const N: usize>(value: W) -> [u8; N] {
    let mut out = [0u8; N];
    let mut rest = value;
    let mut end = N;
    while end >= 2 {
        out[end - 2..end].copy_from_slice(&PAIRS[rest.pop_pair()]);
        end -= 2;
    }
    if end == 1 {
        out[0] = ALPHABET[rest.pop_digit() as usize];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX26: &str = "7ZZZZZZZZZZZZZZZZZZZZZZZZZ";

    fn decode26(text: &str) -> Result<u128, TextError> {
        decode::<u128, 26>(text.as_bytes(), 128, MAX26)
    }

    #[test]
    fn alphabet_is_in_ascii_order_and_excludes_ilou() {
        assert!(ALPHABET.windows(2).all(|w| w[0] < w[1]));
        for banned in b"ILOUilou" {
            assert!(!ALPHABET.contains(banned));
            assert_eq!(DECODE[*banned as usize], NOT_A_DIGIT);
        }
    }

    #[test]
    fn every_byte_decodes_to_its_digit_or_is_rejected() {
        let mut accepted = 0;
        for byte in 0..=255u8 {
            match ALPHABET
                .iter()
                .position(|&d| d == byte.to_ascii_uppercase())
            {
                Some(value) => {
                    assert_eq!(DECODE[byte as usize] as usize, value, "byte {byte}");
                    accepted += 1;
                }
                None => assert_eq!(DECODE[byte as usize], NOT_A_DIGIT, "byte {byte}"),
            }
        }
        // 10 digits + 22 letters in two cases.
        assert_eq!(accepted, 10 + 22 * 2);
    }

    #[test]
    fn encode_then_decode_is_identity_at_the_edges() {
        for value in [
            0u128,
            1,
            31,
            32,
            u64::MAX as u128,
            u128::MAX >> 1,
            u128::MAX,
        ] {
            let text = encode::<u128, 26>(value);
            assert_eq!(decode::<u128, 26>(&text, 128, MAX26), Ok(value));
        }
        assert_eq!(&encode::<u128, 26>(u128::MAX), MAX26.as_bytes());
        assert_eq!(&encode::<u128, 26>(0), b"00000000000000000000000000");
    }

    #[test]
    fn decoding_is_case_insensitive() {
        assert_eq!(
            decode26("01arz3ndektsv4rrffq69g5fav"),
            decode26("01ARZ3NDEKTSV4RRFFQ69G5FAV")
        );
    }

    #[test]
    fn first_digit_above_seven_is_out_of_range() {
        assert_eq!(decode26(MAX26), Ok(u128::MAX));
        for first in ['8', '9', 'A', 'Z', 'z'] {
            let text = format!("{first}0000000000000000000000000");
            assert_eq!(
                decode26(&text),
                Err(TextError::OutOfRange { largest: MAX26 }),
                "{text}"
            );
        }
    }

    #[test]
    fn rejections_name_the_problem() {
        assert_eq!(
            decode26(""),
            Err(TextError::WrongLength {
                expected: 26,
                found: 0
            })
        );
        assert_eq!(
            decode26("01ARZ3NDEKTSV4RRFFQ69G5FA"),
            Err(TextError::WrongLength {
                expected: 26,
                found: 25
            })
        );
        assert_eq!(
            decode26("01ARZ3NDEKTSV4RRFFQ69G5FAVV"),
            Err(TextError::WrongLength {
                expected: 26,
                found: 27
            })
        );
        // A bad character is reported before a wrong length: it is the more useful message.
        assert_eq!(
            decode26("01ARZ-3NDE"),
            Err(TextError::InvalidCharacter {
                found: Found::Char('-'),
                position: 6
            })
        );
        assert_eq!(
            decode26("01ARZ3NDEKTSV4RRFFQ69G5FAU"),
            Err(TextError::InvalidCharacter {
                found: Found::Char('U'),
                position: 26
            })
        );
        // Positions count characters: "é" is two bytes but one character.
        assert_eq!(
            decode26("0éARZ3NDEKTSV4RRFFQ69G5FA"),
            Err(TextError::InvalidCharacter {
                found: Found::Char('é'),
                position: 2
            })
        );
        assert_eq!(
            decode26("01AR\u{1}3NDEKTSV4RRFFQ69G5FAV"),
            Err(TextError::InvalidCharacter {
                found: Found::Char('\u{1}'),
                position: 5
            })
        );
        assert_eq!(
            decode::<u128, 26>(b"01AR\xFF3NDEKTSV4RRFFQ69G5FAV", 128, MAX26),
            Err(TextError::InvalidCharacter {
                found: Found::Byte(0xFF),
                position: 5
            })
        );
    }

    #[test]
    fn error_messages_read_well() {
        let msg = |text: &str| decode26(text).unwrap_err().to_string();
        assert_eq!(msg("01ARZ3"), "expected 26 characters, found 6");
        assert_eq!(
            msg("01ARZ3NDEKTSV4RRFFQ69G5FAO"),
            "invalid character \"O\" at position 26 (Crockford base32 has no I, L, O or U)"
        );
        assert_eq!(
            msg("01ARZ3NDEKTSV4RRFFQ69G5FA!"),
            "invalid character \"!\" at position 26"
        );
        assert_eq!(
            msg("01ARZ3NDEKTSV4RRFFQ69G5FA\t"),
            "invalid character U+0009 at position 26"
        );
        assert_eq!(
            msg("80000000000000000000000000"),
            "value out of range, the largest is 7ZZZZZZZZZZZZZZZZZZZZZZZZZ"
        );
    }

    #[test]
    fn thirteen_digit_form_for_64_bits() {
        const MAX13: &str = "7ZZZZZZZZZZZZ";
        assert_eq!(
            decode::<u64, 13>(MAX13.as_bytes(), 63, MAX13),
            Ok(i64::MAX as u64)
        );
        assert_eq!(&encode::<u64, 13>(i64::MAX as u64), MAX13.as_bytes());
        assert_eq!(
            decode::<u64, 13>(b"8000000000000", 63, MAX13),
            Err(TextError::OutOfRange { largest: MAX13 })
        );
    }
}
