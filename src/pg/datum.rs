//! Passing the extension's types between PostgreSQL and Rust.
//!
//! Each type implements pgrx's `FromDatum` and `IntoDatum` in its own module (that is where
//! its layout lives); [`sql_type!`] adds the calling-convention traits, which are the same for
//! every type, and [`fmgr_entry_point!`] writes the entry points of the functions that run once
//! per row.

use pgrx::{pg_sys, IntoDatum, PgSqlErrorCode};

use crate::codec::crockford::TextForm;
use crate::pg::compat::InputErrors;

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
///   `f(InputText, &InputErrors) -> Option<T>`, which reports bad input through `InputErrors`
///   (softly, where the caller asked for that) and then returns `None`.
///
/// For the functions that run once per row (the generators and the text I/O functions):
/// pgrx's wrapper switches to the memory context that is already current, builds an argument
/// iterator and a return frame, and that costs about 10 ns a call (measured side by side:
/// `gen_ulid()` 4% faster per row, about a fifth of what it adds to the floor). The guard is
/// [`guarded`], which has `#[pg_guard]`'s effect at no cost on the path that does not fail: a
/// Rust panic or an `ERROR` raised from Rust still ends as a PostgreSQL `ERROR`. The result is
/// never NULL, and fmgr has set `isnull` to false before the call.
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
                        $crate::pg::datum::InputText::new(datum.cast_mut_ptr::<u8>()),
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
        #[no_mangle]
        #[doc(hidden)]
        pub unsafe extern "C-unwind" fn $symbol(
            fcinfo: ::pgrx::pg_sys::FunctionCallInfo,
        ) -> ::pgrx::pg_sys::Datum {
            let call = $call;
            $crate::pg::datum::guarded(|| call(fcinfo))
        }
    };
}
pub(crate) use fmgr_entry_point;

/// Runs the body of an fmgr entry point so that no panic unwinds into PostgreSQL: what
/// `#[pg_guard]` does, without its cost on the path that does not fail. `#[pg_guard]` runs the
/// body inside pgrx's `run_guarded`, a function that is never inlined and returns the result
/// through memory (measured: a third of `ulidflake_in`'s own time). Here the body runs inline
/// under `catch_unwind`, which costs nothing unless something panics; a panic (a Rust bug, an
/// `ERROR` raised from Rust, or one PostgreSQL raised inside a pgrx call) is handed on to pgrx's
/// guard, which reports it as the `ERROR` it stands for, exactly as `#[pg_guard]` would.
#[inline(always)]
pub fn guarded(body: impl FnOnce() -> pg_sys::Datum) -> pg_sys::Datum {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(datum) => datum,
        // SAFETY: called from an fmgr entry point, like the guard of #[pg_guard].
        Err(panic) => unsafe {
            pg_sys::submodules::panic::pgrx_extern_c_guard(move || std::panic::resume_unwind(panic))
        },
    }
}

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

/// The text argument of a type's input function, a NUL-terminated string, read no further than
/// needed: a `strlen` of every input (5% of a `ulidflake` parse, measured) is not.
#[derive(Clone, Copy)]
pub struct InputText<'call>(*const u8, core::marker::PhantomData<&'call u8>);

impl<'call> InputText<'call> {
    /// # Safety
    /// `text` points to a NUL-terminated string that lives as long as `'call`.
    #[inline]
    pub unsafe fn new(text: *const u8) -> Self {
        InputText(text, core::marker::PhantomData)
    }

    /// The byte at `index`.
    ///
    /// # Safety
    /// No byte after the terminating NUL: `index` is at most the index of the NUL.
    #[inline]
    pub unsafe fn byte(self, index: usize) -> u8 {
        // SAFETY: see the contract.
        unsafe { *self.0.add(index) }
    }

    /// The whole text.
    #[inline]
    pub fn all(self) -> &'call core::ffi::CStr {
        // SAFETY: a NUL-terminated string (see `new`).
        unsafe { core::ffi::CStr::from_ptr(self.0.cast()) }
    }
}

/// The body of a type's input function: parses `input` as a `T` (reading it once, up to its
/// NUL), or reports why it is not one as `22P02`, through `errors` (softly, where the caller
/// asked for that), and returns `None`.
#[inline]
pub fn parse_input<T: TextForm>(
    input: InputText,
    errors: &InputErrors,
    type_name: &str,
) -> Option<T> {
    // SAFETY: parse_terminated reads no byte past the first non-digit, so none past the NUL.
    if let Some(value) = T::parse_terminated(|i| unsafe { input.byte(i) }) {
        return Some(value);
    }
    let text = InputMessageText::of(input);
    match T::parse(text.utf8()) {
        // Not reached: the two parsers agree (the fuzz tests check it).
        Ok(value) => Some(value),
        Err(problem) => {
            let message = format!(
                "invalid input syntax for type {type_name}: \"{}\": {problem}",
                String::from_utf8_lossy(text.utf8())
            );
            errors.report(
                PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
                text.fit_for_database(message),
            );
            None
        }
    }
}

/// Bad input as the error message sees it. Positions and characters are those of the text in
/// the database's encoding: in a UTF-8 database (or SQL_ASCII, which stores the client's bytes
/// unconverted) the bytes themselves; in any other encoding (LATIN1, say) the text converted to
/// UTF-8 to find them, with every non-ASCII character of the message then written as `<U+00C4>`,
/// since a message in UTF-8 would be misread in that encoding.
struct InputMessageText<'call> {
    utf8: std::borrow::Cow<'call, [u8]>,
    ascii_only: bool,
}

impl<'call> InputMessageText<'call> {
    #[cold]
    fn of(input: InputText<'call>) -> Self {
        let raw = input.all().to_bytes();
        // SAFETY: plain reads of the session's settled database encoding.
        let encoding = unsafe { pg_sys::GetDatabaseEncoding() } as pg_sys::pg_enc::Type;
        if encoding == pg_sys::pg_enc::PG_UTF8 || encoding == pg_sys::pg_enc::PG_SQL_ASCII {
            return InputMessageText {
                utf8: raw.into(),
                ascii_only: false,
            };
        }
        // SAFETY: `raw` is valid text in the database encoding (the server converted it from the
        // client's); the conversion returns it, or a palloc'd NUL-terminated copy, in UTF-8.
        let converted = unsafe {
            let converted = pg_sys::pg_server_to_any(
                raw.as_ptr().cast(),
                raw.len() as core::ffi::c_int,
                pg_sys::pg_enc::PG_UTF8 as core::ffi::c_int,
            );
            core::ffi::CStr::from_ptr(converted).to_bytes().to_vec()
        };
        InputMessageText {
            utf8: converted.into(),
            ascii_only: true,
        }
    }

    fn utf8(&self) -> &[u8] {
        &self.utf8
    }

    /// `message` as the database's encoding can carry it.
    fn fit_for_database(&self, message: String) -> String {
        if !self.ascii_only || message.is_ascii() {
            return message;
        }
        message
            .chars()
            .map(|c| match c {
                c if c.is_ascii() => c.to_string(),
                c => format!("<U+{:04X}>", c as u32),
            })
            .collect()
    }
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
