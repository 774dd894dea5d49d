//! The SQL type `ulidflake`: the Rust behind the functions that `sql/ulidflake_*.sql` declares.
//!
//! A `ulidflake` datum is the 64-bit value itself, passed by value like a `bigint`, so the SQL
//! files bind comparison, hashing, sort support, BRIN support, `send` and `min`/`max` to
//! PostgreSQL's own `bigint` functions. Generation keeps one sequence per database: the last
//! value handed out lives in shared memory (`crate::pg::shared_state`), which needs
//! `shared_preload_libraries = 'ulid'`. Each function's fmgr entry point is written by
//! `fmgr_entry_point!` (see `crate::pg::fmgr`).

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Instant;

use pgrx::datum::TimestampWithTimeZone;
use pgrx::{check_for_interrupts, PgSqlErrorCode};
use pgrx::{pg_sys, FromDatum, GucSetting, IntoDatum};
use rand::{Rng, RngExt};

use crate::codec::time::{unix_ms_to_pg_timestamp, unix_ms_within};
use crate::codec::ulidflake::Ulidflake;
use crate::generator::clock::{unix_ms_now, unix_ns_now};
use crate::generator::flake::{self, Draw, GenerateError, Layout, Wait};
use crate::pg::backend::with_state;
use crate::pg::datum::{parse_input, sql_type, InputText, PallocCString, Received};
use crate::pg::error::{raise, raise_with_hint, MessageBuf};
use crate::pg::fmgr::fmgr_entry_point;
use crate::pg::shared_state;

// ---------------------------------------------------------------------------------------------
// A `ulidflake` datum is the value, by value.

impl FromDatum for Ulidflake {
    #[inline]
    unsafe fn from_polymorphic_datum(
        datum: pg_sys::Datum,
        is_null: bool,
        _: pg_sys::Oid,
    ) -> Option<Self> {
        if is_null {
            return None;
        }
        // Every way into the type (input, receive, casts) rejects the sign bit.
        Some(Ulidflake::from_i64(datum.value() as i64).expect("a ulidflake is never negative"))
    }
}

impl IntoDatum for Ulidflake {
    #[inline]
    fn into_datum(self) -> Option<pg_sys::Datum> {
        Some(pg_sys::Datum::from(self.to_i64()))
    }

    fn type_oid() -> pg_sys::Oid {
        pg_sys::InvalidOid
    }
}

sql_type!(Ulidflake, "ulidflake");

// ---------------------------------------------------------------------------------------------
// The node setting.

/// `ulid.node_id`: the scalability id `gen_ulidflake()` puts in its values, or -1 for
/// stand-alone values.
static NODE_ID: GucSetting<i32> = GucSetting::<i32>::new(-1);

/// The out-of-range `ulid.node_id` that the server's configuration files hold, if they hold one
/// (else [`NO_REFUSED_NODE_ID`]): PostgreSQL keeps the previous value (-1 at start) and only logs
/// the refusal, so `gen_ulidflake()` refuses to make ids until the files are fixed, rather than
/// hand out ids without the node number their servers were meant to carry.
static REFUSED_NODE_ID: AtomicI64 = AtomicI64::new(NO_REFUSED_NODE_ID);
const NO_REFUSED_NODE_ID: i64 = i64::MIN;

/// Registers the setting. Its range is checked by [`check_node_id`], not by PostgreSQL's own
/// bounds, which would refuse an out-of-range value before the check could note it.
pub fn init() {
    // SAFETY: called while the library loads; the names are static, the variable a static of the
    // right type, and PostgreSQL copies what it keeps.
    unsafe {
        pg_sys::DefineCustomIntVariable(
            c"ulid.node_id".as_ptr(),
            c"Node number (Ulid-Flake scalability id, 0..31) that gen_ulidflake() puts in its ids; -1 makes stand-alone ids.".as_ptr(),
            c"Give each server that generates ulidflake ids for the same tables its own number, so that their ids never collide. Other values are refused; while the configuration holds one, gen_ulidflake() raises an error.".as_ptr(),
            NODE_ID.as_ptr(),
            -1,
            i32::MIN,
            i32::MAX,
            pg_sys::GucContext::PGC_SIGHUP,
            0,
            Some(check_node_id),
            None,
            None,
        );
    }
}

/// The check of `ulid.node_id`: -1..31. A refused value that comes from reading the
/// configuration files (at start or reload, outside any transaction; `ALTER SYSTEM` checks its
/// value inside one) is remembered in [`REFUSED_NODE_ID`]; an accepted one clears it.
#[pgrx::pg_guard]
unsafe extern "C-unwind" fn check_node_id(
    newval: *mut core::ffi::c_int,
    _extra: *mut *mut core::ffi::c_void,
    source: pg_sys::GucSource::Type,
) -> bool {
    // SAFETY: PostgreSQL passes the proposed value.
    let value = unsafe { *newval };
    if (-1..=i32::from(Ulidflake::MAX_SCALABILITY_ID)).contains(&value) {
        REFUSED_NODE_ID.store(NO_REFUSED_NODE_ID, Ordering::Relaxed);
        return true;
    }
    // SAFETY: plain calls; the detail is copied into the current memory context, where
    // PostgreSQL expects it.
    unsafe {
        if source == pg_sys::GucSource::PGC_S_FILE && !pg_sys::IsTransactionState() {
            REFUSED_NODE_ID.store(i64::from(value), Ordering::Relaxed);
        }
        pg_sys::GUC_check_errdetail_string =
            pg_sys::pstrdup(c"ulid.node_id must be between -1 and 31.".as_ptr());
    }
    false
}

// ---------------------------------------------------------------------------------------------
// Text and binary I/O.

/// Text input: 13 Crockford base32 characters, any case. Bad input is `22P02`, reported softly
/// where the caller asks for that, as for `ulid`.
#[inline]
fn ulidflake_in(input: InputText, message: &mut MessageBuf) -> Option<Ulidflake> {
    parse_input(input, message, "ulidflake")
}
fmgr_entry_point!(
    pg_finfo_ulidflake_in_wrapper,
    ulidflake_in_wrapper,
    input ulidflake_in
);

/// Text output: 13 upper-case characters.
#[inline]
fn ulidflake_out(value: Ulidflake) -> PallocCString {
    PallocCString::new(&value.encode())
}
fmgr_entry_point!(
    pg_finfo_ulidflake_out_wrapper,
    ulidflake_out_wrapper,
    ulidflake_out,
    Ulidflake
);

/// Binary input: the 8 bytes of a `bigint`, most significant first; any other length, or the
/// sign bit set, is `22P03`.
fn ulidflake_recv(received: Received) -> Ulidflake {
    Ulidflake::from_be_slice(received.0).unwrap_or_else(|problem| {
        raise(
            PgSqlErrorCode::ERRCODE_INVALID_BINARY_REPRESENTATION,
            format!("invalid binary ulidflake: {problem}"),
        )
    })
}
fmgr_entry_point!(
    pg_finfo_ulidflake_recv_wrapper,
    ulidflake_recv_wrapper,
    ulidflake_recv,
    Received
);

// ---------------------------------------------------------------------------------------------
// Casts and accessors.

/// `bigint -> ulidflake`: the same bits; a negative number is not a Ulid-Flake.
fn ulidflake_from_bigint(value: i64) -> Ulidflake {
    Ulidflake::from_i64(value).unwrap_or_else(|| {
        raise(
            PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
            format!("bigint {value} is out of range for type ulidflake: it must not be negative"),
        )
    })
}
fmgr_entry_point!(
    pg_finfo_ulidflake_from_bigint_wrapper,
    ulidflake_from_bigint_wrapper,
    ulidflake_from_bigint,
    i64
);

/// `ulidflake -> timestamptz`, and `ulidflake_timestamp(ulidflake)`.
fn ulidflake_to_timestamptz(value: Ulidflake) -> TimestampWithTimeZone {
    TimestampWithTimeZone::try_from(unix_ms_to_pg_timestamp(value.unix_ms()))
        .expect("every ulidflake timestamp is a valid timestamptz")
}
fmgr_entry_point!(
    pg_finfo_ulidflake_to_timestamptz_wrapper,
    ulidflake_to_timestamptz_wrapper,
    ulidflake_to_timestamptz,
    Ulidflake
);

/// `timestamptz -> ulidflake`: the lowest value of that millisecond, for range queries.
fn ulidflake_from_timestamptz(timestamp: TimestampWithTimeZone) -> Ulidflake {
    let last = Ulidflake::EPOCH_UNIX_MS + Ulidflake::MAX_TIMESTAMP_MS;
    match unix_ms_within(timestamp.into(), Ulidflake::EPOCH_UNIX_MS, last) {
        Some(unix_ms) => Ulidflake::first_of_millisecond(unix_ms - Ulidflake::EPOCH_UNIX_MS),
        None => raise_with_hint(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            format!("timestamp out of range for type ulidflake: \"{timestamp}\""),
            "A ulidflake holds instants from 2024-01-01 00:00:00 UTC to 2302-09-27 15:10:22.207 UTC.",
        ),
    }
}
fmgr_entry_point!(
    pg_finfo_ulidflake_from_timestamptz_wrapper,
    ulidflake_from_timestamptz_wrapper,
    ulidflake_from_timestamptz,
    TimestampWithTimeZone
);

/// `ulidflake_randomness(ulidflake)`: the low 20 bits (the randomness of a stand-alone id).
fn ulidflake_randomness(value: Ulidflake) -> i32 {
    value.random() as i32
}
fmgr_entry_point!(
    pg_finfo_ulidflake_randomness_wrapper,
    ulidflake_randomness_wrapper,
    ulidflake_randomness,
    Ulidflake
);

/// `ulidflake_scalable_randomness(ulidflake)`: bits 5..19 (the randomness of a scalable id).
fn ulidflake_scalable_randomness(value: Ulidflake) -> i32 {
    value.scalable_random() as i32
}
fmgr_entry_point!(
    pg_finfo_ulidflake_scalable_randomness_wrapper,
    ulidflake_scalable_randomness_wrapper,
    ulidflake_scalable_randomness,
    Ulidflake
);

/// `ulidflake_scalability_id(ulidflake)`: the low 5 bits (the node of a scalable id).
fn ulidflake_scalability_id(value: Ulidflake) -> i32 {
    i32::from(value.scalability_id())
}
fmgr_entry_point!(
    pg_finfo_ulidflake_scalability_id_wrapper,
    ulidflake_scalability_id_wrapper,
    ulidflake_scalability_id,
    Ulidflake
);

/// `ulidflake_is_valid(text)`: whether `ulidflake_in` would accept the text, without raising.
fn ulidflake_is_valid(text: &[u8]) -> bool {
    Ulidflake::parse(text).is_ok()
}
fmgr_entry_point!(
    pg_finfo_ulidflake_is_valid_wrapper,
    ulidflake_is_valid_wrapper,
    ulidflake_is_valid,
    &[u8]
);

// ---------------------------------------------------------------------------------------------
// Generation.

/// Milliseconds since the Ulid-Flake epoch on the wall clock, if in range.
#[inline]
fn flake_clock() -> Option<u64> {
    Ulidflake::timestamp_of_unix_ms(unix_ms_now()?)
}

/// Waits for the wall clock to pass Ulid-Flake millisecond `timestamp_ms`, a step at a time
/// ([`flake::plan_wait`]), noticing a cancel after each step; `false` to give up.
fn wait_for_clock(started: &mut Option<Instant>, timestamp_ms: u64) -> bool {
    let started = *started.get_or_insert_with(Instant::now);
    let now_ns = unix_ns_now().unwrap_or(0);
    match flake::plan_wait(timestamp_ms, now_ns, started.elapsed()) {
        Wait::GiveUp => false,
        Wait::Sleep(step) => {
            std::thread::sleep(step);
            check_for_interrupts!();
            true
        }
    }
}

fn generate(layout: Layout) -> Ulidflake {
    let database = shared_state::this_database("gen_ulidflake()");
    let draw = with_state(|state| Draw {
        fresh: state.rng.next_u32(),
        increment: state.rng.random_range(1..=255),
    });
    let mut started = None;
    match flake::generate(&database.flake_last, layout, draw, flake_clock, |ms| {
        wait_for_clock(&mut started, ms)
    }) {
        Ok(value) => value,
        Err(GenerateError::ClockOutOfRange) => raise(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            "the system clock is outside the range of type ulidflake".into(),
        ),
        Err(GenerateError::ClockStuck { timestamp_ms }) => {
            let at = ulidflake_to_timestamptz(Ulidflake::first_of_millisecond(timestamp_ms));
            raise_with_hint(
                PgSqlErrorCode::ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED,
                format!(
                    "gen_ulidflake() overflow: the values of millisecond \"{at}\" are used up and the system clock is behind it"
                ),
                "The clock was set back after this server generated ids up to that millisecond. \
                 Ids never go backwards: new ones can be made once the clock passes it.",
            )
        }
    }
}

/// `gen_ulidflake()`: a stand-alone id, or a scalable one if `ulid.node_id` is set.
#[inline]
fn gen_ulidflake() -> Ulidflake {
    let refused = REFUSED_NODE_ID.load(Ordering::Relaxed);
    if refused != NO_REFUSED_NODE_ID {
        raise_refused_node_id(refused);
    }
    // SAFETY: PostgreSQL writes the setting only between statements, in this same thread.
    // (`GucSetting::get` would also check the thread, which costs more than the read.)
    let node_id = unsafe { *NODE_ID.as_ptr() };
    match u8::try_from(node_id) {
        Ok(id) => generate(Layout::Scalable(id)),
        Err(_) => generate(Layout::Standalone),
    }
}
fmgr_entry_point!(
    pg_finfo_gen_ulidflake_wrapper,
    gen_ulidflake_wrapper,
    gen_ulidflake
);

#[cold]
fn raise_refused_node_id(refused: i64) -> ! {
    raise_with_hint(
        PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
        format!(
            "gen_ulidflake(): the server configuration sets ulid.node_id to {refused}, outside -1..31"
        ),
        "Fix ulid.node_id in postgresql.conf (or postgresql.auto.conf) and reload. Until then gen_ulidflake() makes no ids, rather than ids without the node number this server should put in them.",
    )
}

/// `gen_ulidflake(scalability_id)`: a scalable id with this scalability id.
fn gen_ulidflake_scalable(scalability_id: i32) -> Ulidflake {
    match u8::try_from(scalability_id) {
        Ok(id) if id <= Ulidflake::MAX_SCALABILITY_ID => generate(Layout::Scalable(id)),
        _ => raise(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!("scalability id {scalability_id} is out of range: it must be between 0 and 31"),
        ),
    }
}
fmgr_entry_point!(
    pg_finfo_gen_ulidflake_scalable_wrapper,
    gen_ulidflake_scalable_wrapper,
    gen_ulidflake_scalable,
    i32
);

#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use pgrx::prelude::*;

    use super::flake_clock;
    use crate::codec::ulidflake::Ulidflake;
    use crate::generator::clock::test_hook::{freeze_clock, shift_clock};
    use crate::pg::shared_state;
    use crate::pg::test_support::{error_of, lock_shared_state, sqlstate_of};

    /// The last id handed out in this database.
    fn last() -> &'static AtomicU64 {
        &shared_state::this_database("gen_ulidflake()").flake_last
    }

    /// Makes the database's last id the largest one of the millisecond `ahead_ms` after the
    /// clock's: the next gen_ulidflake() must wait for the clock to pass it.
    fn use_up_millisecond_ahead(ahead_ms: u64) -> Ulidflake {
        let full = Ulidflake::standalone(flake_clock().unwrap() + ahead_ms, Ulidflake::MAX_RANDOM);
        last().store(full.to_bits(), Ordering::SeqCst);
        full
    }

    /// The stored last id, as a value.
    fn stored() -> Ulidflake {
        Ulidflake::from_bits(last().load(Ordering::SeqCst)).unwrap()
    }

    const STUCK: &str = "2200H: gen_ulidflake() overflow: the values of millisecond";
    const STUCK_HINT: &str =
        "HINT: The clock was set back after this server generated ids up to that \
                              millisecond. Ids never go backwards: new ones can be made once the \
                              clock passes it.";

    /// When the millisecond of the database's last id is used up and the clock is behind it,
    /// gen_ulidflake() gives up (2200H, with its hint) at once if the clock is more than a
    /// second behind, and after a second of waiting if the clock does not move; it waits when
    /// the clock is less than a second behind and moving, and returns an id of a later
    /// millisecond, not ahead of the clock. A call that gives up leaves the state as it was.
    /// (When the decision is taken is tested without a clock in `generator::flake`: here only
    /// outcomes and the state are checked, no durations.)
    #[pg_test]
    fn a_used_up_millisecond_is_waited_out_or_refused() {
        lock_shared_state();
        Spi::run("SET TimeZone = 'UTC'").unwrap();
        // Far ahead, and 1.1 s ahead: refused.
        let stuck = Ulidflake::standalone(Ulidflake::MAX_TIMESTAMP_MS - 1, Ulidflake::MAX_RANDOM);
        last().store(stuck.to_bits(), Ordering::SeqCst);
        assert_eq!(
            error_of("SELECT gen_ulidflake()"),
            format!(
                "{STUCK} \"2302-09-27 15:10:22.206+00\" are used up and the system clock is behind it | {STUCK_HINT}"
            )
        );
        assert_eq!(stored(), stuck);
        let full = use_up_millisecond_ahead(1100);
        assert!(sqlstate_of("SELECT gen_ulidflake()").starts_with(STUCK));
        assert_eq!(stored(), full);

        // A clock that does not move, half a second behind: waits, then gives up.
        let full = use_up_millisecond_ahead(500);
        freeze_clock(true);
        Spi::run("SET LOCAL statement_timeout = '10s'").unwrap();
        let outcome = sqlstate_of("SELECT gen_ulidflake()");
        freeze_clock(false);
        assert!(outcome.starts_with(STUCK), "{outcome}");
        assert_eq!(stored(), full);

        // Just under a second ahead, the clock moving: waited out.
        let full = use_up_millisecond_ahead(900);
        let id = Spi::get_one::<i64>("SELECT gen_ulidflake()::bigint")
            .unwrap()
            .unwrap();
        let id = Ulidflake::from_i64(id).unwrap();
        assert!(id > full && id.timestamp_ms() > full.timestamp_ms());
        assert!(flake_clock().unwrap() >= id.timestamp_ms());
    }

    /// A call waiting for the clock is cancelled, by statement_timeout and by
    /// pg_cancel_backend(), while it waits: it ends with 57014 and makes no id (the state stays
    /// the used-up value it was waiting to pass; a call cancelled only after its wait would have
    /// stored one), and its session goes on working. The waiting calls run in a second session,
    /// through dblink, so that this one can cancel them.
    #[pg_test]
    fn a_wait_for_the_clock_is_cancelled() {
        lock_shared_state();
        Spi::run("CREATE EXTENSION IF NOT EXISTS dblink").unwrap();
        Spi::run(
            "SELECT dblink_connect('waiter', format('host=%s port=%s dbname=%s user=%s',
                 split_part(current_setting('unix_socket_directories'), ',', 1),
                 current_setting('port'), current_database(), current_user))",
        )
        .unwrap();
        let in_waiter = |query: &str| {
            sqlstate_of(&format!(
                "SELECT * FROM dblink('waiter', {}) AS t(v text)",
                pgrx::spi::quote_literal(query)
            ))
        };
        let waiter_pid = Spi::get_one::<i32>(
            "SELECT pid FROM dblink('waiter', 'SELECT pg_backend_pid()') AS t(pid int)",
        )
        .unwrap()
        .unwrap();

        // statement_timeout, 0.2 s into a wait of 0.9 s.
        let full = use_up_millisecond_ahead(900);
        Spi::run("SELECT dblink_exec('waiter', 'SET statement_timeout = 200')").unwrap();
        assert_eq!(
            in_waiter("SELECT gen_ulidflake()::text"),
            "57014: canceling statement due to statement timeout"
        );
        assert_eq!(stored(), full);
        Spi::run("SELECT dblink_exec('waiter', 'RESET statement_timeout')").unwrap();

        // pg_cancel_backend() from this session, once the waiter is seen waiting.
        let full = use_up_millisecond_ahead(900);
        Spi::run("SELECT dblink_send_query('waiter', 'SELECT gen_ulidflake()::text')").unwrap();
        let active = Spi::get_one_with_args::<bool>(
            "SELECT bool_or(state = 'active') FROM (SELECT state FROM pg_stat_activity, pg_sleep(0.01), generate_series(1, 100)
             WHERE pid = $1) s",
            &[waiter_pid.into()],
        );
        assert_eq!(active, Ok(Some(true)));
        let cancelled = Spi::get_one::<bool>(&format!("SELECT pg_cancel_backend({waiter_pid})"));
        assert_eq!(cancelled, Ok(Some(true)));
        assert_eq!(
            sqlstate_of("SELECT * FROM dblink_get_result('waiter') AS t(v text)"),
            "57014: canceling statement due to user request"
        );
        assert_eq!(stored(), full);
        // The waiting session is fine afterwards: it makes an id, once the clock is there.
        let _ = sqlstate_of("SELECT * FROM dblink_get_result('waiter') AS t(v text)");
        assert_eq!(in_waiter("SELECT gen_ulidflake()::text"), "ok");
        assert!(stored() > full);
        Spi::run("SELECT dblink_disconnect('waiter')").unwrap();
    }

    /// The system clock outside the range of a Ulid-Flake (before 2024-01-01, or after
    /// 2302-09-27): 22008, leaving the database's state as it was. (The clock is moved by a test
    /// hook that only `cargo pgrx test` builds have; only this backend's clock moves.)
    #[pg_test]
    fn a_clock_out_of_the_flake_range_is_22008() {
        lock_shared_state();
        let _ = Spi::get_one::<i64>("SELECT gen_ulidflake()::bigint");
        let before = stored();
        let year_s = 366 * 86_400;
        for shift in [-3 * year_s, 300 * year_s] {
            shift_clock(shift);
            for query in ["SELECT gen_ulidflake()", "SELECT gen_ulidflake(3)"] {
                assert_eq!(
                    sqlstate_of(query),
                    "22008: the system clock is outside the range of type ulidflake",
                    "{query}, shift {shift} s"
                );
            }
        }
        shift_clock(0);
        assert_eq!(stored(), before);
        assert_eq!(sqlstate_of("SELECT gen_ulidflake()"), "ok");
    }
}
