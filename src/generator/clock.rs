//! The wall clock, in Unix milliseconds.

use std::time::{SystemTime, UNIX_EPOCH};

/// The current wall-clock time in whole Unix milliseconds, read at the call (not the
/// transaction's start). `None` if the clock is set before 1970.
#[inline]
pub fn unix_ms_now() -> Option<u64> {
    let since_epoch = SystemTime::now().duration_since(UNIX_EPOCH).ok()?;
    u64::try_from(since_epoch.as_millis()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_reads_after_2024_and_moves_forward() {
        let a = unix_ms_now().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(3));
        let b = unix_ms_now().unwrap();
        assert!(a > 1_704_067_200_000, "{a}");
        assert!(b > a, "{a} then {b}");
    }
}
