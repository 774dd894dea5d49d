//! The wall clock, in Unix milliseconds.

/// The current wall-clock time in whole Unix milliseconds, read at the call (not the
/// transaction's start). `None` if the clock is set before 1970. (Milliseconds from the seconds
/// and nanoseconds directly: a ULID's range ends in the year 10889, past what a `u64` of
/// nanoseconds holds, the year 2554.)
#[inline]
pub fn unix_ms_now() -> Option<u64> {
    let (seconds, nanos) = read_clock()?;
    seconds
        .checked_mul(1_000)?
        .checked_add(u64::from(nanos) / 1_000_000)
}

/// The current wall-clock time in Unix nanoseconds; `None` before 1970, or after 2554 (where a
/// `u64` of nanoseconds ends; a Ulid-Flake's range ends in 2302).
#[inline]
pub fn unix_ns_now() -> Option<u64> {
    let (seconds, nanos) = read_clock()?;
    seconds
        .checked_mul(1_000_000_000)?
        .checked_add(u64::from(nanos))
}

/// `clock_gettime(CLOCK_REALTIME)` directly, as Unix seconds and nanoseconds: `SystemTime`'s
/// `duration_since` costs as much again as the clock read itself, and this runs once per
/// generated id. `None` before 1970.
#[inline]
fn read_clock() -> Option<(u64, u32)> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec to write; CLOCK_REALTIME always exists.
    unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut now) };
    #[cfg(feature = "pg_test")]
    let now = test_hook::shifted(now);
    Some((u64::try_from(now.tv_sec).ok()?, now.tv_nsec as u32))
}

/// A seam for the in-server tests: moves this process's clock readings by a number of seconds,
/// to reach what a real clock outside the types' ranges would do, or stops them, as a clock
/// that does not move. Compiled only with the `pg_test` feature (`cargo pgrx test`), never into
/// an installed extension.
#[cfg(feature = "pg_test")]
pub mod test_hook {
    use std::sync::atomic::{AtomicI64, Ordering};

    static SHIFT_SECONDS: AtomicI64 = AtomicI64::new(0);
    /// The frozen reading in nanoseconds, or 0.
    static FROZEN_NS: AtomicI64 = AtomicI64::new(0);

    /// Every later clock reading of this process is `seconds` later (earlier if negative).
    pub fn shift_clock(seconds: i64) {
        SHIFT_SECONDS.store(seconds, Ordering::Relaxed);
    }

    /// With `true`, every later clock reading of this process is the reading of this moment (a
    /// clock that has stopped), until `false`.
    pub fn freeze_clock(frozen: bool) {
        let now = if frozen {
            let now = std::time::UNIX_EPOCH.elapsed().unwrap();
            now.as_nanos() as i64
        } else {
            0
        };
        FROZEN_NS.store(now, Ordering::Relaxed);
    }

    pub(super) fn shifted(mut now: libc::timespec) -> libc::timespec {
        let frozen = FROZEN_NS.load(Ordering::Relaxed);
        if frozen != 0 {
            now.tv_sec = (frozen / 1_000_000_000) as libc::time_t;
            now.tv_nsec = (frozen % 1_000_000_000) as libc::c_long;
        }
        now.tv_sec += SHIFT_SECONDS.load(Ordering::Relaxed) as libc::time_t;
        now
    }
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
