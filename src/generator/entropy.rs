//! Randomness for the generators: a ChaCha12 CSPRNG (`rand::rngs::StdRng`) per process, seeded
//! from the operating system.
//!
//! A PostgreSQL backend is a `fork()` of the postmaster, and parallel workers are forks too. State
//! that a parent built would be copied into every child, and two children would then hand out the
//! same "random" numbers. So the state is built lazily, in the process that uses it, and the
//! glue (`crate::pg::backend`) empties it in every forked child.

use rand::rngs::{StdRng, SysRng};
use rand::{Rng, SeedableRng};

/// The random source could not be seeded: the operating system refused us entropy.
#[derive(Debug)]
pub struct SeedError(pub String);

/// State that belongs to one process, built on first use: the fork handler resets it to
/// [`PerProcess::new`] in every child.
#[derive(Debug)]
pub struct PerProcess<T> {
    state: Option<T>,
}

impl<T> PerProcess<T> {
    pub const fn new() -> Self {
        PerProcess { state: None }
    }

    /// The state, built with `init` if there is none yet; if `init` fails, the next call tries
    /// again.
    #[inline]
    pub fn get(
        &mut self,
        init: impl FnOnce() -> Result<T, SeedError>,
    ) -> Result<&mut T, SeedError> {
        if self.state.is_none() {
            self.state = Some(init()?);
        }
        match &mut self.state {
            Some(state) => Ok(state),
            None => unreachable!("set just above"),
        }
    }
}

impl<T> Default for PerProcess<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// A CSPRNG seeded from the operating system (getrandom(2)), never from another generator.
pub fn seeded_from_os() -> Result<StdRng, SeedError> {
    #[cfg(feature = "pg_test")]
    if test_hook::REFUSE_ENTROPY.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(SeedError("no entropy (ulid test hook)".into()));
    }
    StdRng::try_from_rng(&mut SysRng).map_err(|e| SeedError(e.to_string()))
}

/// A seam for the in-server tests: makes seeding fail in this process, as it would if the
/// operating system refused entropy. Compiled only with the `pg_test` feature (`cargo pgrx
/// test`), never into an installed extension.
#[cfg(feature = "pg_test")]
pub mod test_hook {
    use std::sync::atomic::AtomicBool;

    pub static REFUSE_ENTROPY: AtomicBool = AtomicBool::new(false);
}

/// 80 uniformly random bits, in the low bits of a `u128`.
#[inline]
pub fn random_u80(rng: &mut StdRng) -> u128 {
    let high = rng.next_u32() as u128 & 0xFFFF;
    let low = rng.next_u64() as u128;
    (high << 64) | low
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_built_once_until_reset() {
        let mut builds = 0;
        let mut state = PerProcess::new();
        let mut get = |state: &mut PerProcess<i32>| {
            *state
                .get(|| {
                    builds += 1;
                    Ok(builds * 10)
                })
                .unwrap()
        };
        assert_eq!(get(&mut state), 10);
        assert_eq!(get(&mut state), 10);
        state = PerProcess::new();
        assert_eq!(get(&mut state), 20);
        assert_eq!(builds, 2);
    }

    #[test]
    fn seeding_failure_is_reported_and_retried() {
        let mut state: PerProcess<u8> = PerProcess::new();
        assert!(state.get(|| Err(SeedError("no entropy".into()))).is_err());
        assert_eq!(*state.get(|| Ok(7)).unwrap(), 7);
    }

    #[test]
    fn two_os_seeded_generators_differ() {
        let mut a = seeded_from_os().unwrap();
        let mut b = seeded_from_os().unwrap();
        let xs: Vec<u128> = (0..4).map(|_| random_u80(&mut a)).collect();
        let ys: Vec<u128> = (0..4).map(|_| random_u80(&mut b)).collect();
        assert_ne!(xs, ys);
    }

    #[test]
    fn random_u80_uses_exactly_80_bits() {
        let mut rng = seeded_from_os().unwrap();
        let mut seen_or = 0u128;
        for _ in 0..2000 {
            let r = random_u80(&mut rng);
            assert!(r < (1 << 80));
            seen_or |= r;
        }
        // With 2000 draws every one of the 80 bits is set somewhere (each misses with p = 2^-2000).
        assert_eq!(seen_or, (1 << 80) - 1);
    }
}
