//! The SQL type `ulidflake`: the Rust behind the functions that `sql/ulidflake_*.sql` declares.
//!
//! A `ulidflake` datum is the 64-bit value itself, passed by value like a `bigint`, so the SQL
//! files bind comparison, hashing, sort support, BRIN support, `send` and `min`/`max` to
//! PostgreSQL's own `bigint` functions. Generation keeps one sequence per database: the last
//! value handed out lives in shared memory (`crate::pg::shared_state`), which needs
//! `shared_preload_libraries = 'ulid'`. Each function's fmgr entry point is written by
//! `fmgr_entry_point!` (see `crate::pg::fmgr`).

use std::time::{Duration, Instant};

use pgrx::datum::TimestampWithTimeZone;
use pgrx::{check_for_interrupts, PgSqlErrorCode};
use pgrx::{pg_sys, FromDatum, GucContext, GucFlags, GucRegistry, GucSetting, IntoDatum};
use rand::{Rng, RngExt};

use crate::codec::time::{unix_ms_to_pg_timestamp, unix_ms_within};
use crate::codec::ulidflake::Ulidflake;
use crate::generator::clock::{unix_ms_now, unix_ns_now};
use crate::generator::flake::{self, Draw, GenerateError, Layout};
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

/// Registers the setting.
pub fn init() {
    GucRegistry::define_int_guc(
        c"ulid.node_id",
        c"Node number (Ulid-Flake scalability id, 0..31) that gen_ulidflake() puts in its ids; -1 makes stand-alone ids.",
        c"Give each server that generates ulidflake ids for the same tables its own number, so that their ids never collide.",
        &NODE_ID,
        -1,
        i32::from(Ulidflake::MAX_SCALABILITY_ID),
        GucContext::Sighup,
        GucFlags::default(),
    );
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

/// How long a call waits for the clock to pass a used-up millisecond before it gives up.
const MAX_WAIT: Duration = Duration::from_secs(1);

/// Milliseconds since the Ulid-Flake epoch on the wall clock, if in range.
#[inline]
fn flake_clock() -> Option<u64> {
    Ulidflake::timestamp_of_unix_ms(unix_ms_now()?)
}

/// Sleeps until the wall clock passes Ulid-Flake millisecond `timestamp_ms`, at most 10 ms at a
/// time so that a cancel is noticed. Gives up (returns `false`) at once if the clock is more than
/// [`MAX_WAIT`] behind that millisecond, or once this call has waited [`MAX_WAIT`] in all.
fn wait_for_clock(started: &mut Option<Instant>, timestamp_ms: u64) -> bool {
    let started = *started.get_or_insert_with(Instant::now);
    let now_ns = unix_ns_now().unwrap_or(0);
    let target_ns = (Ulidflake::EPOCH_UNIX_MS + timestamp_ms + 1) * 1_000_000;
    let max_wait_ns = MAX_WAIT.as_nanos() as u64;
    if target_ns.saturating_sub(now_ns) > max_wait_ns || started.elapsed() > MAX_WAIT {
        return false;
    }
    let until = target_ns.min(now_ns + 10_000_000);
    let wake = libc::timespec {
        tv_sec: (until / 1_000_000_000) as libc::time_t,
        tv_nsec: (until % 1_000_000_000) as libc::c_long,
    };
    // SAFETY: a valid absolute time; an interrupted sleep just returns early.
    unsafe {
        libc::clock_nanosleep(
            libc::CLOCK_REALTIME,
            libc::TIMER_ABSTIME,
            &wake,
            std::ptr::null_mut(),
        )
    };
    check_for_interrupts!();
    true
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
    use std::time::{Duration, Instant};

    use pgrx::prelude::*;

    use super::flake_clock;
    use crate::codec::ulidflake::Ulidflake;
    use crate::generator::clock::test_hook::shift_clock;
    use crate::pg::shared_state;
    use crate::pg::test_support::{lock_shared_state, sqlstate_of};

    /// The last id handed out in this database.
    fn last() -> &'static AtomicU64 {
        &shared_state::this_database("gen_ulidflake()").flake_last
    }

    /// Makes the server's last id the largest one of the millisecond `ahead_ms` after the
    /// clock's: the next gen_ulidflake() must wait for the clock to pass it.
    fn use_up_millisecond_ahead(ahead_ms: u64) -> Ulidflake {
        let full = Ulidflake::standalone(flake_clock().unwrap() + ahead_ms, Ulidflake::MAX_RANDOM);
        last().store(full.to_bits(), Ordering::SeqCst);
        full
    }

    /// Runs `query` in the other session (dblink connection `waiter`) and returns its outcome
    /// and how long it took.
    fn in_waiter(query: &str) -> (String, Duration) {
        let started = Instant::now();
        let outcome = sqlstate_of(&format!(
            "SELECT * FROM dblink('waiter', {}) AS t(v text)",
            pgrx::spi::quote_literal(query)
        ));
        (outcome, started.elapsed())
    }

    /// What gen_ulidflake() does when the millisecond of the server's last id is used up and the
    /// clock is behind it, on each side of the one-second threshold, and when it is cancelled
    /// while it waits. (One test: the state is shared by the database, and tests run concurrently. The
    /// waiting calls run in a second session, through dblink, so that they can be cancelled.)
    ///
    /// 1. The last id is far ahead of the clock, or 1.1 s ahead (the clock was set back): it
    ///    fails at once with 2200H rather than make every INSERT wait, and leaves the state and
    ///    the session as they were.
    /// 2. The last id is 0.9 s ahead: it waits for the clock to pass that millisecond (no INSERT
    ///    fails) and returns an id of a later millisecond.
    /// 3. While it waits, statement_timeout and pg_cancel_backend() end it with 57014, at once
    ///    (not when the clock gets there), and its session goes on working.
    #[pg_test]
    fn a_used_up_millisecond_is_waited_out_refused_or_cancelled() {
        lock_shared_state();
        let before = last().load(Ordering::SeqCst);
        Spi::run("SET TimeZone = 'UTC'").unwrap();
        Spi::run("CREATE EXTENSION IF NOT EXISTS dblink").unwrap();
        Spi::run(
            "SELECT dblink_connect('waiter', format('host=%s port=%s dbname=%s user=%s',
                 split_part(current_setting('unix_socket_directories'), ',', 1),
                 current_setting('port'), current_database(), current_user))",
        )
        .unwrap();
        let waiter_pid = Spi::get_one::<i32>(
            "SELECT pid FROM dblink('waiter', 'SELECT pg_backend_pid()') AS t(pid int)",
        )
        .unwrap()
        .unwrap();

        // 1. Far ahead, and just over the threshold: refused at once.
        let stuck = Ulidflake::standalone(Ulidflake::MAX_TIMESTAMP_MS - 1, Ulidflake::MAX_RANDOM);
        last().store(stuck.to_bits(), Ordering::SeqCst);
        let (outcome, took) = in_waiter("SELECT gen_ulidflake()::text");
        assert_eq!(
            outcome,
            "2200H: gen_ulidflake() overflow: the values of millisecond \
             \"2302-09-27 15:10:22.206+00\" are used up and the system clock is behind it"
        );
        assert!(took < Duration::from_millis(500), "took {took:?}");
        assert_eq!(last().load(Ordering::SeqCst), stuck.to_bits());
        use_up_millisecond_ahead(1100);
        let (outcome, took) = in_waiter("SELECT gen_ulidflake()::text");
        assert!(
            outcome.starts_with("2200H: gen_ulidflake() overflow"),
            "{outcome}"
        );
        assert!(
            took < Duration::from_millis(500),
            "1.1 s ahead: took {took:?}"
        );

        // 2. Just under the threshold: waited out.
        let full = use_up_millisecond_ahead(900);
        let (outcome, took) = in_waiter("SELECT gen_ulidflake()::text");
        assert_eq!(outcome, "ok");
        assert!(
            took > Duration::from_millis(800),
            "0.9 s ahead: took {took:?}"
        );
        let next = Ulidflake::from_bits(last().load(Ordering::SeqCst)).unwrap();
        assert!(next > full && next.timestamp_ms() > full.timestamp_ms());
        assert!(flake_clock().unwrap() >= next.timestamp_ms());

        // 3. Cancelled while it waits: by statement_timeout ...
        use_up_millisecond_ahead(900);
        Spi::run("SELECT dblink_exec('waiter', 'SET statement_timeout = 200')").unwrap();
        let (outcome, took) = in_waiter("SELECT gen_ulidflake()::text");
        assert_eq!(
            outcome,
            "57014: canceling statement due to statement timeout"
        );
        assert!(
            took < Duration::from_millis(600),
            "statement_timeout: took {took:?}"
        );
        Spi::run("SELECT dblink_exec('waiter', 'RESET statement_timeout')").unwrap();
        // ... and by pg_cancel_backend() from this session.
        use_up_millisecond_ahead(900);
        let started = Instant::now();
        Spi::run("SELECT dblink_send_query('waiter', 'SELECT gen_ulidflake()::text')").unwrap();
        std::thread::sleep(Duration::from_millis(200));
        let cancelled = Spi::get_one::<bool>(&format!("SELECT pg_cancel_backend({waiter_pid})"));
        assert_eq!(cancelled, Ok(Some(true)));
        let outcome = sqlstate_of("SELECT * FROM dblink_get_result('waiter') AS t(v text)");
        let took = started.elapsed();
        assert_eq!(outcome, "57014: canceling statement due to user request");
        assert!(
            took < Duration::from_millis(700),
            "pg_cancel_backend: took {took:?}"
        );
        // The waiting session is fine afterwards: it makes an id, once the clock is there.
        let _ = sqlstate_of("SELECT * FROM dblink_get_result('waiter') AS t(v text)");
        let (outcome, _) = in_waiter("SELECT gen_ulidflake()::text");
        assert_eq!(outcome, "ok");

        Spi::run("SELECT dblink_disconnect('waiter')").unwrap();
        last().fetch_max(before, Ordering::SeqCst);
    }

    /// The system clock outside the range of a Ulid-Flake (before 2024-01-01, or after
    /// 2302-09-27): 22008, leaving the server's state alone. (The clock is moved by a test hook
    /// that only `cargo pgrx test` builds have; only this backend's clock moves.)
    #[pg_test]
    fn a_clock_out_of_the_flake_range_is_22008() {
        lock_shared_state();
        let before = last().load(Ordering::SeqCst);
        let year_s = 366 * 86_400;
        for shift in [-3 * year_s, 300 * year_s] {
            shift_clock(shift);
            assert_eq!(
                sqlstate_of("SELECT gen_ulidflake()"),
                "22008: the system clock is outside the range of type ulidflake",
                "shift {shift} s"
            );
            assert_eq!(
                sqlstate_of("SELECT gen_ulidflake(3)"),
                "22008: the system clock is outside the range of type ulidflake",
                "shift {shift} s"
            );
        }
        shift_clock(0);
        assert!(last().load(Ordering::SeqCst) >= before);
        // (Whether the next call succeeds depends on the state the test above sets meanwhile;
        // its clock is in range again.)
        assert!(!sqlstate_of("SELECT gen_ulidflake()").starts_with("22008"));
    }
}
