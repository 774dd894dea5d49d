//! What differs between the PostgreSQL majors the extension builds for (14 to 18), in one place.
//! Everything else in `pg` is the same code on every major.
//!
//! - Reserving the `ulid.` prefix of our settings: `MarkGUCPrefixReserved` is new in 15; 14 has
//!   its predecessor `EmitWarningsOnPlaceholders`, which warns about unknown `ulid.*` settings
//!   instead of refusing them.
//! - Soft input errors: from 16 on, a caller such as `pg_input_is_valid()` or
//!   `COPY ... (ON_ERROR ignore)` may pass a type's input function an `ErrorSaveContext`, and then
//!   expects bad input to be recorded there instead of raised. Before 16 there is no such context:
//!   bad input always raises.

use core::ffi::CStr;

use pgrx::{pg_sys, PgSqlErrorCode};

/// Reserves the settings prefix `prefix` (our `ulid.`) for this library. Called in `_PG_init`.
pub fn reserve_guc_prefix(prefix: &CStr) {
    // SAFETY: called while the library loads, with a NUL-terminated prefix that outlives the call
    // (PostgreSQL copies it).
    unsafe {
        #[cfg(feature = "pg14")]
        pg_sys::EmitWarningsOnPlaceholders(prefix.as_ptr());
        #[cfg(not(feature = "pg14"))]
        pg_sys::MarkGUCPrefixReserved(prefix.as_ptr());
    }
}

/// Where a type's input function reports bad input: into the caller's `ErrorSaveContext` when it
/// passed one (PostgreSQL 16 and later), as an `ERROR` otherwise. The SQLSTATE and message are the
/// same either way.
pub struct InputErrors {
    #[cfg(not(any(feature = "pg14", feature = "pg15")))]
    soft: Option<core::ptr::NonNull<pg_sys::Node>>,
}

impl InputErrors {
    /// The error context of an input function's call.
    ///
    /// # Safety
    /// `fcinfo` is the valid `FunctionCallInfo` of the current call.
    #[inline]
    pub unsafe fn of_call(fcinfo: pg_sys::FunctionCallInfo) -> Self {
        #[cfg(any(feature = "pg14", feature = "pg15"))]
        {
            let _ = fcinfo;
            InputErrors {}
        }
        #[cfg(not(any(feature = "pg14", feature = "pg15")))]
        {
            // SAFETY: fmgr's `context` is NULL or a valid Node.
            let context = unsafe { (*fcinfo).context };
            let soft = core::ptr::NonNull::new(context).filter(
                |node| unsafe { node.as_ref().type_ } == pg_sys::NodeTag::T_ErrorSaveContext,
            );
            InputErrors { soft }
        }
    }

    /// Reports bad input: records it in the caller's soft-error context and returns, or raises
    /// an `ERROR` (and does not return) when the caller gave none.
    pub fn report(&self, code: PgSqlErrorCode, message: String) {
        #[cfg(not(any(feature = "pg14", feature = "pg15")))]
        if let Some(context) = self.soft {
            // SAFETY: `context` is the caller's ErrorSaveContext; errsave_start/errsave_finish
            // with a soft context record the error and return (they never longjmp).
            unsafe { save_soft_error(context.as_ptr(), code, &message) };
            return;
        }
        crate::pg::error::raise(code, message)
    }
}

/// `errsave(context, errcode(code), errmsg("%s", message))`, as core's input functions do.
///
/// # Safety
/// `context` is a valid `ErrorSaveContext`.
#[cfg(not(any(feature = "pg14", feature = "pg15")))]
unsafe fn save_soft_error(context: *mut pg_sys::Node, code: PgSqlErrorCode, message: &str) {
    // The same declarations pgrx makes for its own ereport: these report functions do not raise.
    extern "C-unwind" {
        fn errcode(sqlerrcode: core::ffi::c_int) -> core::ffi::c_int;
        fn errmsg(fmt: *const core::ffi::c_char, ...) -> core::ffi::c_int;
    }
    // errsave_start says whether the caller wants the details (pg_input_error_info does,
    // pg_input_is_valid does not); it has marked the error as occurred either way.
    // SAFETY: see the function's contract.
    unsafe {
        if pg_sys::errsave_start(context, core::ptr::null()) {
            let message = std::ffi::CString::new(message.replace('\0', ""))
                .expect("no NUL bytes are left in the message");
            errcode(code as core::ffi::c_int);
            errmsg(c"%s".as_ptr(), message.as_ptr());
            pg_sys::errsave_finish(
                context,
                c"compat.rs".as_ptr(),
                line!() as core::ffi::c_int,
                c"ulid".as_ptr(),
            );
        }
    }
}
