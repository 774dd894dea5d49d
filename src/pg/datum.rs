//! Passing the extension's types between PostgreSQL and Rust.
//!
//! Each type implements pgrx's `FromDatum` and `IntoDatum` in its own module (that is where
//! its layout lives); [`sql_type!`] adds the calling-convention traits, which are the same for
//! every type, and [`fmgr_entry_point!`] writes the entry points of the functions that run once
//! per row.

use pgrx::{pg_sys, IntoDatum};

/// Lets a Rust type with `FromDatum` and `IntoDatum` be an argument and a result of
/// `#[pg_extern]` functions, as the SQL type `$sql`.
macro_rules! sql_type {
    ($ty:ty, $sql:literal) => {
        unsafe impl<'fcx> ::pgrx::callconv::ArgAbi<'fcx> for $ty {
            #[inline]
            unsafe fn unbox_arg_unchecked(arg: ::pgrx::callconv::Arg<'_, 'fcx>) -> Self {
                let index = arg.index();
                unsafe { arg.unbox_arg_using_from_datum() }
                    .unwrap_or_else(|| panic!("argument {index} must not be null"))
            }
        }

        unsafe impl ::pgrx::callconv::BoxRet for $ty {
            #[inline]
            unsafe fn box_into<'fcx>(
                self,
                fcinfo: &mut ::pgrx::callconv::FcInfo<'fcx>,
            ) -> ::pgrx::datum::Datum<'fcx> {
                match ::pgrx::IntoDatum::into_datum(self) {
                    Some(datum) => unsafe { fcinfo.return_raw_datum(datum) },
                    None => fcinfo.return_null(),
                }
            }
        }

        unsafe impl ::pgrx::pgrx_sql_entity_graph::metadata::SqlTranslatable for $ty {
            const TYPE_IDENT: &'static str = ::pgrx::pgrx_resolved_type!($ty);
            const TYPE_ORIGIN: ::pgrx::pgrx_sql_entity_graph::metadata::TypeOrigin =
                ::pgrx::pgrx_sql_entity_graph::metadata::TypeOrigin::External;
            const ARGUMENT_SQL: Result<
                ::pgrx::pgrx_sql_entity_graph::metadata::SqlMappingRef,
                ::pgrx::pgrx_sql_entity_graph::metadata::ArgumentError,
            > = Ok(::pgrx::pgrx_sql_entity_graph::metadata::SqlMappingRef::literal($sql));
            const RETURN_SQL: Result<
                ::pgrx::pgrx_sql_entity_graph::metadata::ReturnsRef,
                ::pgrx::pgrx_sql_entity_graph::metadata::ReturnsError,
            > = Ok(::pgrx::pgrx_sql_entity_graph::metadata::ReturnsRef::One(
                ::pgrx::pgrx_sql_entity_graph::metadata::SqlMappingRef::literal($sql),
            ));
        }
    };
}
pub(crate) use sql_type;

/// The fmgr entry point `$symbol` (with its `$finfo` record) of a SQL function that calls
/// `$f`, written out instead of by `#[pg_extern]`, in one of three forms:
/// - `fmgr_entry_point!(finfo, symbol, f)`: a function of no arguments;
/// - `fmgr_entry_point!(finfo, symbol, f, Arg)`: a STRICT function of one argument of Rust type
///   `Arg` (fmgr never passes a STRICT function a NULL);
/// - `fmgr_entry_point!(finfo, symbol, input f)`: a type's input function,
///   `f(&CStr, &InputErrors) -> Option<T>`, which reports bad input through `InputErrors`
///   (softly, where the caller asked for that) and then returns `None`.
///
/// For the functions that run once per row (the generators and the text I/O functions):
/// pgrx's wrapper switches to the memory context that is already current, builds an argument
/// iterator and a return frame, and that costs about 10 ns a call (measured side by side:
/// `gen_ulid()` 4% faster per row, about a fifth of what it adds to the floor). `#[pg_guard]`
/// is kept, so a Rust panic or an `ERROR` raised from Rust still ends as a PostgreSQL `ERROR`.
/// The result is never NULL, and fmgr has set `isnull` to false before the call.
macro_rules! fmgr_entry_point {
    ($finfo:ident, $symbol:ident, $f:path) => {
        $crate::pg::datum::fmgr_entry_point!(@entry $finfo, $symbol, |_| {
            ::pgrx::IntoDatum::into_datum($f()).expect("the result is never NULL")
        });
    };
    ($finfo:ident, $symbol:ident, input $f:path) => {
        $crate::pg::datum::fmgr_entry_point!(@entry $finfo, $symbol,
            |fcinfo: ::pgrx::pg_sys::FunctionCallInfo| {
                // SAFETY: fmgr passes the text as a non-NULL cstring (input functions are STRICT),
                // and `fcinfo` is this call's.
                let (text, errors) = unsafe {
                    let datum = (*fcinfo).args.as_ptr().read().value;
                    (
                        ::core::ffi::CStr::from_ptr(datum.cast_mut_ptr::<::core::ffi::c_char>()),
                        $crate::pg::compat::InputErrors::of_call(fcinfo),
                    )
                };
                match $f(text, &errors) {
                    Some(value) => {
                        ::pgrx::IntoDatum::into_datum(value).expect("the result is never NULL")
                    }
                    // A soft error was recorded: the caller ignores the result.
                    None => ::pgrx::pg_sys::Datum::from(0),
                }
            });
    };
    ($finfo:ident, $symbol:ident, $f:path, $arg:ty) => {
        $crate::pg::datum::fmgr_entry_point!(@entry $finfo, $symbol,
            |fcinfo: ::pgrx::pg_sys::FunctionCallInfo| {
                // SAFETY: fmgr passes one argument, and not a NULL one (the function is STRICT).
                let arg = unsafe {
                    let datum = (*fcinfo).args.as_ptr().read().value;
                    <$arg as ::pgrx::FromDatum>::from_polymorphic_datum(
                        datum,
                        false,
                        ::pgrx::pg_sys::InvalidOid,
                    )
                };
                let result = $f(arg.expect("a STRICT function's argument is not NULL"));
                ::pgrx::IntoDatum::into_datum(result).expect("the result is never NULL")
            });
    };
    // The entry point: `$call` maps the call's `FunctionCallInfo` to the result's Datum.
    (@entry $finfo:ident, $symbol:ident, $call:expr) => {
        #[no_mangle]
        #[doc(hidden)]
        pub extern "C-unwind" fn $finfo() -> *const ::pgrx::pg_sys::Pg_finfo_record {
            const V1: ::pgrx::pg_sys::Pg_finfo_record =
                ::pgrx::pg_sys::Pg_finfo_record { api_version: 1 };
            &V1
        }

        /// # Safety
        /// Called by PostgreSQL's fmgr only, as a version-1 function.
        #[::pgrx::pg_guard]
        #[no_mangle]
        #[doc(hidden)]
        pub unsafe extern "C-unwind" fn $symbol(
            fcinfo: ::pgrx::pg_sys::FunctionCallInfo,
        ) -> ::pgrx::pg_sys::Datum {
            let call = $call;
            call(fcinfo)
        }
    };
}
pub(crate) use fmgr_entry_point;

/// `palloc_extended` without pgrx's guard. pgrx wraps every PostgreSQL function in a `sigsetjmp`
/// so that an `ERROR` (a `longjmp`) cannot cross Rust frames; that guard costs about 20 ns, a
/// third of `gen_ulid()`. With `MCXT_ALLOC_NO_OOM` and a valid size, `palloc_extended` cannot
/// raise an `ERROR`: out of memory it returns NULL, which [`palloc`] turns into a normal error.
mod unguarded {
    extern "C" {
        pub fn palloc_extended(size: usize, flags: core::ffi::c_int) -> *mut core::ffi::c_void;
    }
}

/// `size` bytes (1..=1 GB - 1) in the current memory context.
#[inline]
pub fn palloc(size: usize) -> *mut u8 {
    debug_assert!(size > 0 && size < 0x3FFF_FFFF, "a valid palloc size");
    // SAFETY: a valid size and MCXT_ALLOC_NO_OOM: this call never raises an ERROR.
    let ptr =
        unsafe { unguarded::palloc_extended(size, pg_sys::MCXT_ALLOC_NO_OOM as core::ffi::c_int) };
    if ptr.is_null() {
        crate::pg::error::raise(
            pgrx::PgSqlErrorCode::ERRCODE_OUT_OF_MEMORY,
            format!("out of memory: failed on request of size {size}"),
        );
    }
    ptr.cast()
}

/// A `cstring` already in palloc'd memory, returned as is (pgrx would copy a `&CStr`): the
/// result of the output functions.
pub struct PallocCString(*mut u8);

impl PallocCString {
    /// Copies `text` and a terminating NUL into a new palloc'd buffer.
    #[inline]
    pub fn new(text: &[u8]) -> Self {
        let buf = palloc(text.len() + 1);
        // SAFETY: palloc returned text.len() + 1 writable bytes.
        unsafe {
            buf.copy_from_nonoverlapping(text.as_ptr(), text.len());
            buf.add(text.len()).write(0);
            PallocCString(buf)
        }
    }
}

impl IntoDatum for PallocCString {
    #[inline]
    fn into_datum(self) -> Option<pg_sys::Datum> {
        Some(pg_sys::Datum::from(self.0))
    }

    fn type_oid() -> pg_sys::Oid {
        pg_sys::CSTRINGOID
    }
}

/// The bytes left to read in a receive function's buffer, which it must consume.
///
/// # Safety
/// `buf` is the `StringInfo` a receive function was called with.
#[inline]
pub unsafe fn unread_bytes(buf: &mut pg_sys::StringInfoData) -> &[u8] {
    let cursor = usize::try_from(buf.cursor).unwrap_or(0);
    let len = usize::try_from(buf.len).unwrap_or(0).max(cursor);
    buf.cursor = buf.len;
    // SAFETY: data holds len bytes.
    unsafe { std::slice::from_raw_parts(buf.data.cast::<u8>().add(cursor), len - cursor) }
}
