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
//! - Asking for shared memory: from 15 on, only in `shmem_request_hook`; 14 has no such hook and
//!   takes the request in `_PG_init` itself.

use core::ffi::CStr;

use pgrx::{pg_sys, PgSqlErrorCode};

use crate::pg::error::MessageBuf;

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

/// Reports bad input of a type's input function: `errsave(context, errcode(code),
/// errmsg("%s", message))` as core's input functions do. That is, into the caller's
/// `ErrorSaveContext` if it passed one (PostgreSQL 16 and later), and then returns a dummy
/// Datum that the caller ignores; else as an `ERROR`, and does not return. The SQLSTATE and
/// message are the same either way.
///
/// # Safety
/// Called from the entry point of the input function whose call `fcinfo` is, with nothing alive
/// in its frames that needs dropping: PostgreSQL may `longjmp` out of what this calls (an
/// `ERROR`, or a failure while it records the error).
pub unsafe fn report_bad_input(
    fcinfo: pg_sys::FunctionCallInfo,
    code: PgSqlErrorCode,
    message: &mut MessageBuf,
) -> pg_sys::Datum {
    #[cfg(not(any(feature = "pg14", feature = "pg15")))]
    {
        use crate::pg::fmgr::{add_to_report, FILE};
        extern "C-unwind" {
            fn errsave_start(context: *mut pg_sys::Node, domain: *const core::ffi::c_char) -> bool;
            fn errsave_finish(
                context: *mut pg_sys::Node,
                filename: *const core::ffi::c_char,
                lineno: core::ffi::c_int,
                funcname: *const core::ffi::c_char,
            );
        }
        // SAFETY: fmgr's `context` is NULL or a valid Node; see the contract for the rest.
        unsafe {
            let context = (*fcinfo).context;
            if !context.is_null() && (*context).type_ == pg_sys::NodeTag::T_ErrorSaveContext {
                // errsave_start says whether the caller wants the details (pg_input_error_info
                // does, pg_input_is_valid does not); it has marked the error as occurred either way.
                if errsave_start(context, core::ptr::null()) {
                    add_to_report(code as core::ffi::c_int, message);
                    errsave_finish(context, FILE, 0, core::ptr::null());
                }
                return pg_sys::Datum::from(0);
            }
        }
    }
    #[cfg(any(feature = "pg14", feature = "pg15"))]
    let _ = fcinfo;
    // SAFETY: see the contract.
    unsafe { crate::pg::fmgr::raise_message(code, message) }
}

/// Asks for `size` bytes of shared memory and a tranche of `locks` LWLocks named `tranche`,
/// calling `request` at the moment the major wants it (see the module's notes); `request` must
/// call [`request_shared_memory`].
pub fn on_shmem_request(request: unsafe extern "C-unwind" fn()) {
    #[cfg(feature = "pg14")]
    // SAFETY: in _PG_init of a preloaded library, where PostgreSQL 14 takes requests.
    unsafe {
        request()
    }
    #[cfg(not(feature = "pg14"))]
    {
        static mut PREVIOUS: pg_sys::shmem_request_hook_type = None;
        static mut REQUEST: Option<unsafe extern "C-unwind" fn()> = None;
        #[pgrx::pg_guard]
        unsafe extern "C-unwind" fn chained() {
            // SAFETY: set once in _PG_init, before PostgreSQL calls the hook.
            unsafe {
                if let Some(previous) = PREVIOUS {
                    previous();
                }
                if let Some(request) = REQUEST {
                    request();
                }
            }
        }
        // SAFETY: _PG_init runs once, in the postmaster, before any hook is called.
        unsafe {
            PREVIOUS = pg_sys::shmem_request_hook;
            REQUEST = Some(request);
            pg_sys::shmem_request_hook = Some(chained);
        }
    }
}
