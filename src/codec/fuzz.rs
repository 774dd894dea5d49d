//! Property-based fuzzing of the codecs (proptest): random and mutated strings and byte arrays
//! against a reference model written independently of the decoder.
//!
//! CI runs every property with a fixed seed and [`DEFAULT_CASES`] cases each (seven million
//! inputs in all). Run longer, or with another seed:
//!
//! ```sh
//! PROPTEST_CASES=20000000 PROPTEST_RNG_SEED=42 cargo test --lib codec::fuzz
//! ```

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

use super::binary::BinaryError;
use super::crockford::{Found, TextError, TextForm};
use super::time;
use super::ulid::Ulid;
use super::ulidflake::Ulidflake;

/// Cases per property when `PROPTEST_CASES` is not set.
const DEFAULT_CASES: u32 = 1_000_000;
/// The seed when `PROPTEST_RNG_SEED` is not set, so that CI is reproducible.
const DEFAULT_SEED: u64 = 0x00C0_FFEE_u64;

fn config() -> Config {
    let mut config = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = DEFAULT_CASES;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = RngSeed::Fixed(DEFAULT_SEED);
    }
    config.failure_persistence = None;
    config
}

/// Every character either codec accepts, in any case.
const DIGITS: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz";

/// What a decoder must do with `text` for a type of `len` digits whose first digit may be at
/// most 7, computed without the decoder's tables: the reference model.
fn model(text: &[u8], len: usize) -> Result<u128, TextError> {
    let value_of = |b: u8| {
        let upper = b.to_ascii_uppercase();
        b"0123456789ABCDEFGHJKMNPQRSTVWXYZ"
            .iter()
            .position(|&d| d == upper)
    };
    if let Some(index) = text.iter().position(|&b| !DIGITS.contains(&b)) {
        let position = text[..index]
            .iter()
            .filter(|&&b| (b & 0b1100_0000) != 0b1000_0000)
            .count()
            + 1;
        let found = match std::str::from_utf8(&text[index..]) {
            Ok(rest) => Found::Char(rest.chars().next().unwrap()),
            Err(e) if e.valid_up_to() > 0 => Found::Char(
                std::str::from_utf8(&text[index..index + e.valid_up_to()])
                    .unwrap()
                    .chars()
                    .next()
                    .unwrap(),
            ),
            Err(_) => Found::Byte(text[index]),
        };
        return Err(TextError::InvalidCharacter { found, position });
    }
    if text.len() != len {
        return Err(TextError::WrongLength {
            expected: len,
            found: text.len(),
        });
    }
    if value_of(text[0]).unwrap() > 7 {
        let largest = if len == 26 {
            Ulid::MAX_TEXT
        } else {
            Ulidflake::MAX_TEXT
        };
        return Err(TextError::OutOfRange { largest });
    }
    Ok(text
        .iter()
        .fold(0u128, |acc, &b| acc * 32 + value_of(b).unwrap() as u128))
}

/// Both codecs against the model, and every accepted text re-encoded canonically.
fn check_both(text: &[u8]) -> Result<(), TestCaseError> {
    let ulid = Ulid::parse(text);
    prop_assert_eq!(
        ulid.clone().map(|u| u.to_u128()),
        model(text, 26),
        "ulid {:?}",
        text
    );
    if let Ok(ulid) = ulid {
        prop_assert_eq!(&ulid.encode()[..], &text.to_ascii_uppercase()[..]);
    }
    let flake = Ulidflake::parse(text);
    prop_assert_eq!(
        flake.clone().map(|f| f.to_i64() as u128),
        model(text, 13),
        "ulidflake {:?}",
        text
    );
    if let Ok(flake) = flake {
        prop_assert_eq!(&flake.encode()[..], &text.to_ascii_uppercase()[..]);
    }
    check_terminated(text)
}

/// The C-string parsers agree with `parse` on the text up to its first NUL, and never read past
/// that NUL.
fn check_terminated(text: &[u8]) -> Result<(), TestCaseError> {
    let c_string = &text[..text.iter().position(|&b| b == 0).unwrap_or(text.len())];
    let mut buffer = c_string.to_vec();
    buffer.push(0);
    let furthest = std::cell::Cell::new(0);
    let byte_at = |i: usize| {
        furthest.set(furthest.get().max(i));
        buffer[i]
    };
    prop_assert_eq!(Ulid::parse_terminated(byte_at), Ulid::parse(c_string).ok());
    prop_assert!(furthest.get() <= c_string.len());
    prop_assert_eq!(
        Ulidflake::parse_terminated(byte_at),
        Ulidflake::parse(c_string).ok()
    );
    prop_assert!(furthest.get() <= c_string.len());
    Ok(())
}

/// Texts near the valid ones: digits only, of lengths around 13 and 26.
fn digit_strings() -> impl Strategy<Value = Vec<u8>> {
    vec(proptest::sample::select(DIGITS), 0..=30)
}

/// A valid ULID or Ulid-Flake text, then one edit: a byte replaced by any byte, inserted,
/// deleted, or changed in case; or a valid character replaced by a multi-byte one.
fn mutated_valid_texts() -> impl Strategy<Value = Vec<u8>> {
    let valid = prop_oneof![
        any::<u128>().prop_map(|v| Ulid::from_bytes(v.to_be_bytes()).encode().to_vec()),
        (0..=i64::MAX).prop_map(|v| Ulidflake::from_i64(v).unwrap().encode().to_vec()),
    ];
    (
        valid,
        any::<prop::sample::Index>(),
        any::<u8>(),
        0..5u8,
        "\\PC",
    )
        .prop_map(|(mut text, at, byte, edit, unicode)| {
            let i = at.index(text.len());
            match edit {
                0 => text[i] = byte,
                1 => text.insert(i, byte),
                2 => {
                    text.remove(i);
                }
                3 => text[i] = text[i].to_ascii_lowercase(),
                _ => {
                    text.splice(i..=i, unicode.bytes());
                }
            }
            text
        })
}

proptest! {
    #![proptest_config(config())]

    /// Arbitrary bytes, any length: never a panic, always the model's answer.
    #[test]
    fn arbitrary_bytes_follow_the_model(text in vec(any::<u8>(), 0..40)) {
        check_both(&text)?;
    }

    /// Strings of digits: the length and range checks.
    #[test]
    fn digit_strings_follow_the_model(text in digit_strings()) {
        check_both(&text)?;
    }

    /// One edit away from a valid text: which character, where, and why it is rejected.
    #[test]
    fn mutated_texts_follow_the_model(text in mutated_valid_texts()) {
        check_both(&text)?;
    }

    /// Every value round-trips through its text, in either case, and through its bytes.
    #[test]
    fn values_round_trip(bits in any::<u128>(), flake in 0..=i64::MAX) {
        let ulid = Ulid::from_bytes(bits.to_be_bytes());
        prop_assert_eq!(ulid.to_bytes(), bits.to_be_bytes());
        prop_assert_eq!(Ulid::parse(&ulid.encode()), Ok(ulid));
        prop_assert_eq!(Ulid::parse(&ulid.encode().to_ascii_lowercase()), Ok(ulid));
        prop_assert_eq!(ulid, Ulid::from_parts(ulid.timestamp_ms(), ulid.random()));
        let flake = Ulidflake::from_i64(flake).unwrap();
        prop_assert_eq!(Ulidflake::parse(&flake.encode()), Ok(flake));
        prop_assert_eq!(Ulidflake::parse(&flake.encode().to_ascii_lowercase()), Ok(flake));
        prop_assert_eq!(Ulidflake::from_bits(flake.to_bits()), Some(flake));
    }

    /// Byte arrays of any length as binary input: exactly 16 bytes make a ulid (the same bytes
    /// back), exactly 8 with the sign bit clear a Ulid-Flake (the same bigint); anything else
    /// is the matching error.
    #[test]
    fn binary_input_of_any_length(bytes in vec(any::<u8>(), 0..40)) {
        match Ulid::from_slice(&bytes) {
            Ok(ulid) => prop_assert_eq!(&ulid.to_bytes()[..], &bytes[..]),
            Err(e) => {
                prop_assert_ne!(bytes.len(), 16);
                prop_assert_eq!(e, BinaryError::WrongLength { expected: 16, found: bytes.len() });
            }
        }
        let expected = match bytes.len() {
            8 if bytes[0] >= 0x80 => Err(BinaryError::SignBit),
            8 => Ok(i64::from_be_bytes(bytes[..].try_into().unwrap())),
            n => Err(BinaryError::WrongLength { expected: 8, found: n }),
        };
        prop_assert_eq!(Ulidflake::from_be_slice(&bytes).map(|f| f.to_i64()), expected);
    }

    /// 64-bit integers and 8-byte arrays: a Ulid-Flake exactly when the sign bit is clear.
    #[test]
    fn flake_bits(bits in any::<u64>()) {
        let flake = Ulidflake::from_bits(bits);
        prop_assert_eq!(flake.is_some(), bits >> 63 == 0);
        prop_assert_eq!(Ulidflake::from_i64(bits as i64), flake);
        if let Some(flake) = flake {
            prop_assert_eq!(flake.to_bits(), bits);
        }
    }

    /// Any timestamptz: in range exactly when its floored millisecond is, never wrapped.
    #[test]
    fn timestamps_map_to_milliseconds(timestamp in any::<i64>()) {
        let ms = time::unix_ms_within(timestamp, 0, Ulid::MAX_TIMESTAMP_MS);
        let exact = (timestamp as i128 + time::PG_EPOCH_UNIX_US as i128).div_euclid(1000);
        let infinite = timestamp == i64::MIN || timestamp == i64::MAX;
        let in_range = !infinite && (0..=Ulid::MAX_TIMESTAMP_MS as i128).contains(&exact);
        prop_assert_eq!(ms, in_range.then_some(exact as u64));
        if let Some(ms) = ms {
            let back = time::unix_ms_to_pg_timestamp(ms);
            prop_assert!(back <= timestamp && timestamp - back < 1000);
        }
    }
}
