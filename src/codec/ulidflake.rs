//! The Ulid-Flake value: a sign bit (always 0), a 43-bit millisecond timestamp since
//! 2024-01-01T00:00:00Z and 20 low bits, read either as 20 random bits (stand-alone) or as 15
//! random bits and a 5-bit scalability id (scalable).
//!
//! Pure functions, no PostgreSQL: the integer form (the value itself, which fits a `bigint`), the
//! 13-character text form, and the parts.

use super::binary::BinaryError;
use super::crockford::{self, TextError, TextForm};

/// A Ulid-Flake. Ordering of this type = integer order = text order = time order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ulidflake(u64);

impl Ulidflake {
    /// Length of the text form.
    pub const TEXT_LEN: usize = 13;
    /// Bits below the timestamp.
    pub const LOW_BITS: u32 = 20;
    /// Largest 20-bit (stand-alone) randomness.
    pub const MAX_RANDOM: u32 = (1 << Self::LOW_BITS) - 1;
    /// Largest 15-bit (scalable) randomness.
    pub const MAX_SCALABLE_RANDOM: u32 = (1 << 15) - 1;
    /// Largest scalability id.
    pub const MAX_SCALABILITY_ID: u8 = 31;
    /// Largest timestamp: 2^43 - 1 ms after the epoch = 2302-09-27T15:10:22.207Z.
    pub const MAX_TIMESTAMP_MS: u64 = (1 << 43) - 1;
    /// The epoch, 2024-01-01T00:00:00.000Z, in Unix milliseconds.
    pub const EPOCH_UNIX_MS: u64 = 1_704_067_200_000;
    /// Text form of the largest Ulid-Flake.
    pub const MAX_TEXT: &'static str = "7ZZZZZZZZZZZZ";

    /// The value of a non-negative integer; `None` for a negative one.
    #[inline]
    pub const fn from_i64(value: i64) -> Option<Self> {
        if value < 0 {
            None
        } else {
            Some(Ulidflake(value as u64))
        }
    }

    /// The value of 64 bits with the sign bit clear; `None` if it is set.
    #[inline]
    pub const fn from_bits(bits: u64) -> Option<Self> {
        Self::from_i64(bits as i64)
    }

    /// Reads the binary form, the 8 bytes of a `bigint` (most significant first), from bytes of
    /// any length: exactly 8 with the sign bit clear, or an error.
    #[inline]
    pub fn from_be_slice(bytes: &[u8]) -> Result<Self, BinaryError> {
        let bytes = <[u8; 8]>::try_from(bytes).map_err(|_| BinaryError::WrongLength {
            expected: 8,
            found: bytes.len(),
        })?;
        Self::from_bits(u64::from_be_bytes(bytes)).ok_or(BinaryError::SignBit)
    }

    /// The 64 bits (the sign bit is always clear).
    #[inline]
    pub const fn to_bits(self) -> u64 {
        self.0
    }

    /// Milliseconds since the epoch of a Unix millisecond, if a Ulid-Flake can hold it.
    #[inline]
    pub const fn timestamp_of_unix_ms(unix_ms: u64) -> Option<u64> {
        match unix_ms.checked_sub(Self::EPOCH_UNIX_MS) {
            Some(ms) if ms <= Self::MAX_TIMESTAMP_MS => Some(ms),
            _ => None,
        }
    }

    /// The integer form, 0 ..= 2^63 - 1.
    #[inline]
    pub const fn to_i64(self) -> i64 {
        self.0 as i64
    }

    /// A stand-alone value. Bits above the 43-bit timestamp or the 20-bit randomness are dropped;
    /// callers check ranges first.
    #[inline]
    pub const fn standalone(timestamp_ms: u64, random: u32) -> Self {
        Ulidflake(
            ((timestamp_ms & Self::MAX_TIMESTAMP_MS) << Self::LOW_BITS)
                | (random & Self::MAX_RANDOM) as u64,
        )
    }

    /// A scalable value: 15 random bits, then the 5-bit scalability id. Out-of-range parts are
    /// masked.
    #[inline]
    pub const fn scalable(timestamp_ms: u64, random: u32, scalability_id: u8) -> Self {
        Self::standalone(
            timestamp_ms,
            ((random & Self::MAX_SCALABLE_RANDOM) << 5)
                | (scalability_id & Self::MAX_SCALABILITY_ID) as u32,
        )
    }

    /// The lowest value of a millisecond: low bits all zero.
    #[inline]
    pub const fn first_of_millisecond(timestamp_ms: u64) -> Self {
        Self::standalone(timestamp_ms, 0)
    }

    /// Milliseconds since 2024-01-01T00:00:00Z.
    #[inline]
    pub const fn timestamp_ms(self) -> u64 {
        self.0 >> Self::LOW_BITS
    }

    /// The Unix millisecond of the timestamp.
    #[inline]
    pub const fn unix_ms(self) -> u64 {
        self.timestamp_ms() + Self::EPOCH_UNIX_MS
    }

    /// The low 20 bits: the randomness of a stand-alone value.
    #[inline]
    pub const fn random(self) -> u32 {
        (self.0 & Self::MAX_RANDOM as u64) as u32
    }

    /// Bits 5..19: the randomness of a scalable value.
    #[inline]
    pub const fn scalable_random(self) -> u32 {
        self.random() >> 5
    }

    /// The low 5 bits: the scalability id of a scalable value.
    #[inline]
    pub const fn scalability_id(self) -> u8 {
        (self.0 & Self::MAX_SCALABILITY_ID as u64) as u8
    }

    /// Parses the 13-character text form, case-insensitively.
    #[inline]
    pub fn parse(text: &[u8]) -> Result<Self, TextError> {
        crockford::decode::<u64, { Self::TEXT_LEN }>(text, 63, Self::MAX_TEXT).map(Ulidflake)
    }

    /// The canonical text form: 13 upper-case characters.
    #[inline]
    pub fn encode(self) -> [u8; Self::TEXT_LEN] {
        crockford::encode::<u64, { Self::TEXT_LEN }>(self.0)
    }
}

impl TextForm for Ulidflake {
    #[inline]
    fn parse(text: &[u8]) -> Result<Self, TextError> {
        Ulidflake::parse(text)
    }

    #[inline]
    fn parse_terminated(byte_at: impl Fn(usize) -> u8) -> Option<Self> {
        crockford::decode_terminated::<u64, { Self::TEXT_LEN }>(byte_at, 63).map(Ulidflake)
    }
}

impl std::fmt::Display for Ulidflake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = self.encode();
        f.write_str(std::str::from_utf8(&text).map_err(|_| std::fmt::Error)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::crockford::Found;

    fn parse(text: &str) -> Ulidflake {
        Ulidflake::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn spec_example() {
        let flake = parse("00CMXB6TAK4SA");
        assert_eq!(flake.to_i64(), 14_246_757_444_195_114);
        assert_eq!(
            Ulidflake::from_i64(14_246_757_444_195_114)
                .unwrap()
                .to_string(),
            "00CMXB6TAK4SA"
        );
        // The first 9 characters are the timestamp, the last 4 the randomness.
        assert_eq!(
            &Ulidflake::first_of_millisecond(flake.timestamp_ms()).encode()[..9],
            b"00CMXB6TA"
        );
        assert_eq!(
            &Ulidflake::standalone(0, flake.random()).encode()[9..],
            b"K4SA"
        );
    }

    #[test]
    fn boundaries() {
        assert_eq!(parse("0000000000000").to_i64(), 0);
        let max = parse(Ulidflake::MAX_TEXT);
        assert_eq!(max.to_i64(), i64::MAX);
        assert_eq!(max.timestamp_ms(), Ulidflake::MAX_TIMESTAMP_MS);
        assert_eq!(max.random(), Ulidflake::MAX_RANDOM);
        assert_eq!(
            Ulidflake::parse(b"8000000000000"),
            Err(TextError::OutOfRange {
                largest: Ulidflake::MAX_TEXT
            })
        );
        assert_eq!(Ulidflake::from_i64(-1), None);
        assert_eq!(Ulidflake::from_i64(i64::MIN), None);
        // The largest timestamp is 2302-09-27T15:10:22.207Z = Unix ms 10500160222207.
        assert_eq!(max.unix_ms(), 10_500_160_222_207);
    }

    #[test]
    fn rejections() {
        assert_eq!(
            Ulidflake::parse(b"00CMXB6TAK4S"),
            Err(TextError::WrongLength {
                expected: 13,
                found: 12
            })
        );
        assert_eq!(
            Ulidflake::parse(b"00CMXB6TAK4SAA"),
            Err(TextError::WrongLength {
                expected: 13,
                found: 14
            })
        );
        assert_eq!(
            Ulidflake::parse(b"00CMXB6TAK4SL"),
            Err(TextError::InvalidCharacter {
                found: Found::Char('L'),
                position: 13
            })
        );
        assert_eq!(
            Ulidflake::parse(b"-0CMXB6TAK4SA"),
            Err(TextError::InvalidCharacter {
                found: Found::Char('-'),
                position: 1
            })
        );
        assert_eq!(parse("00cmxb6tak4sa"), parse("00CMXB6TAK4SA"));
    }

    #[test]
    fn parts_of_both_layouts() {
        let standalone = Ulidflake::standalone(123_456_789, 0xABCDE);
        assert_eq!(standalone.timestamp_ms(), 123_456_789);
        assert_eq!(standalone.random(), 0xABCDE);
        assert_eq!(standalone.to_i64(), (123_456_789 << 20) | 0xABCDE);

        let scalable = Ulidflake::scalable(123_456_789, 0x7ABC, 17);
        assert_eq!(scalable.timestamp_ms(), 123_456_789);
        assert_eq!(scalable.scalable_random(), 0x7ABC);
        assert_eq!(scalable.scalability_id(), 17);
        assert_eq!(scalable.random(), (0x7ABC << 5) | 17);

        // Out-of-range parts are masked, never carried into the neighbour.
        assert_eq!(Ulidflake::standalone(0, u32::MAX).timestamp_ms(), 0);
        assert_eq!(Ulidflake::scalable(0, u32::MAX, 255).scalability_id(), 31);
        assert_eq!(
            Ulidflake::standalone(u64::MAX, 0).to_i64(),
            Ulidflake::MAX_TIMESTAMP_MS as i64 * (1 << 20)
        );
    }

    #[test]
    fn order_of_values_is_order_of_text() {
        let mut values: Vec<Ulidflake> = (0..500u64)
            .map(|i| {
                Ulidflake::from_i64((i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 1) as i64).unwrap()
            })
            .collect();
        values.sort();
        for pair in values.windows(2) {
            assert!(pair[0].encode() < pair[1].encode());
        }
    }

    #[test]
    fn text_round_trip_of_many_values() {
        for i in 0..10_000u64 {
            let flake =
                Ulidflake::from_i64((i.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 1) as i64).unwrap();
            assert_eq!(Ulidflake::parse(&flake.encode()), Ok(flake));
        }
    }
}
