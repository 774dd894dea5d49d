//! State that each backend keeps for itself: its CSPRNG and its monotonic ULID generator.
//!
//! A backend is one process with one thread. The state is tied to the process id
//! (`MyProcPid`), so a process forked from one that already held state (a postmaster that
//! preloaded the library, say) seeds its own from the OS instead of repeating the parent's stream.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};

use pgrx::{pg_sys, PgSqlErrorCode};
use rand::rngs::StdRng;

use crate::generator::entropy::{self, PerProcess};
use crate::generator::monotonic::MonotonicUlid;
use crate::pg::error::{raise, raise_with_hint};

pub struct BackendState {
    pub rng: StdRng,
    pub monotonic_ulid: MonotonicUlid,
}

/// A `static` for state of the process's one thread. A PostgreSQL backend runs extension code on
/// its main thread only (pgrx checks this at every call into PostgreSQL), so the `RefCell` is
/// never shared; a `thread_local!` would cost a `__tls_get_addr` call per generated id.
struct BackendLocal<T>(RefCell<T>);

// SAFETY: only the backend's main thread runs extension code (see above).
unsafe impl<T> Sync for BackendLocal<T> {}

static STATE: BackendLocal<PerProcess<BackendState>> =
    BackendLocal(RefCell::new(PerProcess::new()));

/// Runs `f` with this backend's state, seeding it from the OS on first use in this process.
#[inline]
pub fn with_state<R>(f: impl FnOnce(&mut BackendState) -> R) -> R {
    // SAFETY: MyProcPid is set once at process start and only read afterwards.
    let pid = unsafe { pg_sys::MyProcPid };
    let mut slot = STATE.0.borrow_mut();
    let state = slot.get(pid, || {
        Ok(BackendState {
            rng: entropy::seeded_from_os()?,
            monotonic_ulid: MonotonicUlid::new(),
        })
    });
    match state {
        Ok(state) => f(state),
        Err(e) => raise(
            PgSqlErrorCode::ERRCODE_INTERNAL_ERROR,
            format!("could not seed the random number generator: {}", e.0),
        ),
    }
}

/// Whether this process has the server-wide state in shared memory: the postmaster loaded the
/// library through `shared_preload_libraries` (see [`preloading`]).
static SHARED_MEMORY: AtomicBool = AtomicBool::new(false);

/// Whether the library is being loaded by the postmaster, through `shared_preload_libraries`:
/// then, and only then, it can ask for shared memory. Call in `_PG_init`; remembers the answer.
pub fn preloading() -> bool {
    // SAFETY: a plain read of a flag PostgreSQL sets while it loads the preloaded libraries.
    let preloading = unsafe { pg_sys::process_shared_preload_libraries_in_progress };
    if preloading {
        SHARED_MEMORY.store(true, Ordering::Relaxed);
    }
    preloading
}

/// Raises `55000`, with a hint saying what to add, unless the server-wide state exists: the
/// generators that keep it (`function`) refuse to run rather than hand out values that could
/// repeat.
#[inline]
pub fn require_shared_memory(function: &str) {
    if !SHARED_MEMORY.load(Ordering::Relaxed) {
        raise_with_hint(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!("{function} needs the ulid library loaded via \"shared_preload_libraries\""),
            &format!(
                "Add 'ulid' to shared_preload_libraries in postgresql.conf and restart the server: \
                 {function} keeps its server-wide state in shared memory."
            ),
        );
    }
}

/// For the in-server tests: drops this backend's state, so the next generator call seeds again.
#[cfg(any(test, feature = "pg_test"))]
pub fn forget_state() {
    *STATE.0.borrow_mut() = PerProcess::new();
}
