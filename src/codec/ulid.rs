//! The ULID value: 48-bit Unix-millisecond timestamp and 80 random bits in one `u128`.
//!
//! Pure functions, no PostgreSQL: the binary form (16 bytes, most significant first, the same
//! bytes as a `uuid`), the 26-character text form, and the parts.

use super::binary::BinaryError;
use super::crockford::{self, TextError, TextForm};

/// A ULID. Ordering of this type = ordering of the value = byte order = text order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ulid(u128);

impl Ulid {
    /// Length of the text form.
    pub const TEXT_LEN: usize = 26;
    /// Length of the binary form.
    pub const BYTES_LEN: usize = 16;
    /// Bits of randomness below the timestamp.
    pub const RANDOM_BITS: u32 = 80;
    /// Largest randomness: 2^80 - 1.
    pub const MAX_RANDOM: u128 = (1 << Self::RANDOM_BITS) - 1;
    /// Largest timestamp: 2^48 - 1 ms = 10889-08-02T05:31:50.655Z.
    pub const MAX_TIMESTAMP_MS: u64 = (1 << 48) - 1;
    /// Text form of the largest ULID.
    pub const MAX_TEXT: &'static str = "7ZZZZZZZZZZZZZZZZZZZZZZZZZ";

    /// Builds a ULID from its parts. Bits above 48 (timestamp) or 80 (randomness) are dropped;
    /// callers check ranges first.
    #[inline]
    pub const fn from_parts(timestamp_ms: u64, random: u128) -> Self {
        Ulid(
            ((timestamp_ms as u128 & Self::MAX_TIMESTAMP_MS as u128) << Self::RANDOM_BITS)
                | (random & Self::MAX_RANDOM),
        )
    }

    /// The lowest ULID of a millisecond: randomness all zero.
    #[inline]
    pub const fn first_of_millisecond(timestamp_ms: u64) -> Self {
        Self::from_parts(timestamp_ms, 0)
    }

    #[cfg(test)]
    pub const fn from_u128(value: u128) -> Self {
        Ulid(value)
    }

    #[cfg(test)]
    pub const fn to_u128(self) -> u128 {
        self.0
    }

    #[inline]
    pub const fn timestamp_ms(self) -> u64 {
        (self.0 >> Self::RANDOM_BITS) as u64
    }

    #[inline]
    pub const fn random(self) -> u128 {
        self.0 & Self::MAX_RANDOM
    }

    /// Reads the binary form (network byte order).
    #[inline]
    pub const fn from_bytes(bytes: [u8; 16]) -> Self {
        Ulid(u128::from_be_bytes(bytes))
    }

    /// Reads the binary form from bytes of any length: exactly 16, or an error.
    #[inline]
    pub fn from_slice(bytes: &[u8]) -> Result<Self, BinaryError> {
        match <[u8; 16]>::try_from(bytes) {
            Ok(bytes) => Ok(Self::from_bytes(bytes)),
            Err(_) => Err(BinaryError::WrongLength {
                expected: Self::BYTES_LEN,
                found: bytes.len(),
            }),
        }
    }

    /// The binary form (network byte order): the bytes of the `uuid` with the same value.
    #[inline]
    pub const fn to_bytes(self) -> [u8; 16] {
        self.0.to_be_bytes()
    }

    /// Parses the 26-character text form, case-insensitively.
    #[inline]
    pub fn parse(text: &[u8]) -> Result<Self, TextError> {
        crockford::decode::<u128, { Self::TEXT_LEN }>(text, 128, Self::MAX_TEXT).map(Ulid)
    }

    /// The canonical text form: 26 upper-case characters.
    ///
    /// Written as three 64-bit pieces of 10, 8 and 8 digits (50, 40 and 40 bits): a shift of a
    /// `u128` costs several instructions, and `ulid_out` runs once per row.
    #[inline]
    pub fn encode(self) -> [u8; Self::TEXT_LEN] {
        const LOW_40: u64 = (1 << 40) - 1;
        let mut out = [0u8; Self::TEXT_LEN];
        out[..10].copy_from_slice(&crockford::encode::<u64, 10>((self.0 >> 80) as u64));
        out[10..18].copy_from_slice(&crockford::encode::<u64, 8>((self.0 >> 40) as u64 & LOW_40));
        out[18..].copy_from_slice(&crockford::encode::<u64, 8>(self.0 as u64 & LOW_40));
        out
    }

    /// The next ULID in the same millisecond (randomness + 1), or `None` if the randomness is
    /// already at its largest.
    #[inline]
    pub const fn increment(self) -> Option<Self> {
        if self.random() == Self::MAX_RANDOM {
            None
        } else {
            Some(Ulid(self.0 + 1))
        }
    }
}

impl TextForm for Ulid {
    #[inline]
    fn parse(text: &[u8]) -> Result<Self, TextError> {
        Ulid::parse(text)
    }

    #[inline]
    fn parse_terminated(byte_at: impl Fn(usize) -> u8) -> Option<Self> {
        crockford::decode_terminated::<u128, { Self::TEXT_LEN }>(byte_at, 128).map(Ulid)
    }
}

impl std::fmt::Display for Ulid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = self.encode();
        // The alphabet is ASCII.
        f.write_str(std::str::from_utf8(&text).map_err(|_| std::fmt::Error)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Ulid {
        Ulid::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn boundaries() {
        let zero = parse("00000000000000000000000000");
        assert_eq!(zero.to_u128(), 0);
        assert_eq!(zero.to_bytes(), [0; 16]);
        let max = parse(Ulid::MAX_TEXT);
        assert_eq!(max.to_u128(), u128::MAX);
        assert_eq!(max.to_bytes(), [0xFF; 16]);
        assert_eq!(max.timestamp_ms(), 281_474_976_710_655);
        assert_eq!(max.random(), Ulid::MAX_RANDOM);
        assert!(Ulid::parse(b"80000000000000000000000000").is_err());
    }

    #[test]
    fn seed_worked_example_timestamp_prefix() {
        // 2025-01-01T00:00:00.000Z = 1735689600000 ms -> prefix 01JGFJJZ00.
        let ulid = Ulid::first_of_millisecond(1_735_689_600_000);
        assert_eq!(&ulid.encode()[..10], b"01JGFJJZ00");
        let seeded = parse("01JGFJJZ00XHF7E02JJ03AE4T7");
        assert_eq!(seeded.timestamp_ms(), 1_735_689_600_000);
        assert_eq!(&seeded.encode()[10..], b"XHF7E02JJ03AE4T7");
    }

    #[test]
    fn spec_examples_round_trip() {
        for text in [
            "01ARZ3NDEKTSV4RRFFQ69G5FAV",
            "01AN4Z07BY79KA1307SR9X4MV3",
            "01BX5ZZKBKACTAV9WEVGEMMVRZ",
            "01BX5ZZKBKZZZZZZZZZZZZZZZZ",
        ] {
            let ulid = parse(text);
            assert_eq!(ulid.to_string(), text);
            assert_eq!(Ulid::from_bytes(ulid.to_bytes()), ulid);
        }
    }

    #[test]
    fn seed_articles_examples() {
        // A monotonic run printed by the Java article: +1 each, the digit after H is J (no I).
        let run = [
            "01GFGASXXQXD5ZJ26PKSCFGNPF",
            "01GFGASXXQXD5ZJ26PKSCFGNPG",
            "01GFGASXXQXD5ZJ26PKSCFGNPH",
            "01GFGASXXQXD5ZJ26PKSCFGNPJ",
        ];
        for pair in run.windows(2) {
            assert_eq!(parse(pair[0]).increment(), Some(parse(pair[1])));
        }
        // The CLI article: 01KP7RTPGZB62RC63XPYZENR1F "was created at 2026-04-15T05:11:38Z".
        let at = parse("01KP7RTPGZB62RC63XPYZENR1F").timestamp_ms();
        assert!((1_776_229_898_000..1_776_229_899_000).contains(&at), "{at}");
    }

    #[test]
    fn spec_monotonic_example_is_plus_one() {
        let first = parse("01BX5ZZKBKACTAV9WEVGEMMVRZ");
        assert_eq!(
            first.increment().unwrap().to_string(),
            "01BX5ZZKBKACTAV9WEVGEMMVS0"
        );
        // 01BX5ZZKBKZZZZZZZZZZZZZZZZ has the largest randomness: the next one fails.
        assert_eq!(parse("01BX5ZZKBKZZZZZZZZZZZZZZZZ").increment(), None);
        assert_eq!(
            parse("01BX5ZZKBKZZZZZZZZZZZZZZZY").increment(),
            Some(parse("01BX5ZZKBKZZZZZZZZZZZZZZZZ"))
        );
    }

    #[test]
    fn parts_and_layout() {
        let ulid = Ulid::from_parts(0x0123_4567_89AB, 0xCDEF_0123_4567_89AB_CDEF);
        assert_eq!(
            ulid.to_bytes(),
            [
                0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB,
                0xCD, 0xEF
            ]
        );
        assert_eq!(ulid.timestamp_ms(), 0x0123_4567_89AB);
        assert_eq!(ulid.random(), 0xCDEF_0123_4567_89AB_CDEF);
        // Out-of-range parts are masked, never carried into the neighbour.
        assert_eq!(
            Ulid::from_parts(u64::MAX, 0),
            Ulid::from_parts(Ulid::MAX_TIMESTAMP_MS, 0)
        );
        assert_eq!(
            Ulid::from_parts(0, u128::MAX),
            Ulid::from_parts(0, Ulid::MAX_RANDOM)
        );
    }

    #[test]
    fn order_of_values_is_order_of_text_and_bytes() {
        let mut values: Vec<Ulid> = (0..200u128)
            .map(|i| Ulid::from_u128(i.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835)))
            .collect();
        values.sort();
        for pair in values.windows(2) {
            assert!(pair[0].encode() < pair[1].encode());
            assert!(pair[0].to_bytes() < pair[1].to_bytes());
        }
    }
}
