//! The wall clock, in Unix milliseconds.

/// The current wall-clock time in whole Unix milliseconds, read at the call (not the
/// transaction's start). `None` if the clock is set before 1970.
#[inline]
pub fn unix_ms_now() -> Option<u64> {
    Some(unix_ns_now()? / 1_000_000)
}

/// The current wall-clock time in Unix nanoseconds; `None` before 1970.
///
/// `clock_gettime(CLOCK_REALTIME)` directly: `SystemTime::duration_since` costs as much again
/// as the clock read itself, and this runs once per generated id.
#[inline]
pub fn unix_ns_now() -> Option<u64> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec to write; CLOCK_REALTIME always exists.
    unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut now) };
    let seconds = u64::try_from(now.tv_sec).ok()?;
    Some(seconds * 1_000_000_000 + now.tv_nsec as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{SystemTime, UNIX_EPOCH};

    #[test]
    fn agrees_with_the_standard_library_and_moves_forward() {
        let before = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        let a = unix_ms_now().unwrap();
        let after = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        assert!(before <= a && a <= after, "{before} <= {a} <= {after}");
        std::thread::sleep(std::time::Duration::from_millis(3));
        let b = unix_ms_now().unwrap();
        assert!(b > a, "{a} then {b}");
    }
}
