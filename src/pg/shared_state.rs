//! The state of the generators that keep one sequence for many sessions,
//! `gen_server_monotonic_ulid()` and `gen_ulidflake()`: in shared memory, one slot per database.
//!
//! Each database has its own slot (its own last ULID and last Ulid-Flake), so the ids one
//! database is handed say nothing about the ids of another: a role that can only read its own
//! ids learns no more than the clock tells. (With one state for the server, the next id of a
//! busy millisecond was the previous one + 1, and the gaps in one database's ids were the other
//! databases' ids.)
//!
//! Shared memory is sized when the server starts: `ulid.max_databases` slots (default 1024).
//! A database takes a free slot the first time one of its sessions generates, and keeps it
//! until the server stops. When none is free, the slots of databases that were dropped are
//! freed; if there are still none, the generators raise `53400` (configuration_limit_exceeded)
//! with a hint, rather than share a slot between databases: no database ever hands out a
//! duplicate or a backwards id, or sees another's.
//!
//! Locks: one LWLock for the table (taken to claim or free a slot), and one per slot for its
//! ULID state. The Ulid-Flake state is one 64-bit atomic, updated with compare-and-swap.

use core::cell::{Cell, UnsafeCell};
use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use pgrx::{pg_sys, GucContext, GucFlags, GucRegistry, GucSetting, PgSqlErrorCode};

use crate::generator::monotonic::MonotonicUlid;
use crate::pg::error::raise_with_hint;

/// One database's state.
#[repr(C)]
pub struct Slot {
    /// The database's OID, or 0 while the slot is free. Written under the table lock.
    database: AtomicU32,
    /// The last Ulid-Flake handed out in this database.
    pub flake_last: AtomicU64,
    /// The state of `gen_server_monotonic_ulid()` in this database, under `lock`.
    ulid: UnsafeCell<MonotonicUlid>,
    lock: *mut pg_sys::LWLock,
}

/// The table in shared memory: a header and `slot_count` slots.
#[repr(C)]
struct Table {
    lock: *mut pg_sys::LWLock,
    slot_count: usize,
    slots: [Slot; 0],
}

impl Table {
    fn slots(&self) -> &[Slot] {
        // SAFETY: shared memory holds `slot_count` slots right after the header.
        unsafe { core::slice::from_raw_parts(self.slots.as_ptr(), self.slot_count) }
    }
}

/// `ulid.max_databases`: how many databases can have generator state at once.
static MAX_DATABASES: GucSetting<i32> = GucSetting::<i32>::new(1024);

/// The shared table, once the postmaster has set it up (the library is preloaded); children of
/// the postmaster inherit the address.
static TABLE: AtomicU64 = AtomicU64::new(0);

/// The name of the shared memory and of the LWLock tranche.
const NAME: &core::ffi::CStr = c"ulid";

/// A `static` for state of the process's one thread (see `crate::pg::backend`).
struct BackendLocal<T>(T);
// SAFETY: only the backend's main thread runs extension code.
unsafe impl<T> Sync for BackendLocal<T> {}

/// This backend's slot, once it has one: a backend stays in one database.
static THIS_DATABASE: BackendLocal<Cell<*const Slot>> = BackendLocal(Cell::new(core::ptr::null()));

/// When the postmaster preloads the library: registers `ulid.max_databases` and asks for the
/// shared memory. Called in `_PG_init`. (A setting that takes effect at server start can only
/// be defined then: in a backend that loads the library later there is no such setting, and
/// no shared state.)
pub fn init() {
    // SAFETY: a plain read of a flag PostgreSQL sets while it loads the preloaded libraries.
    if !unsafe { pg_sys::process_shared_preload_libraries_in_progress } {
        return;
    }
    GucRegistry::define_int_guc(
        c"ulid.max_databases",
        c"How many databases can use gen_server_monotonic_ulid() and gen_ulidflake() at once.",
        c"Each such database keeps its generator state in a slot of shared memory, sized at server start.",
        &MAX_DATABASES,
        1,
        65_536,
        GucContext::Postmaster,
        GucFlags::default(),
    );
    crate::pg::compat::on_shmem_request(request);
    // SAFETY: _PG_init runs once, in the postmaster, before the hook is called.
    unsafe {
        PREVIOUS_STARTUP = pg_sys::shmem_startup_hook;
        pg_sys::shmem_startup_hook = Some(startup);
    }
}

fn slot_count() -> usize {
    usize::try_from(MAX_DATABASES.get()).unwrap_or(1).max(1)
}

fn table_size() -> usize {
    core::mem::size_of::<Table>() + slot_count() * core::mem::size_of::<Slot>()
}

/// Asks for the table's memory and one LWLock for it and one per slot.
unsafe extern "C-unwind" fn request() {
    // SAFETY: called where PostgreSQL takes shared memory requests.
    unsafe {
        pg_sys::RequestAddinShmemSpace(table_size());
        pg_sys::RequestNamedLWLockTranche(NAME.as_ptr(), (slot_count() + 1) as i32);
    }
}

static mut PREVIOUS_STARTUP: pg_sys::shmem_startup_hook_type = None;

/// Sets the table up in shared memory (in the postmaster, at start and after a crash), or finds
/// it (in a child process where it is not inherited).
#[pgrx::pg_guard]
unsafe extern "C-unwind" fn startup() {
    // SAFETY: PostgreSQL calls this hook with the shared memory of the server attached; the table
    // is initialised once, under AddinShmemInitLock, with its own memory and locks.
    unsafe {
        if let Some(previous) = PREVIOUS_STARTUP {
            previous();
        }
        let init_lock = &raw mut (*pg_sys::MainLWLockArray.add(21)).lock;
        pg_sys::LWLockAcquire(init_lock, pg_sys::LWLockMode::LW_EXCLUSIVE);
        let mut found = false;
        let table =
            pg_sys::ShmemInitStruct(NAME.as_ptr(), table_size(), &mut found).cast::<Table>();
        if !found {
            let locks = pg_sys::GetNamedLWLockTranche(NAME.as_ptr());
            table.write(Table {
                lock: &raw mut (*locks).lock,
                slot_count: slot_count(),
                slots: [],
            });
            let slots = (*table).slots.as_mut_ptr();
            for i in 0..slot_count() {
                slots.add(i).write(Slot {
                    database: AtomicU32::new(0),
                    flake_last: AtomicU64::new(0),
                    ulid: UnsafeCell::new(MonotonicUlid::new()),
                    lock: &raw mut (*locks.add(i + 1)).lock,
                });
            }
        }
        TABLE.store(table as u64, Ordering::Release);
        pg_sys::LWLockRelease(init_lock);
    }
}

/// The state of this backend's database, claiming a slot for it on first use. `function` is the
/// SQL function asking, for the errors: `55000` if the library was not preloaded (there is no
/// shared state), `53400` if every slot is taken by a database that still exists.
#[inline]
pub fn this_database(function: &str) -> &'static Slot {
    let cached = THIS_DATABASE.0.get();
    if !cached.is_null() {
        // SAFETY: a slot in shared memory, which lives as long as the process.
        return unsafe { &*cached };
    }
    claim(function)
}

#[cold]
fn claim(function: &str) -> &'static Slot {
    let table = TABLE.load(Ordering::Acquire) as *const Table;
    if table.is_null() {
        raise_with_hint(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!("{function} needs the ulid library loaded via \"shared_preload_libraries\""),
            &format!(
                "Add 'ulid' to shared_preload_libraries in postgresql.conf and restart the server: \
                 {function} keeps its state in shared memory."
            ),
        );
    }
    // SAFETY: set up by the postmaster, lives as long as the process.
    let table = unsafe { &*table };
    // SAFETY: a plain read: the backend's database is set once, before any SQL runs.
    let database = unsafe { pg_sys::MyDatabaseId }.to_u32();
    for attempt in 0..2 {
        if let Some(slot) = with_lock(table.lock, || find_or_take(table, database)) {
            THIS_DATABASE.0.set(slot);
            return slot;
        }
        if attempt == 0 && !free_dropped_databases(table) {
            break;
        }
    }
    raise_with_hint(
        PgSqlErrorCode::ERRCODE_CONFIGURATION_LIMIT_EXCEEDED,
        format!(
            "{function}: all {} slots of ulid.max_databases are taken by other databases",
            table.slot_count
        ),
        "Raise ulid.max_databases in postgresql.conf and restart the server.",
    )
}

/// The slot of `database`, or a free one, which it then takes (with a fresh state). Under the
/// table lock.
fn find_or_take(table: &Table, database: u32) -> Option<&Slot> {
    let slots = table.slots();
    if let Some(slot) = slots
        .iter()
        .find(|s| s.database.load(Ordering::Relaxed) == database)
    {
        return Some(slot);
    }
    let slot = slots
        .iter()
        .find(|s| s.database.load(Ordering::Relaxed) == 0)?;
    with_lock(slot.lock, || {
        // SAFETY: under the slot's lock.
        unsafe { *slot.ulid.get() = MonotonicUlid::new() };
        slot.flake_last.store(0, Ordering::Release);
    });
    slot.database.store(database, Ordering::Release);
    Some(slot)
}

/// Frees the slots of databases that no longer exist; whether it freed any. No backend uses
/// such a slot: nobody is connected to a dropped database.
fn free_dropped_databases(table: &Table) -> bool {
    let dropped: Vec<u32> = table
        .slots()
        .iter()
        .map(|s| s.database.load(Ordering::Relaxed))
        .filter(|&oid| oid != 0 && !database_exists(oid))
        .collect();
    if dropped.is_empty() {
        return false;
    }
    with_lock(table.lock, || {
        for slot in table.slots() {
            if dropped.contains(&slot.database.load(Ordering::Relaxed)) {
                slot.database.store(0, Ordering::Release);
            }
        }
    });
    true
}

fn database_exists(oid: u32) -> bool {
    // SAFETY: a catalog lookup by key, in a transaction (a SQL function is running).
    unsafe {
        pg_sys::SearchSysCacheExists(
            pg_sys::SysCacheIdentifier::DATABASEOID as i32,
            pg_sys::Datum::from(oid),
            pg_sys::Datum::from(0),
            pg_sys::Datum::from(0),
            pg_sys::Datum::from(0),
        )
    }
}

/// Runs `f` holding `lock` exclusively.
#[inline]
fn with_lock<R>(lock: *mut pg_sys::LWLock, f: impl FnOnce() -> R) -> R {
    struct Held(*mut pg_sys::LWLock);
    impl Drop for Held {
        fn drop(&mut self) {
            // An ERROR raised by PostgreSQL while the lock was held has released it already
            // (and reset InterruptHoldoffCount): release only if still held.
            // SAFETY: the lock was acquired below.
            unsafe {
                if pg_sys::InterruptHoldoffCount > 0 {
                    pg_sys::LWLockRelease(self.0);
                }
            }
        }
    }
    // SAFETY: a valid LWLock in shared memory.
    unsafe { pg_sys::LWLockAcquire(lock, pg_sys::LWLockMode::LW_EXCLUSIVE) };
    let _held = Held(lock);
    f()
}

impl Slot {
    /// Runs `f` on this database's `gen_server_monotonic_ulid()` state, under its lock.
    #[inline]
    pub fn with_ulid<R>(&self, f: impl FnOnce(&mut MonotonicUlid) -> R) -> R {
        // SAFETY: the state is only touched under the slot's lock.
        with_lock(self.lock, || f(unsafe { &mut *self.ulid.get() }))
    }
}
