//! The functions PostgreSQL calls: fmgr entry points, written by [`fmgr_entry_point!`], and how
//! an error raised inside one reaches PostgreSQL.
//!
//! Every SQL function of the extension enters Rust here. The body runs under `catch_unwind`
//! ([`guarded`]), which costs nothing unless something panics. A panic (a Rust bug, an error
//! raised with [`crate::pg::error::raise`], or an `ERROR` that PostgreSQL raised inside a pgrx
//! call, which pgrx turns into a panic) has dropped every Rust value on its way up when it is
//! caught; [`raise_caught`] then copies what it says into buffers on its own stack frame, drops
//! the payload, and calls PostgreSQL's `errstart`/`errmsg`/`errfinish` directly. Those may
//! `longjmp` (that is how an `ERROR` leaves, and how a failure inside the reporting itself
//! would), and they do so only over frames that hold no Rust value needing a drop, as C code
//! would. No panic escapes, and no allocation of the extension's own is made while reporting:
//! a message that cannot be formatted for want of memory cannot abort the backend.

use core::ffi::{c_char, c_int};
use std::any::Any;

use pgrx::pg_sys;
use pgrx::pg_sys::panic::{CaughtError, ErrorReportWithLevel};
use pgrx::{PgLogLevel, PgSqlErrorCode};

use crate::pg::error::{MessageBuf, Raised};

/// PostgreSQL's error-reporting functions, declared here without pgrx's guard: they are called
/// only from frames that own nothing to drop, where a `longjmp` out of them is safe.
pub(crate) mod unguarded {
    use core::ffi::{c_char, c_int};

    extern "C-unwind" {
        pub fn errstart(elevel: c_int, domain: *const c_char) -> bool;
        pub fn errcode(sqlerrcode: c_int) -> c_int;
        pub fn errmsg(fmt: *const c_char, ...) -> c_int;
        pub fn errdetail(fmt: *const c_char, ...) -> c_int;
        pub fn errhint(fmt: *const c_char, ...) -> c_int;
        pub fn errfinish(filename: *const c_char, lineno: c_int, funcname: *const c_char);
    }
}

/// An error on its way to PostgreSQL: copied out of whatever raised it, with nothing to drop.
pub struct PendingError {
    pub code: c_int,
    pub message: MessageBuf,
    pub detail: MessageBuf,
    pub hint: MessageBuf,
}

impl PendingError {
    #[inline(always)]
    pub const fn new(code: PgSqlErrorCode) -> Self {
        PendingError {
            code: code as c_int,
            message: MessageBuf::new(),
            detail: MessageBuf::new(),
            hint: MessageBuf::new(),
        }
    }

    /// Copies the code, message, detail and hint of a caught panic's payload.
    fn of_payload(&mut self, payload: &(dyn Any + Send)) {
        use core::fmt::Write;
        let mut copy =
            |code: PgSqlErrorCode, message: &str, detail: Option<&str>, hint: Option<&str>| {
                self.code = code as c_int;
                let _ = self.message.write_str(message);
                let _ = self.detail.write_str(detail.unwrap_or(""));
                let _ = self.hint.write_str(hint.unwrap_or(""));
            };
        fn of_report(
            report: &ErrorReportWithLevel,
        ) -> (PgSqlErrorCode, &str, Option<&str>, Option<&str>) {
            (
                report.sql_error_code(),
                report.message(),
                report.detail(),
                report.hint(),
            )
        }
        let internal = PgSqlErrorCode::ERRCODE_INTERNAL_ERROR;
        if let Some(raised) = payload.downcast_ref::<Raised>() {
            copy(
                raised.code,
                &raised.message,
                raised.detail.as_deref(),
                raised.hint.as_deref(),
            );
        } else if let Some(caught) = payload.downcast_ref::<CaughtError>() {
            // An ERROR that PostgreSQL raised inside a pgrx call (pgrx caught its longjmp).
            let report = match caught {
                CaughtError::PostgresError(report)
                | CaughtError::ErrorReport(report)
                | CaughtError::RustPanic {
                    ereport: report, ..
                } => report,
            };
            let (code, message, detail, hint) = of_report(report);
            copy(code, message, detail, hint);
        } else if let Some(report) = payload.downcast_ref::<ErrorReportWithLevel>() {
            let (code, message, detail, hint) = of_report(report);
            copy(code, message, detail, hint);
        } else if let Some(message) = payload.downcast_ref::<&str>() {
            copy(internal, message, None, None);
        } else if let Some(message) = payload.downcast_ref::<String>() {
            copy(internal, message, None, None);
        } else {
            copy(internal, "a Rust panic with no message", None, None);
        }
    }

    /// Raises the error in PostgreSQL: `ereport(ERROR, ...)`. Does not return.
    ///
    /// # Safety
    /// No frame between the caller and PostgreSQL holds a Rust value that needs dropping
    /// (`self` does not): PostgreSQL leaves with a `longjmp`.
    #[inline(never)]
    pub unsafe fn raise(&mut self) -> ! {
        // SAFETY: see the contract; the strings are NUL-terminated and outlive the calls (errmsg
        // and friends copy them).
        unsafe {
            unguarded::errstart(PgLogLevel::ERROR as c_int, core::ptr::null());
            add_to_report(self.code, &mut self.message);
            if !self.detail.as_str().is_empty() {
                unguarded::errdetail(PERCENT_S, self.detail.as_c_str());
            }
            if !self.hint.as_str().is_empty() {
                unguarded::errhint(PERCENT_S, self.hint.as_c_str());
            }
            unguarded::errfinish(FILE, 0, core::ptr::null());
        }
        unreachable!("errfinish does not return at ERROR")
    }
}

const PERCENT_S: *const c_char = c"%s".as_ptr();
/// The file name of the reports (PostgreSQL shows it in a `VERBOSE` error's `LOCATION`).
pub(crate) const FILE: *const c_char = c"ulid".as_ptr();

/// `errcode(code)` and `errmsg("%s", message)`, for the report that `errstart` (or
/// `errsave_start`) began.
///
/// # Safety
/// A report was started and wants its details; as [`PendingError::raise`].
pub(crate) unsafe fn add_to_report(code: c_int, message: &mut MessageBuf) {
    // SAFETY: see the contract; the message is NUL-terminated and copied by errmsg.
    unsafe {
        unguarded::errcode(code);
        unguarded::errmsg(PERCENT_S, message.as_c_str());
    }
}

/// `ereport(ERROR, errcode(code), errmsg("%s", message))`. Does not return.
///
/// # Safety
/// As [`PendingError::raise`].
#[cold]
#[inline(never)]
pub unsafe fn raise_message(code: PgSqlErrorCode, message: &mut MessageBuf) -> ! {
    // SAFETY: see the contract.
    unsafe {
        unguarded::errstart(PgLogLevel::ERROR as c_int, core::ptr::null());
        add_to_report(code as c_int, message);
        unguarded::errfinish(FILE, 0, core::ptr::null());
    }
    unreachable!("errfinish does not return at ERROR")
}

/// Runs the body of an fmgr entry point so that no panic unwinds into PostgreSQL: a panic
/// becomes the `ERROR` it stands for ([`raise_caught`]). Costs nothing on the path that does not
/// fail (pgrx's `#[pg_guard]` runs the body in a function that is never inlined and returns the
/// result through memory: measured, a third of `ulidflake_in`'s own time).
#[inline(always)]
pub fn guarded<R>(body: impl FnOnce() -> R) -> R {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(result) => result,
        // SAFETY: called at the top of an entry point: the frames above own nothing to drop.
        Err(payload) => unsafe { raise_caught(payload) },
    }
}

/// Reports a caught panic as an `ERROR`: its payload is copied and dropped first.
///
/// # Safety
/// As [`PendingError::raise`].
#[cold]
#[inline(never)]
pub unsafe fn raise_caught(payload: Box<dyn Any + Send>) -> ! {
    let mut pending = PendingError::new(PgSqlErrorCode::ERRCODE_INTERNAL_ERROR);
    pending.of_payload(&*payload);
    drop(payload);
    // SAFETY: nothing in this frame needs dropping any more; see the contract.
    unsafe { pending.raise() }
}

/// The fmgr entry point `$symbol` (with its `$finfo` record) of a SQL function that calls `$f`,
/// in one of four forms:
/// - `fmgr_entry_point!(finfo, symbol, f)`: a function of no arguments;
/// - `fmgr_entry_point!(finfo, symbol, f, A)`: a STRICT function of one argument of Rust type
///   `A` (fmgr never passes a STRICT function a NULL);
/// - `fmgr_entry_point!(finfo, symbol, f, A, B)`: the same with two arguments;
/// - `fmgr_entry_point!(finfo, symbol, input f)`: a type's input function,
///   `f(InputText, &mut MessageBuf) -> Option<T>`, which writes why the text is not a `T` into
///   the buffer and returns `None`; the entry point then reports it as `22P02`, softly where
///   the caller asked for that (PostgreSQL 16 and later), from its own frame.
///
/// Arguments are read with pgrx's `FromDatum` and results written with `IntoDatum`; the result
/// is never NULL, and fmgr has set `isnull` to false before the call. The body runs under
/// [`guarded`]. (pgrx's `#[pg_extern]` wrapper would also switch to the memory context that is
/// already current and build an argument iterator and a return frame, about 10 ns a call, and
/// report errors through a path that can itself panic outside any guard.)
macro_rules! fmgr_entry_point {
    ($finfo:ident, $symbol:ident, $f:path) => {
        $crate::pg::fmgr::fmgr_entry_point!(@entry $finfo, $symbol, |_| {
            ::pgrx::IntoDatum::into_datum($f()).expect("the result is never NULL")
        });
    };
    ($finfo:ident, $symbol:ident, input $f:path) => {
        $crate::pg::fmgr::fmgr_entry_point!(@finfo $finfo);

        /// # Safety
        /// Called by PostgreSQL's fmgr only, as a version-1 input function.
        #[no_mangle]
        #[doc(hidden)]
        pub unsafe extern "C-unwind" fn $symbol(
            fcinfo: ::pgrx::pg_sys::FunctionCallInfo,
        ) -> ::pgrx::pg_sys::Datum {
            let mut message = $crate::pg::error::MessageBuf::new();
            let parsed = $crate::pg::fmgr::guarded(|| {
                // SAFETY: fmgr passes the text as a non-NULL cstring (input functions are STRICT).
                let text = unsafe {
                    let datum = (*fcinfo).args.as_ptr().read().value;
                    $crate::pg::datum::InputText::new(datum.cast_mut_ptr::<u8>())
                };
                $f(text, &mut message).map(|value| {
                    ::pgrx::IntoDatum::into_datum(value).expect("the result is never NULL")
                })
            });
            match parsed {
                Some(datum) => datum,
                // SAFETY: this frame owns nothing to drop (`message` is plain bytes).
                None => unsafe {
                    $crate::pg::compat::report_bad_input(
                        fcinfo,
                        ::pgrx::PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
                        &mut message,
                    )
                },
            }
        }
    };
    ($finfo:ident, $symbol:ident, $f:path, $arg:ty) => {
        $crate::pg::fmgr::fmgr_entry_point!(@entry $finfo, $symbol,
            |fcinfo: ::pgrx::pg_sys::FunctionCallInfo| {
                // SAFETY: fmgr passes one argument, and not a NULL one (the function is STRICT).
                let arg = unsafe { $crate::pg::fmgr::argument::<$arg>(fcinfo, 0) };
                ::pgrx::IntoDatum::into_datum($f(arg)).expect("the result is never NULL")
            });
    };
    ($finfo:ident, $symbol:ident, $f:path, $arg0:ty, $arg1:ty) => {
        $crate::pg::fmgr::fmgr_entry_point!(@entry $finfo, $symbol,
            |fcinfo: ::pgrx::pg_sys::FunctionCallInfo| {
                // SAFETY: fmgr passes two arguments, neither NULL (the function is STRICT).
                let (a, b) = unsafe {
                    (
                        $crate::pg::fmgr::argument::<$arg0>(fcinfo, 0),
                        $crate::pg::fmgr::argument::<$arg1>(fcinfo, 1),
                    )
                };
                ::pgrx::IntoDatum::into_datum($f(a, b)).expect("the result is never NULL")
            });
    };
    // The entry point: `$call` maps the call's `FunctionCallInfo` to the result's Datum.
    (@entry $finfo:ident, $symbol:ident, $call:expr) => {
        $crate::pg::fmgr::fmgr_entry_point!(@finfo $finfo);

        /// # Safety
        /// Called by PostgreSQL's fmgr only, as a version-1 function.
        #[no_mangle]
        #[doc(hidden)]
        pub unsafe extern "C-unwind" fn $symbol(
            fcinfo: ::pgrx::pg_sys::FunctionCallInfo,
        ) -> ::pgrx::pg_sys::Datum {
            let call = $call;
            $crate::pg::fmgr::guarded(|| call(fcinfo))
        }
    };
    // The record that tells fmgr the function uses the version-1 calling convention.
    (@finfo $finfo:ident) => {
        #[no_mangle]
        #[doc(hidden)]
        pub extern "C-unwind" fn $finfo() -> *const ::pgrx::pg_sys::Pg_finfo_record {
            const V1: ::pgrx::pg_sys::Pg_finfo_record =
                ::pgrx::pg_sys::Pg_finfo_record { api_version: 1 };
            &V1
        }
    };
}
pub(crate) use fmgr_entry_point;

/// Argument `index` of a STRICT function's call.
///
/// # Safety
/// `fcinfo` is the current call's, with more than `index` arguments, none of them NULL.
#[inline(always)]
pub unsafe fn argument<T: pgrx::FromDatum>(fcinfo: pg_sys::FunctionCallInfo, index: usize) -> T {
    // SAFETY: see the contract.
    let value = unsafe {
        let datum = (*fcinfo).args.as_ptr().add(index).read().value;
        T::from_polymorphic_datum(datum, false, pg_sys::InvalidOid)
    };
    value.expect("a STRICT function's argument is not NULL")
}
