//! The SQL type `ulid`: the Rust behind the functions that `sql/ulid_*.sql` declares.
//!
//! Everything here is thin: parsing, formatting and generation live in `codec` and `generator`.
//! Comparison, hashing, sort support, BRIN support and `send` need no Rust at all: the type has
//! the same 16 bytes as `uuid`, so the SQL files bind them to PostgreSQL's own `uuid` functions.
//! Each function's fmgr entry point is written by `fmgr_entry_point!` (see `crate::pg::fmgr`).

use pgrx::datum::{Timestamp, TimestampWithTimeZone};
use pgrx::{pg_sys, AnyNumeric, FromDatum, IntoDatum, PgSqlErrorCode};

use crate::codec::time::{unix_ms_to_pg_timestamp, unix_ms_within};
use crate::codec::ulid::Ulid;
use crate::generator::clock::unix_ms_now;
use crate::generator::entropy::random_u80;
use crate::generator::monotonic::Exhausted;
use crate::pg::backend::with_state;
use crate::pg::datum::{palloc, parse_input, sql_type, InputText, PallocCString, Received};
use crate::pg::error::{raise, raise_with_hint, MessageBuf};
use crate::pg::fmgr::fmgr_entry_point;
use crate::pg::shared_state;

// ---------------------------------------------------------------------------------------------
// A `ulid` datum is a pointer to its 16 bytes (no header, alignment `char`).

impl FromDatum for Ulid {
    #[inline]
    unsafe fn from_polymorphic_datum(
        datum: pg_sys::Datum,
        is_null: bool,
        _: pg_sys::Oid,
    ) -> Option<Self> {
        if is_null {
            return None;
        }
        // SAFETY: a non-null `ulid` datum points to its 16 bytes.
        Some(Ulid::from_bytes(unsafe {
            datum.cast_mut_ptr::<[u8; 16]>().read_unaligned()
        }))
    }
}

impl IntoDatum for Ulid {
    #[inline]
    fn into_datum(self) -> Option<pg_sys::Datum> {
        let bytes = palloc(Ulid::BYTES_LEN).cast::<[u8; 16]>();
        // SAFETY: palloc returned 16 writable bytes in the current memory context.
        unsafe { bytes.write_unaligned(self.to_bytes()) };
        Some(pg_sys::Datum::from(bytes))
    }

    fn type_oid() -> pg_sys::Oid {
        // The type belongs to the extension, so it has no fixed OID.
        pg_sys::InvalidOid
    }
}

sql_type!(Ulid, "ulid");

// ---------------------------------------------------------------------------------------------
// Text and binary I/O.

/// Text input: 26 Crockford base32 characters, any case. Bad input is `22P02`, reported softly
/// where the caller asks for that (`pg_input_is_valid`, `COPY ... ON_ERROR ignore`).
#[inline]
fn ulid_in(input: InputText, message: &mut MessageBuf) -> Option<Ulid> {
    parse_input(input, message, "ulid")
}
fmgr_entry_point!(pg_finfo_ulid_in_wrapper, ulid_in_wrapper, input ulid_in);

/// Text output: 26 upper-case characters.
#[inline]
fn ulid_out(value: Ulid) -> PallocCString {
    PallocCString::new(&value.encode())
}
fmgr_entry_point!(pg_finfo_ulid_out_wrapper, ulid_out_wrapper, ulid_out, Ulid);

/// Binary input: exactly the 16 bytes, as `uuid_recv` reads them, but any other length is
/// `22P03` (`uuid_recv` would report a short message as a protocol violation). The same rule
/// as the `bytea` cast.
fn ulid_recv(received: Received) -> Ulid {
    ulid_from_bytea(received.0)
}
fmgr_entry_point!(
    pg_finfo_ulid_recv_wrapper,
    ulid_recv_wrapper,
    ulid_recv,
    Received
);

// ---------------------------------------------------------------------------------------------
// Casts and accessors.

/// `bytea -> ulid`: the 16 bytes of the binary form.
fn ulid_from_bytea(bytes: &[u8]) -> Ulid {
    Ulid::from_slice(bytes).unwrap_or_else(|problem| {
        raise(
            PgSqlErrorCode::ERRCODE_INVALID_BINARY_REPRESENTATION,
            format!("invalid binary ulid: {problem}"),
        )
    })
}
fmgr_entry_point!(
    pg_finfo_ulid_from_bytea_wrapper,
    ulid_from_bytea_wrapper,
    ulid_from_bytea,
    &[u8]
);

/// `ulid -> timestamptz`, and `ulid_timestamp(ulid)`: the millisecond in the id.
fn ulid_to_timestamptz(value: Ulid) -> TimestampWithTimeZone {
    TimestampWithTimeZone::try_from(unix_ms_to_pg_timestamp(value.timestamp_ms()))
        .expect("every ulid timestamp is a valid timestamptz")
}
fmgr_entry_point!(
    pg_finfo_ulid_to_timestamptz_wrapper,
    ulid_to_timestamptz_wrapper,
    ulid_to_timestamptz,
    Ulid
);

/// `ulid_randomness(ulid)`: the low 80 bits, as an exact `numeric` (0 .. 2^80 - 1).
fn ulid_randomness(value: Ulid) -> AnyNumeric {
    AnyNumeric::from(value.random())
}
fmgr_entry_point!(
    pg_finfo_ulid_randomness_wrapper,
    ulid_randomness_wrapper,
    ulid_randomness,
    Ulid
);

/// The Unix millisecond of `microseconds` (a `timestamptz`, or a `timestamp` read as UTC: both
/// count microseconds since 2000-01-01 00:00:00 UTC), or a `22008` error naming `shown` if a
/// ULID cannot hold it.
fn ulid_millisecond(microseconds: i64, shown: impl std::fmt::Display) -> u64 {
    unix_ms_within(microseconds, 0, Ulid::MAX_TIMESTAMP_MS).unwrap_or_else(|| {
        raise_with_hint(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            format!("timestamp out of range for type ulid: \"{shown}\""),
            "A ulid holds instants from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.",
        )
    })
}

/// `timestamptz -> ulid`: the lowest ULID of that millisecond, for range queries.
fn ulid_from_timestamptz(timestamp: TimestampWithTimeZone) -> Ulid {
    Ulid::first_of_millisecond(ulid_millisecond(timestamp.into(), timestamp))
}
fmgr_entry_point!(
    pg_finfo_ulid_from_timestamptz_wrapper,
    ulid_from_timestamptz_wrapper,
    ulid_from_timestamptz,
    TimestampWithTimeZone
);

/// `ulid -> timestamp`: the id's millisecond as UTC wall-clock time, in every session (the same
/// microseconds as `ulid -> timestamptz`), so IMMUTABLE and the inverse of `timestamp -> ulid`.
fn ulid_to_timestamp(value: Ulid) -> Timestamp {
    Timestamp::try_from(unix_ms_to_pg_timestamp(value.timestamp_ms()))
        .expect("every ulid timestamp is a valid timestamp")
}
fmgr_entry_point!(
    pg_finfo_ulid_to_timestamp_wrapper,
    ulid_to_timestamp_wrapper,
    ulid_to_timestamp,
    Ulid
);

/// `timestamp -> ulid`: the timestamp read as UTC, then as `timestamptz -> ulid`.
fn ulid_from_timestamp(timestamp: Timestamp) -> Ulid {
    Ulid::first_of_millisecond(ulid_millisecond(timestamp.into(), timestamp))
}
fmgr_entry_point!(
    pg_finfo_ulid_from_timestamp_wrapper,
    ulid_from_timestamp_wrapper,
    ulid_from_timestamp,
    Timestamp
);

/// `ulid_to_uuid(ulid)` and `ulid_from_uuid(uuid)`, pgx_ulid's names for the casts between the
/// two types: the same 16 bytes.
fn ulid_same_bytes(value: Ulid) -> Ulid {
    value
}
fmgr_entry_point!(
    pg_finfo_ulid_same_bytes_wrapper,
    ulid_same_bytes_wrapper,
    ulid_same_bytes,
    Ulid
);

/// `ulid_is_valid(text)`: whether `ulid_in` would accept the text, without raising.
fn ulid_is_valid(text: &[u8]) -> bool {
    Ulid::parse(text).is_ok()
}
fmgr_entry_point!(
    pg_finfo_ulid_is_valid_wrapper,
    ulid_is_valid_wrapper,
    ulid_is_valid,
    &[u8]
);

/// Support function of `max(ulid)`.
fn ulid_larger(a: Ulid, b: Ulid) -> Ulid {
    a.max(b)
}
fmgr_entry_point!(
    pg_finfo_ulid_larger_wrapper,
    ulid_larger_wrapper,
    ulid_larger,
    Ulid,
    Ulid
);

/// Support function of `min(ulid)`.
fn ulid_smaller(a: Ulid, b: Ulid) -> Ulid {
    a.min(b)
}
fmgr_entry_point!(
    pg_finfo_ulid_smaller_wrapper,
    ulid_smaller_wrapper,
    ulid_smaller,
    Ulid,
    Ulid
);

// ---------------------------------------------------------------------------------------------
// Generators.

/// The current Unix millisecond, or an error if the system clock is outside the ULID range.
#[inline]
fn clock_ms() -> u64 {
    match unix_ms_now() {
        Some(ms) if ms <= Ulid::MAX_TIMESTAMP_MS => ms,
        _ => raise(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            "the system clock is outside the range of type ulid".into(),
        ),
    }
}

/// `gen_ulid()`: the current millisecond and 80 fresh random bits.
#[inline]
fn gen_ulid() -> Ulid {
    let now = clock_ms();
    with_state(|state| Ulid::from_parts(now, random_u80(&mut state.rng)))
}
fmgr_entry_point!(pg_finfo_gen_ulid_wrapper, gen_ulid_wrapper, gen_ulid);

/// `gen_ulid(timestamptz)`: that millisecond and 80 fresh random bits.
fn gen_ulid_at(timestamp: TimestampWithTimeZone) -> Ulid {
    let ms = ulid_millisecond(timestamp.into(), timestamp);
    with_state(|state| Ulid::from_parts(ms, random_u80(&mut state.rng)))
}
fmgr_entry_point!(
    pg_finfo_gen_ulid_at_wrapper,
    gen_ulid_at_wrapper,
    gen_ulid_at,
    TimestampWithTimeZone
);

/// `2200H` for a monotonic generator (`function`) whose millisecond is used up.
#[cold]
fn raise_exhausted(function: &str, exhausted: Exhausted) -> ! {
    let at = ulid_to_timestamptz(Ulid::first_of_millisecond(exhausted.timestamp_ms));
    raise_with_hint(
        PgSqlErrorCode::ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED,
        format!("{function} overflow: all 2^80 values of millisecond \"{at}\" are used"),
        "Values come again when the clock passes that millisecond; gen_ulid() does not have this limit.",
    )
}

/// `gen_monotonic_ulid()`: strictly increasing within this backend.
#[inline]
fn gen_monotonic_ulid() -> Ulid {
    let now = clock_ms();
    let next = with_state(|state| {
        let rng = &mut state.rng;
        state.monotonic_ulid.next(now, || random_u80(rng))
    });
    next.unwrap_or_else(|exhausted| raise_exhausted("gen_monotonic_ulid()", exhausted))
}
fmgr_entry_point!(
    pg_finfo_gen_monotonic_ulid_wrapper,
    gen_monotonic_ulid_wrapper,
    gen_monotonic_ulid
);

/// `gen_server_monotonic_ulid()`: strictly increasing across every session of this database.
/// The same rules as `gen_monotonic_ulid()` (the spec's), on one state per database in shared
/// memory (`crate::pg::shared_state`): a later millisecond starts from fresh randomness, the same
/// one (or a clock behind it) takes the previous value + 1.
#[inline]
fn gen_server_monotonic_ulid() -> Ulid {
    const NAME: &str = "gen_server_monotonic_ulid()";
    let database = shared_state::this_database(NAME);
    let now = clock_ms();
    // Drawn outside the lock, and used only if the millisecond is a new one.
    let fresh = with_state(|state| random_u80(&mut state.rng));
    let next = database.with_ulid(|state| state.next(now, || fresh));
    next.unwrap_or_else(|exhausted| raise_exhausted(NAME, exhausted))
}
fmgr_entry_point!(
    pg_finfo_gen_server_monotonic_ulid_wrapper,
    gen_server_monotonic_ulid_wrapper,
    gen_server_monotonic_ulid
);

#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    use pgrx::prelude::*;

    use std::sync::atomic::Ordering;

    use crate::codec::ulid::Ulid;
    use crate::generator::clock::{test_hook::shift_clock, unix_ms_now};
    use crate::generator::entropy::{random_u80, test_hook::REFUSE_ENTROPY};
    use crate::generator::monotonic::MonotonicUlid;
    use crate::pg::backend::{forget_state, with_state};
    use crate::pg::shared_state;
    use crate::pg::test_support::{error_of, lock_shared_state, sqlstate_of};

    /// A generator whose last value has the largest randomness in a millisecond that the clock
    /// has not reached: the next value would need randomness 2^80, so the call must fail with
    /// 2200H, leave the session usable and keep failing until the clock passes that millisecond.
    #[pg_test]
    fn monotonic_overflow_is_2200h() {
        let far_future = Ulid::MAX_TIMESTAMP_MS - 1;
        with_state(|state| {
            state.monotonic_ulid =
                MonotonicUlid::after(Ulid::from_parts(far_future, Ulid::MAX_RANDOM))
        });
        Spi::run("SET TimeZone = 'UTC'").unwrap();
        let error = error_of("SELECT gen_monotonic_ulid()");
        assert_eq!(
            error,
            "2200H: gen_monotonic_ulid() overflow: all 2^80 values of millisecond \
             \"10889-08-02 05:31:50.654+00\" are used | HINT: Values come again when the clock \
             passes that millisecond; gen_ulid() does not have this limit."
        );
        assert_eq!(error_of("SELECT gen_monotonic_ulid()"), error);
        // Other generators are unaffected, and so is the session.
        assert_eq!(
            Spi::get_one::<i32>("SELECT length(gen_ulid()::text)"),
            Ok(Some(26))
        );
    }

    /// The shared generator: the same overflow rule (2200H, naming its own function) when
    /// its state, shared by every session, has the largest randomness of a millisecond the clock
    /// has not reached; after one below it, exactly one more value first.
    #[pg_test]
    fn server_monotonic_overflow_is_2200h() {
        lock_shared_state();
        let far_future = Ulid::MAX_TIMESTAMP_MS - 1;
        shared_state::this_database("test").with_ulid(|state| {
            *state = MonotonicUlid::after(Ulid::from_parts(far_future, Ulid::MAX_RANDOM - 1))
        });
        Spi::run("SET TimeZone = 'UTC'").unwrap();
        let last = Spi::get_one::<String>("SELECT gen_server_monotonic_ulid()::text");
        assert_eq!(
            last,
            Ok(Some(
                Ulid::from_parts(far_future, Ulid::MAX_RANDOM).to_string()
            ))
        );
        assert_eq!(
            error_of("SELECT gen_server_monotonic_ulid()"),
            "2200H: gen_server_monotonic_ulid() overflow: all 2^80 values of millisecond \
             \"10889-08-02 05:31:50.654+00\" are used | HINT: Values come again when the clock \
             passes that millisecond; gen_ulid() does not have this limit."
        );
        shared_state::this_database("test").with_ulid(|state| *state = MonotonicUlid::new());
        assert_eq!(sqlstate_of("SELECT gen_server_monotonic_ulid()"), "ok");
    }

    /// One below the largest randomness: exactly one more value, then the overflow.
    #[pg_test]
    fn monotonic_uses_the_last_value_before_overflowing() {
        let far_future = Ulid::MAX_TIMESTAMP_MS - 1;
        with_state(|state| {
            state.monotonic_ulid =
                MonotonicUlid::after(Ulid::from_parts(far_future, Ulid::MAX_RANDOM - 1))
        });
        let last = Spi::get_one::<String>("SELECT gen_monotonic_ulid()::text")
            .unwrap()
            .unwrap();
        assert_eq!(
            last,
            Ulid::from_parts(far_future, Ulid::MAX_RANDOM).to_string()
        );
        assert!(sqlstate_of("SELECT gen_monotonic_ulid()").starts_with("2200H: "));
    }

    /// 1000 monotonic values in one millisecond (the generator's last value is in a millisecond
    /// the clock has not reached, so every call stays in it): consecutive randomness, and
    /// shuffled then sorted they come back in generation order.
    #[pg_test]
    fn a_thousand_monotonic_values_in_one_millisecond() {
        let future_ms = Ulid::MAX_TIMESTAMP_MS - 10;
        let start = Ulid::from_parts(future_ms, Ulid::MAX_RANDOM / 2);
        with_state(|state| state.monotonic_ulid = MonotonicUlid::after(start));
        Spi::run(
            "CREATE TEMP TABLE mono AS
             SELECT n, gen_monotonic_ulid() AS id FROM generate_series(1, 1000) AS n",
        )
        .unwrap();
        let one_millisecond =
            Spi::get_one::<i64>("SELECT count(DISTINCT ulid_timestamp(id)) FROM mono");
        assert_eq!(one_millisecond, Ok(Some(1)));
        let sorted_back = Spi::get_one::<bool>(
            "SELECT (SELECT array_agg(id ORDER BY id) FROM (SELECT id FROM mono ORDER BY random()) s)
                  = (SELECT array_agg(id ORDER BY n) FROM mono)",
        );
        assert_eq!(sorted_back, Ok(Some(true)));
        let last = Spi::get_one::<String>("SELECT id::text FROM mono WHERE n = 1000");
        let expected = Ulid::from_parts(future_ms, Ulid::MAX_RANDOM / 2 + 1000);
        assert_eq!(last, Ok(Some(expected.to_string())));
        with_state(|state| state.monotonic_ulid = MonotonicUlid::new());
    }

    /// The system clock outside the range of a ulid, before 1970 and after 10889-08-02: both
    /// generators fail with 22008, and work again once the clock is back. (The clock is moved
    /// by a test hook that only `cargo pgrx test` builds have.)
    #[pg_test]
    fn a_clock_out_of_range_is_22008() {
        lock_shared_state();
        let now_s = (unix_ms_now().unwrap() / 1000) as i64;
        let after_the_last_ulid_s = (Ulid::MAX_TIMESTAMP_MS / 1000) as i64 + 86_400;
        for shift in [-now_s - 86_400, after_the_last_ulid_s - now_s] {
            shift_clock(shift);
            let expected = "22008: the system clock is outside the range of type ulid";
            assert_eq!(
                sqlstate_of("SELECT gen_ulid()"),
                expected,
                "shift {shift} s"
            );
            assert_eq!(
                sqlstate_of("SELECT gen_monotonic_ulid()"),
                expected,
                "shift {shift} s"
            );
            assert_eq!(
                sqlstate_of("SELECT gen_server_monotonic_ulid()"),
                expected,
                "shift {shift} s"
            );
        }
        shift_clock(0);
        assert_eq!(
            sqlstate_of("SELECT gen_ulid(), gen_monotonic_ulid(), gen_server_monotonic_ulid()"),
            "ok"
        );
    }

    /// The operating system refusing entropy when a backend first seeds its generator: every
    /// generator fails with XX000 and says why, and once entropy is there again the next call
    /// seeds and works. (A test hook that only `cargo pgrx test` builds have.)
    #[pg_test]
    fn a_seeding_failure_is_xx000_then_recovers() {
        lock_shared_state();
        REFUSE_ENTROPY.store(true, Ordering::Relaxed);
        forget_state();
        let expected =
            "XX000: could not seed the random number generator: no entropy (ulid test hook)";
        for query in [
            "SELECT gen_ulid()",
            "SELECT gen_ulid(now())",
            "SELECT gen_monotonic_ulid()",
            "SELECT gen_server_monotonic_ulid()",
            "SELECT gen_ulidflake()",
            "SELECT gen_ulidflake(3)",
        ] {
            assert_eq!(sqlstate_of(query), expected, "{query}");
        }
        REFUSE_ENTROPY.store(false, Ordering::Relaxed);
        assert_eq!(
            sqlstate_of(
                "SELECT gen_ulid(), gen_monotonic_ulid(), gen_server_monotonic_ulid(), gen_ulidflake(3)"
            ),
            "ok"
        );
    }

    /// A process forked from one whose generator is already seeded must not continue the
    /// parent's stream, also when the fork is not PostgreSQL's own (PL/Python's `os.fork()`,
    /// another extension), which leaves `MyProcPid` as it was. The child here draws once, right
    /// after a plain fork(), and reports its draw through a pipe. Without the fork handler it
    /// would draw exactly the parent's next value (as it did when the state was tied to
    /// `MyProcPid`).
    #[pg_test]
    fn a_forked_process_seeds_its_own_generator() {
        let _ = with_state(|state| random_u80(&mut state.rng));
        let pid_before = unsafe { pgrx::pg_sys::MyProcPid };
        let mut fds = [0; 2];
        // SAFETY: plain POSIX calls; the child only draws, writes and _exits (no PostgreSQL
        // cleanup, no shared state touched).
        let (child_draw, child_saw_pid) = unsafe {
            assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
            match libc::fork() {
                0 => {
                    let draw = with_state(|state| random_u80(&mut state.rng)).to_le_bytes();
                    let pid = pgrx::pg_sys::MyProcPid.to_le_bytes();
                    libc::write(fds[1], draw.as_ptr().cast(), draw.len());
                    libc::write(fds[1], pid.as_ptr().cast(), pid.len());
                    libc::_exit(0);
                }
                -1 => panic!("fork failed"),
                child => {
                    let mut draw = [0u8; 16];
                    let mut pid = [0u8; 4];
                    assert_eq!(libc::read(fds[0], draw.as_mut_ptr().cast(), 16), 16);
                    assert_eq!(libc::read(fds[0], pid.as_mut_ptr().cast(), 4), 4);
                    libc::waitpid(child, std::ptr::null_mut(), 0);
                    libc::close(fds[0]);
                    libc::close(fds[1]);
                    (u128::from_le_bytes(draw), i32::from_le_bytes(pid))
                }
            }
        };
        // The child ran with the parent's MyProcPid: only the fork handler told them apart.
        assert_eq!(child_saw_pid, pid_before);
        let parent_next = with_state(|state| random_u80(&mut state.rng));
        assert_ne!(child_draw, parent_next);
    }

    /// An allocation that fails (a test hook makes `palloc` return NULL, as it does when the
    /// memory context cannot grow) is an ERROR with SQLSTATE 53200 and core's message, for the
    /// generators, the output functions and the input functions; the backend goes on, and the
    /// same statements work once memory is there again.
    #[pg_test]
    fn a_failed_allocation_is_53200_and_the_session_goes_on() {
        lock_shared_state();
        use crate::pg::datum::test_hook::REFUSE_PALLOC;
        // What each allocates: a ulid's 16 bytes, a ulid's text and NUL (27), a ulidflake's (14).
        let queries = [
            ("SELECT gen_ulid()", 16),
            ("SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid", 16),
            ("SELECT gen_server_monotonic_ulid()", 16),
            (
                "SELECT '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid::ulid::text",
                27,
            ),
            ("SELECT 14246757444195114::ulidflake::text", 14),
        ];
        REFUSE_PALLOC.store(true, Ordering::Relaxed);
        let outcomes: Vec<String> = queries.iter().map(|(q, _)| error_of(q)).collect();
        REFUSE_PALLOC.store(false, Ordering::Relaxed);
        for ((query, size), outcome) in queries.iter().zip(&outcomes) {
            let expected =
                format!("53200: out of memory | DETAIL: Failed on request of size {size}.");
            assert_eq!(outcome, &expected, "{query}");
        }
        for (query, _) in queries {
            assert_eq!(sqlstate_of(query), "ok", "{query}");
        }
    }
}
