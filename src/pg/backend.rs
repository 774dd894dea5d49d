//! State that each backend keeps for itself: its CSPRNG and its monotonic ULID generator.
//!
//! A backend is one process with one thread. Every process PostgreSQL starts is a `fork()` (of
//! the postmaster, which may have loaded the library first), and code running in a backend may
//! fork again (PL/Python's `os.fork()`, another extension). A child must not continue its
//! parent's random stream: the library registers a `pthread_atfork` handler that empties the
//! state in every forked child, which then seeds its own from the OS on first use. (Comparing
//! `MyProcPid` is not enough: only PostgreSQL's own forks update it.) Nothing is checked per call.

use std::cell::RefCell;

use pgrx::PgSqlErrorCode;
use rand::rngs::StdRng;

use crate::generator::entropy::{self, PerProcess};
use crate::generator::monotonic::MonotonicUlid;
use crate::pg::error::raise;

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

/// Registers the fork handler. Called in `_PG_init`, once per process that loads the library;
/// a forked child inherits the registration.
pub fn init() {
    // SAFETY: registers a handler that only writes this library's static (see `forget_in_child`).
    let registered = unsafe { libc::pthread_atfork(None, None, Some(forget_in_child)) };
    assert_eq!(registered, 0, "pthread_atfork failed");
}

/// Runs in every child right after `fork()`: the state is emptied, so the child seeds its own.
extern "C" fn forget_in_child() {
    // SAFETY: the child has one thread, and no Rust code of this library is running in it at
    // the moment of the fork (no generator forks), so nothing borrows the state. The old state
    // owns no heap memory; it is overwritten without being dropped.
    unsafe { STATE.0.as_ptr().write(PerProcess::new()) };
}

/// Runs `f` with this backend's state, seeding it from the OS on first use in this process.
#[inline]
pub fn with_state<R>(f: impl FnOnce(&mut BackendState) -> R) -> R {
    let mut slot = STATE.0.borrow_mut();
    let state = slot.get(|| {
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

/// For the in-server tests: drops this backend's state, so the next generator call seeds again.
#[cfg(any(test, feature = "pg_test"))]
pub fn forget_state() {
    *STATE.0.borrow_mut() = PerProcess::new();
}
