//! Raising PostgreSQL errors from Rust, and the fixed-size buffer error messages are written in.
//!
//! [`raise`] unwinds (a Rust panic carrying a [`Raised`]), so every Rust value on the way is
//! dropped; the entry point that PostgreSQL called catches it and hands it to PostgreSQL as an
//! `ERROR` (`crate::pg::fmgr`). Messages are bounded: nothing the extension reports grows with
//! its input.

use core::ffi::c_char;
use core::fmt;
use core::mem::MaybeUninit;

use pgrx::PgSqlErrorCode;

/// An error raised from Rust: the panic payload that the entry points turn into an `ERROR`.
#[derive(Debug)]
pub struct Raised {
    pub code: PgSqlErrorCode,
    pub message: String,
    pub detail: Option<String>,
    pub hint: Option<String>,
}

/// Raises `ERROR` with `code` and `message`. Never returns: the statement is aborted and the
/// session stays usable.
#[cold]
pub fn raise(code: PgSqlErrorCode, message: String) -> ! {
    std::panic::panic_any(Raised {
        code,
        message,
        detail: None,
        hint: None,
    })
}

/// Like [`raise`], with a `DETAIL:` line.
#[cold]
pub fn raise_with_detail(code: PgSqlErrorCode, message: String, detail: String) -> ! {
    std::panic::panic_any(Raised {
        code,
        message,
        detail: Some(detail),
        hint: None,
    })
}

/// Like [`raise`], with a `HINT:` line that tells the user what to do.
#[cold]
pub fn raise_with_hint(code: PgSqlErrorCode, message: String, hint: &str) -> ! {
    std::panic::panic_any(Raised {
        code,
        message,
        detail: None,
        hint: Some(hint.to_owned()),
    })
}

/// A message of at most `N - 1` bytes and its terminating NUL, written with `write!`, on the
/// stack: writing it cannot fail for want of memory. Text past the end is cut at a character
/// boundary and the message then ends in `...` (no message the extension writes is that long;
/// the cut is a bound, not a format). NUL characters are left out. No `Drop`: it may live in
/// the frame of an entry point while PostgreSQL reports it.
pub struct MessageBuf<const N: usize = 1024> {
    bytes: [MaybeUninit<u8>; N],
    len: usize,
    cut: bool,
}

impl<const N: usize> MessageBuf<N> {
    /// Room kept for `...` and the NUL.
    const RESERVED: usize = 4;

    #[inline(always)]
    pub const fn new() -> Self {
        MessageBuf {
            bytes: [const { MaybeUninit::uninit() }; N],
            len: 0,
            cut: false,
        }
    }

    /// The text written so far.
    pub fn as_str(&self) -> &str {
        // SAFETY: the first `len` bytes were written by `write_str`, whole UTF-8 characters only.
        unsafe {
            core::str::from_utf8_unchecked(core::slice::from_raw_parts(
                self.bytes.as_ptr().cast::<u8>(),
                self.len,
            ))
        }
    }

    /// The message as a NUL-terminated string, valid while `self` is.
    pub fn as_c_str(&mut self) -> *const c_char {
        let mut end = self.len;
        if self.cut {
            for &b in b"..." {
                self.bytes[end].write(b);
                end += 1;
            }
        }
        self.bytes[end].write(0);
        self.bytes.as_ptr().cast()
    }
}

impl<const N: usize> Default for MessageBuf<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> fmt::Write for MessageBuf<N> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        for c in text.chars() {
            if self.cut {
                break;
            }
            if c == '\0' {
                continue;
            }
            let mut utf8 = [0u8; 4];
            let encoded = c.encode_utf8(&mut utf8).as_bytes();
            if self.len + encoded.len() > N - Self::RESERVED {
                self.cut = true;
                break;
            }
            for &b in encoded {
                self.bytes[self.len].write(b);
                self.len += 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write;

    #[test]
    fn a_message_that_fits_is_kept_whole() {
        let mut buf = MessageBuf::<32>::new();
        let (found, at) = ("é", 3);
        write!(buf, "invalid {found} at {at}").unwrap();
        assert_eq!(buf.as_str(), "invalid é at 3");
        let c = unsafe { core::ffi::CStr::from_ptr(buf.as_c_str()) };
        assert_eq!(c.to_str().unwrap(), "invalid é at 3");
    }

    #[test]
    fn a_longer_one_is_cut_at_a_character_and_marked() {
        let mut buf = MessageBuf::<16>::new();
        buf.write_str("ab\0cdefghijéé€€€€€€").unwrap();
        // 12 bytes of room: "abcdefghij" is 10, "é" (2) fits, the next "é" does not.
        assert_eq!(buf.as_str(), "abcdefghijé");
        let c = unsafe { core::ffi::CStr::from_ptr(buf.as_c_str()) };
        assert_eq!(c.to_str().unwrap(), "abcdefghijé...");
        // Nothing more is written once cut.
        write!(buf, "x").unwrap();
        assert_eq!(buf.as_str(), "abcdefghijé");
    }
}
