//! The Ulid-Flake generator: one state for the whole server, shared by every backend.
//!
//! The state is the last value handed out, in one `AtomicU64` (in PostgreSQL's shared memory;
//! here just a reference). Each call computes the next value from it and installs it with a
//! compare-and-swap, so every call gets a value strictly greater than every call before it,
//! whichever backend made that one. The clock, the random draws and the sleep are passed in.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::codec::ulidflake::Ulidflake;

/// How the low 20 bits are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// 20 random bits.
    Standalone,
    /// 15 random bits and this scalability id (0..=31).
    Scalable(u8),
}

/// The random inputs of one call.
#[derive(Clone, Copy, Debug)]
pub struct Draw {
    /// Randomness for a new millisecond (masked to 20 or 15 bits).
    pub fresh: u32,
    /// Step within the same millisecond, 1..=255.
    pub increment: u32,
}

/// What follows a given last value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Value(Ulidflake),
    /// The randomness of this millisecond is used up: wait until the clock passes it.
    WaitFor {
        timestamp_ms: u64,
    },
}

/// The next value after `last` when the clock reads `now_ms` (milliseconds since the Ulid-Flake
/// epoch):
/// - a later millisecond than `last`'s: `now_ms` and fresh randomness;
/// - the same millisecond, or an earlier one (the clock went back): `last`'s millisecond and
///   `last`'s randomness + `increment`, never carrying into the timestamp; a scalable value keeps
///   its scalability id;
/// - that would pass the largest randomness: [`Step::WaitFor`].
#[inline]
pub fn next_after(last: Ulidflake, now_ms: u64, layout: Layout, draw: Draw) -> Step {
    let last_ms = last.timestamp_ms();
    if now_ms > last_ms {
        return Step::Value(match layout {
            Layout::Standalone => Ulidflake::standalone(now_ms, draw.fresh),
            Layout::Scalable(id) => Ulidflake::scalable(now_ms, draw.fresh, id),
        });
    }
    let (random, max) = match layout {
        Layout::Standalone => (last.random(), Ulidflake::MAX_RANDOM),
        Layout::Scalable(_) => (last.scalable_random(), Ulidflake::MAX_SCALABLE_RANDOM),
    };
    let random = random + draw.increment;
    if random > max {
        return Step::WaitFor {
            timestamp_ms: last_ms,
        };
    }
    Step::Value(match layout {
        Layout::Standalone => Ulidflake::standalone(last_ms, random),
        Layout::Scalable(id) => Ulidflake::scalable(last_ms, random, id),
    })
}

/// How long a call waits for the clock to pass a used-up millisecond before it gives up.
pub const MAX_WAIT: Duration = Duration::from_secs(1);
/// The longest single sleep of a wait, so that a cancel is noticed soon.
pub const WAIT_STEP: Duration = Duration::from_millis(10);

/// What a call does about used-up millisecond `timestamp_ms` (since the Ulid-Flake epoch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// Sleep this long, then read the clock again.
    Sleep(Duration),
    /// Give up: the clock is more than [`MAX_WAIT`] behind that millisecond (it was set back
    /// after ids were made; waiting would only make every call slow), or this call has waited
    /// [`MAX_WAIT`] already.
    GiveUp,
}

/// The wait for the clock to pass `timestamp_ms`, when it reads `now_ns` (Unix nanoseconds) and
/// the call has waited `waited` so far.
pub fn plan_wait(timestamp_ms: u64, now_ns: u64, waited: Duration) -> Wait {
    let passed_ns = (Ulidflake::EPOCH_UNIX_MS + timestamp_ms + 1) * 1_000_000;
    let ahead = Duration::from_nanos(passed_ns.saturating_sub(now_ns));
    if ahead > MAX_WAIT || waited > MAX_WAIT {
        return Wait::GiveUp;
    }
    Wait::Sleep(ahead.min(WAIT_STEP))
}

/// Why no value was generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// The clock reads outside 2024-01-01 .. 2302-09-27T15:10:22.207Z.
    ClockOutOfRange,
    /// The millisecond `timestamp_ms` is used up and the clock did not pass it before `wait`
    /// gave up.
    ClockStuck { timestamp_ms: u64 },
}

/// Generates the next value of a shared sequence: reads the clock, computes [`next_after`] the shared
/// `last` value and installs the result with a compare-and-swap, retrying if another backend got
/// there first. While the millisecond is used up it calls `wait(millisecond)`, which waits for
/// the clock to pass it (or part of the way) and returns `false` to give up; then it reads the
/// clock again.
#[inline]
pub fn generate(
    last: &AtomicU64,
    layout: Layout,
    draw: Draw,
    mut clock: impl FnMut() -> Option<u64>,
    mut wait: impl FnMut(u64) -> bool,
) -> Result<Ulidflake, GenerateError> {
    loop {
        let now_ms = clock().ok_or(GenerateError::ClockOutOfRange)?;
        let current = last.load(Ordering::Acquire);
        // Only this module stores into `last`, always a valid value.
        let previous = Ulidflake::from_bits(current).expect("the shared state holds a Ulid-Flake");
        match next_after(previous, now_ms, layout, draw) {
            Step::Value(next) => {
                if last
                    .compare_exchange_weak(
                        current,
                        next.to_bits(),
                        Ordering::AcqRel,
                        Ordering::Acquire,
                    )
                    .is_ok()
                {
                    return Ok(next);
                }
            }
            Step::WaitFor { timestamp_ms } => {
                if !wait(timestamp_ms) {
                    return Err(GenerateError::ClockStuck { timestamp_ms });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DRAW: Draw = Draw {
        fresh: 0x12345,
        increment: 7,
    };

    fn value(step: Step) -> Ulidflake {
        match step {
            Step::Value(v) => v,
            other => panic!("expected a value, got {other:?}"),
        }
    }

    #[test]
    fn a_new_millisecond_takes_fresh_randomness() {
        let last = Ulidflake::standalone(100, 999);
        assert_eq!(
            value(next_after(last, 101, Layout::Standalone, DRAW)),
            Ulidflake::standalone(101, 0x12345)
        );
        assert_eq!(
            value(next_after(last, 101, Layout::Scalable(9), DRAW)),
            Ulidflake::scalable(101, 0x12345 & 0x7FFF, 9)
        );
    }

    #[test]
    fn the_same_millisecond_adds_the_increment() {
        let last = Ulidflake::standalone(100, 999);
        for increment in [1, 128, 255] {
            let next = value(next_after(
                last,
                100,
                Layout::Standalone,
                Draw {
                    fresh: 0,
                    increment,
                },
            ));
            assert_eq!(next, Ulidflake::standalone(100, 999 + increment));
        }
        let last = Ulidflake::scalable(100, 999, 9);
        for increment in [1, 128, 255] {
            let next = value(next_after(
                last,
                100,
                Layout::Scalable(9),
                Draw {
                    fresh: 0,
                    increment,
                },
            ));
            assert_eq!(next, Ulidflake::scalable(100, 999 + increment, 9));
            assert_eq!(next.scalability_id(), 9);
        }
    }

    #[test]
    fn a_clock_behind_the_last_value_keeps_its_millisecond() {
        let last = Ulidflake::standalone(100, 5);
        assert_eq!(
            value(next_after(last, 40, Layout::Standalone, DRAW)),
            Ulidflake::standalone(100, 12)
        );
    }

    #[test]
    fn overflow_waits_instead_of_carrying() {
        let last = Ulidflake::standalone(100, Ulidflake::MAX_RANDOM - 6);
        assert_eq!(
            next_after(last, 100, Layout::Standalone, DRAW),
            Step::WaitFor { timestamp_ms: 100 }
        );
        let last = Ulidflake::standalone(100, Ulidflake::MAX_RANDOM - 7);
        assert_eq!(
            value(next_after(last, 100, Layout::Standalone, DRAW)),
            Ulidflake::standalone(100, Ulidflake::MAX_RANDOM)
        );
        let last = Ulidflake::scalable(100, Ulidflake::MAX_SCALABLE_RANDOM - 6, 3);
        assert_eq!(
            next_after(last, 100, Layout::Scalable(3), DRAW),
            Step::WaitFor { timestamp_ms: 100 }
        );
    }

    #[test]
    fn switching_layouts_still_increases() {
        let standalone = Ulidflake::standalone(100, 0xF0000);
        let scalable = value(next_after(standalone, 100, Layout::Scalable(31), DRAW));
        assert!(scalable > standalone);
        let back = value(next_after(scalable, 100, Layout::Standalone, DRAW));
        assert!(back > scalable);
    }

    #[test]
    fn generate_waits_until_the_next_millisecond() {
        let last = AtomicU64::new(Ulidflake::standalone(100, Ulidflake::MAX_RANDOM).to_bits());
        let mut readings = [100, 100, 99, 101].into_iter();
        let mut waited_for = vec![];
        let wait = |ms| {
            waited_for.push(ms);
            true
        };
        let got = generate(&last, Layout::Standalone, DRAW, || readings.next(), wait);
        assert_eq!(got, Ok(Ulidflake::standalone(101, 0x12345)));
        assert_eq!(waited_for, [100, 100, 100]);
        let stored = last.load(Ordering::SeqCst);
        assert_eq!(stored, Ulidflake::standalone(101, 0x12345).to_bits());
    }

    #[test]
    fn generate_fails_if_the_clock_does_not_advance() {
        let full = Ulidflake::standalone(100, Ulidflake::MAX_RANDOM).to_bits();
        let last = AtomicU64::new(full);
        let mut waits = 0;
        let wait = |_| {
            waits += 1;
            waits <= 5
        };
        let got = generate(&last, Layout::Standalone, DRAW, || Some(100), wait);
        assert_eq!(got, Err(GenerateError::ClockStuck { timestamp_ms: 100 }));
        assert_eq!(waits, 6);
        assert_eq!(last.load(Ordering::SeqCst), full);
        let out_of_range = generate(&last, Layout::Standalone, DRAW, || None, |_| true);
        assert_eq!(out_of_range, Err(GenerateError::ClockOutOfRange));
    }

    /// 2025-01-01T00:00:00Z as Ulid-Flake milliseconds, and in Unix nanoseconds.
    const MS_2025: u64 = 1_735_689_600_000 - Ulidflake::EPOCH_UNIX_MS;
    const NS_2025: u64 = 1_735_689_600_000 * 1_000_000;

    #[test]
    fn a_wait_sleeps_in_steps_until_the_millisecond_has_passed() {
        let ms = Duration::from_millis;
        // 5 ms before the end of the millisecond: one sleep of 5 ms.
        let now = NS_2025 - 4_000_000;
        assert_eq!(plan_wait(MS_2025, now, ms(0)), Wait::Sleep(ms(5)));
        // 0.9 s ahead: steps of 10 ms.
        assert_eq!(
            plan_wait(MS_2025 + 899, NS_2025, ms(0)),
            Wait::Sleep(WAIT_STEP)
        );
        // Exactly at the end of the millisecond: no sleep left, the next reading passes it.
        assert_eq!(
            plan_wait(MS_2025, NS_2025 + 1_000_000, ms(0)),
            Wait::Sleep(ms(0))
        );
        assert_eq!(
            plan_wait(MS_2025, NS_2025 + 7_000_000, ms(0)),
            Wait::Sleep(ms(0))
        );
    }

    #[test]
    fn a_wait_gives_up_far_behind_or_after_a_second() {
        let ms = Duration::from_millis;
        // The clock 1.1 s behind the millisecond: at once.
        assert_eq!(plan_wait(MS_2025 + 1100, NS_2025, ms(0)), Wait::GiveUp);
        // Just within a second: it waits...
        assert_eq!(
            plan_wait(MS_2025 + 998, NS_2025, ms(0)),
            Wait::Sleep(WAIT_STEP)
        );
        // ...until it has waited a second in all (a clock that does not move).
        assert_eq!(
            plan_wait(MS_2025 + 5, NS_2025, ms(1000)),
            Wait::Sleep(ms(6))
        );
        assert_eq!(plan_wait(MS_2025 + 5, NS_2025, ms(1001)), Wait::GiveUp);
    }

    /// Four threads hammer one state in the same few milliseconds: no value twice, and each
    /// thread's values strictly increase.
    #[test]
    fn concurrent_callers_never_collide() {
        let last = AtomicU64::new(0);
        let clock = || {
            Some(
                std::time::UNIX_EPOCH.elapsed().unwrap().as_millis() as u64
                    - Ulidflake::EPOCH_UNIX_MS,
            )
        };
        let per_thread: Vec<Vec<Ulidflake>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..4u32)
                .map(|t| {
                    let last = &last;
                    scope.spawn(move || {
                        (0..50_000u32)
                            .map(|i| {
                                let draw = Draw {
                                    fresh: i.wrapping_mul(2_654_435_761) ^ t,
                                    increment: 1 + (i * 37 + t) % 255,
                                };
                                let wait = |_| {
                                    std::thread::yield_now();
                                    true
                                };
                                generate(last, Layout::Standalone, draw, clock, wait).unwrap()
                            })
                            .collect()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for values in &per_thread {
            assert!(values.windows(2).all(|w| w[0] < w[1]));
        }
        let mut all: Vec<Ulidflake> = per_thread.concat();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 200_000);
    }
}
