//! Passing the extension's types between PostgreSQL and Rust.
//!
//! Each type implements pgrx's `FromDatum` and `IntoDatum` in its own module (that is where
//! its layout lives); [`sql_type!`] adds the calling-convention traits, which are the same for
//! every type. The entry points that PostgreSQL calls are in `crate::pg::fmgr`.

use pgrx::{pg_sys, FromDatum, IntoDatum};

use crate::codec::crockford::TextForm;
use crate::pg::error::MessageBuf;

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

/// `palloc_extended` without pgrx's guard. pgrx wraps every PostgreSQL function in a `sigsetjmp`
/// so that an `ERROR` (a `longjmp`) cannot cross Rust frames; that guard costs about 20 ns, a
/// third of `gen_ulid()`. With `MCXT_ALLOC_NO_OOM` and a valid size, `palloc_extended` cannot
/// raise an `ERROR`: out of memory it returns NULL, which [`palloc`] turns into a normal error.
mod unguarded {
    extern "C" {
        pub fn palloc_extended(size: usize, flags: core::ffi::c_int) -> *mut core::ffi::c_void;
    }
}

/// `size` bytes (1..=1 GB - 1) in the current memory context; out of memory, an `ERROR` with
/// SQLSTATE `53200`, as a failed `palloc` is in core.
#[inline]
pub fn palloc(size: usize) -> *mut u8 {
    debug_assert!(size > 0 && size < 0x3FFF_FFFF, "a valid palloc size");
    // SAFETY: a valid size and MCXT_ALLOC_NO_OOM: this call never raises an ERROR.
    let ptr =
        unsafe { unguarded::palloc_extended(size, pg_sys::MCXT_ALLOC_NO_OOM as core::ffi::c_int) };
    #[cfg(feature = "pg_test")]
    let ptr = if test_hook::REFUSE_PALLOC.load(core::sync::atomic::Ordering::Relaxed) {
        core::ptr::null_mut()
    } else {
        ptr
    };
    if ptr.is_null() {
        out_of_memory(size);
    }
    ptr.cast()
}

/// `53200` with core's message and detail for a failed `palloc`.
#[cold]
fn out_of_memory(size: usize) -> ! {
    crate::pg::error::raise_with_detail(
        pgrx::PgSqlErrorCode::ERRCODE_OUT_OF_MEMORY,
        "out of memory".into(),
        format!("Failed on request of size {size}."),
    )
}

/// A seam for the in-server tests: makes [`palloc`] fail as it does when the memory context
/// cannot grow. Compiled only with the `pg_test` feature (`cargo pgrx test`), never into an
/// installed extension.
#[cfg(feature = "pg_test")]
pub mod test_hook {
    use core::sync::atomic::AtomicBool;

    pub static REFUSE_PALLOC: AtomicBool = AtomicBool::new(false);
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
/// NUL), or writes why it is not one into `message` (see `bad_input`) and returns `None`.
#[inline]
pub fn parse_input<T: TextForm>(
    input: InputText,
    message: &mut MessageBuf,
    type_name: &str,
) -> Option<T> {
    // SAFETY: parse_terminated reads no byte past the first non-digit, so none past the NUL.
    if let Some(value) = T::parse_terminated(|i| unsafe { input.byte(i) }) {
        return Some(value);
    }
    crate::pg::bad_input::describe::<T>(input, type_name, message);
    None
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

/// The argument of a receive function: the bytes left in the `StringInfo` buffer it was called
/// with, all of which it consumes.
pub struct Received<'buf>(pub &'buf [u8]);

impl FromDatum for Received<'_> {
    #[inline]
    unsafe fn from_polymorphic_datum(
        datum: pg_sys::Datum,
        is_null: bool,
        _: pg_sys::Oid,
    ) -> Option<Self> {
        if is_null {
            return None;
        }
        // SAFETY: a receive function's argument is the StringInfo holding the value's bytes.
        let buf = unsafe { &mut *datum.cast_mut_ptr::<pg_sys::StringInfoData>() };
        let cursor = usize::try_from(buf.cursor).unwrap_or(0);
        let len = usize::try_from(buf.len).unwrap_or(0).max(cursor);
        buf.cursor = buf.len;
        // SAFETY: data holds len bytes.
        Some(Received(unsafe {
            std::slice::from_raw_parts(buf.data.cast::<u8>().add(cursor), len - cursor)
        }))
    }
}
