//! The monotonic ULID generator's state machine (spec: "Monotonicity").
//!
//! The clock and the random source are passed in, so the rules are tested without either.

use crate::codec::ulid::Ulid;

/// The previous value of one generator.
#[derive(Clone, Copy, Debug, Default)]
pub struct MonotonicUlid {
    last: Option<Ulid>,
}

/// The randomness of the current millisecond is used up (2^80 values were handed out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exhausted {
    pub timestamp_ms: u64,
}

impl MonotonicUlid {
    pub const fn new() -> Self {
        MonotonicUlid { last: None }
    }

    /// A generator whose previous value was `last` (to test what follows a given state).
    #[cfg(any(test, feature = "pg_test"))]
    pub const fn after(last: Ulid) -> Self {
        MonotonicUlid { last: Some(last) }
    }

    /// The next value, strictly greater than every earlier one from this generator.
    ///
    /// - a later millisecond than the previous value: `now_ms` and fresh randomness;
    /// - the same millisecond, or an earlier one (the clock went back): the previous value + 1,
    ///   keeping the previous timestamp;
    /// - that would pass 2^80 - 1: [`Exhausted`], and the state is unchanged.
    ///
    /// `now_ms` must be at most [`Ulid::MAX_TIMESTAMP_MS`].
    #[inline]
    pub fn next(
        &mut self,
        now_ms: u64,
        fresh_random: impl FnOnce() -> u128,
    ) -> Result<Ulid, Exhausted> {
        debug_assert!(now_ms <= Ulid::MAX_TIMESTAMP_MS);
        let next = match self.last {
            Some(last) if now_ms <= last.timestamp_ms() => last.increment().ok_or(Exhausted {
                timestamp_ms: last.timestamp_ms(),
            })?,
            _ => Ulid::from_parts(now_ms, fresh_random()),
        };
        self.last = Some(next);
        Ok(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_random() -> u128 {
        panic!("the same millisecond must not draw fresh randomness")
    }

    #[test]
    fn spec_example_same_millisecond() {
        let first = Ulid::parse(b"01BX5ZZKBKACTAV9WEVGEMMVRZ").unwrap();
        let mut generator = MonotonicUlid::new();
        assert_eq!(
            generator.next(first.timestamp_ms(), || first.random()),
            Ok(first)
        );
        let second = generator.next(first.timestamp_ms(), no_random).unwrap();
        assert_eq!(second.to_string(), "01BX5ZZKBKACTAV9WEVGEMMVS0");
    }

    #[test]
    fn a_new_millisecond_takes_fresh_randomness() {
        let mut generator = MonotonicUlid::new();
        let a = generator.next(1000, || 0xFFFF).unwrap();
        let b = generator.next(1001, || 5).unwrap();
        assert_eq!(a, Ulid::from_parts(1000, 0xFFFF));
        assert_eq!(b, Ulid::from_parts(1001, 5));
    }

    #[test]
    fn clock_going_back_keeps_the_last_timestamp_and_increments() {
        let mut generator = MonotonicUlid::new();
        let a = generator.next(5000, || 10).unwrap();
        let b = generator.next(4000, no_random).unwrap();
        let c = generator.next(4999, no_random).unwrap();
        assert_eq!(b, Ulid::from_parts(5000, 11));
        assert_eq!(c, Ulid::from_parts(5000, 12));
        assert!(a < b && b < c);
        // Once the clock passes the kept timestamp, fresh randomness again.
        assert_eq!(
            generator.next(5001, || 3).unwrap(),
            Ulid::from_parts(5001, 3)
        );
    }

    #[test]
    fn overflow_fails_and_leaves_the_state_alone() {
        let mut generator = MonotonicUlid::new();
        generator.next(7, || Ulid::MAX_RANDOM - 1).unwrap();
        assert_eq!(
            generator.next(7, no_random),
            Ok(Ulid::from_parts(7, Ulid::MAX_RANDOM))
        );
        assert_eq!(
            generator.next(7, no_random),
            Err(Exhausted { timestamp_ms: 7 })
        );
        assert_eq!(
            generator.next(6, no_random),
            Err(Exhausted { timestamp_ms: 7 })
        );
        // The next millisecond recovers.
        assert_eq!(generator.next(8, || 1), Ok(Ulid::from_parts(8, 1)));
    }

    #[test]
    fn a_thousand_in_one_millisecond_are_consecutive() {
        let mut generator = MonotonicUlid::new();
        let start = Ulid::MAX_RANDOM / 3;
        let values: Vec<Ulid> = (0..1000)
            .map(|_| generator.next(42, || start).unwrap())
            .collect();
        for (i, value) in values.iter().enumerate() {
            assert_eq!(*value, Ulid::from_parts(42, start + i as u128));
        }
    }
}
