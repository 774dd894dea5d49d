//! Instants: PostgreSQL `timestamptz` values and Unix milliseconds, with integer arithmetic only.
//!
//! A `timestamptz` is a count of microseconds since 2000-01-01T00:00:00Z, with `i64::MIN` and
//! `i64::MAX` standing for `-infinity` and `infinity`. Time zones play no part: both sides are
//! instants.

/// Microseconds from 1970-01-01T00:00:00Z to PostgreSQL's epoch, 2000-01-01T00:00:00Z.
pub const PG_EPOCH_UNIX_US: i64 = 946_684_800_000_000;

/// Unix milliseconds of a `timestamptz`, sub-millisecond digits floored; `None` for an infinity.
#[inline]
pub fn pg_timestamp_to_unix_ms(timestamp: i64) -> Option<i64> {
    if timestamp == i64::MIN || timestamp == i64::MAX {
        return None;
    }
    // Widen before adding: no finite timestamp can overflow, but no arithmetic here may wrap.
    Some(((timestamp as i128 + PG_EPOCH_UNIX_US as i128).div_euclid(1000)) as i64)
}

/// The `timestamptz` of a Unix millisecond. Exact for every millisecond the two id types can hold
/// (the largest, year 10889, is far inside PostgreSQL's range, which ends in year 294276).
#[inline]
pub fn unix_ms_to_pg_timestamp(unix_ms: u64) -> i64 {
    debug_assert!(unix_ms < (1 << 53));
    unix_ms as i64 * 1000 - PG_EPOCH_UNIX_US
}

/// A `timestamptz` turned into a millisecond in `[lowest, highest]` (both Unix ms), or `None` if
/// it is infinite or outside that range. Nothing is clamped or wrapped.
#[inline]
pub fn unix_ms_within(timestamp: i64, lowest: u64, highest: u64) -> Option<u64> {
    let ms = pg_timestamp_to_unix_ms(timestamp)?;
    u64::try_from(ms)
        .ok()
        .filter(|ms| (lowest..=highest).contains(ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2025-01-01T00:00:00Z as a `timestamptz`.
    const Y2025: i64 = 789_004_800_000_000;

    #[test]
    fn epochs_line_up() {
        assert_eq!(pg_timestamp_to_unix_ms(0), Some(946_684_800_000));
        assert_eq!(pg_timestamp_to_unix_ms(-PG_EPOCH_UNIX_US), Some(0));
        assert_eq!(pg_timestamp_to_unix_ms(Y2025), Some(1_735_689_600_000));
        assert_eq!(unix_ms_to_pg_timestamp(1_735_689_600_000), Y2025);
        assert_eq!(unix_ms_to_pg_timestamp(0), -PG_EPOCH_UNIX_US);
    }

    #[test]
    fn sub_milliseconds_are_floored_not_rounded() {
        assert_eq!(
            pg_timestamp_to_unix_ms(Y2025 + 999),
            Some(1_735_689_600_000)
        );
        assert_eq!(
            pg_timestamp_to_unix_ms(Y2025 + 1000),
            Some(1_735_689_600_001)
        );
        assert_eq!(pg_timestamp_to_unix_ms(Y2025 - 1), Some(1_735_689_599_999));
        // Just before 1970: floor gives -1 ms, which no range accepts.
        assert_eq!(pg_timestamp_to_unix_ms(-PG_EPOCH_UNIX_US - 1), Some(-1));
    }

    #[test]
    fn infinities_and_range_limits() {
        let max = (1u64 << 48) - 1;
        assert_eq!(pg_timestamp_to_unix_ms(i64::MAX), None);
        assert_eq!(pg_timestamp_to_unix_ms(i64::MIN), None);
        assert_eq!(unix_ms_within(i64::MAX, 0, max), None);
        assert_eq!(unix_ms_within(-PG_EPOCH_UNIX_US, 0, max), Some(0));
        assert_eq!(unix_ms_within(-PG_EPOCH_UNIX_US - 1, 0, max), None);
        let last = unix_ms_to_pg_timestamp(max);
        assert_eq!(unix_ms_within(last + 999, 0, max), Some(max));
        assert_eq!(unix_ms_within(last + 1000, 0, max), None);
        // The smallest finite timestamptz is far before 1970.
        assert_eq!(unix_ms_within(i64::MIN + 1, 0, max), None);
    }

    #[test]
    fn round_trip_every_millisecond_of_a_sample() {
        for ms in (0..(1u64 << 48)).step_by(7_919_999_999) {
            assert_eq!(
                pg_timestamp_to_unix_ms(unix_ms_to_pg_timestamp(ms)),
                Some(ms as i64)
            );
        }
    }
}
