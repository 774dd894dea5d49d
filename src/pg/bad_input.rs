//! The error message of a text that is not a valid `ulid` or `ulidflake`:
//! `invalid input syntax for type ulid: "<the input>": <what is wrong>`.
//!
//! The message is bounded, whatever the input. It quotes at most [`QUOTED_CHARACTERS`]
//! characters; a longer input is cut there, marked with `...`, and its length in characters
//! follows the quote: `"0123...": ...` becomes `"<64 characters>..." (134220000 characters): ...`.
//! Only that prefix (and the one bad character the message names) is decoded or converted; the
//! rest of the input is read once, without copying, to find the first bad character and to count
//! characters. Nothing is allocated by the extension: the message is written into the caller's
//! [`MessageBuf`].
//!
//! Characters and positions are those of the text in the database's encoding:
//! - UTF-8: the bytes themselves;
//! - SQL_ASCII, which stores the client's bytes unconverted: the bytes read as UTF-8, with U+FFFD
//!   for each invalid sequence (the input's length is then its length in bytes, as PostgreSQL's
//!   `length()` counts in SQL_ASCII);
//! - any other encoding (LATIN1, say): the quoted characters are converted to UTF-8 to name
//!   them, and every non-ASCII character of the message is written as `<U+00C4>`, since a
//!   message in UTF-8 would be misread in that encoding.
//!
//! Positions count characters, and every character before the first bad one is an ASCII digit,
//! so a position is also the byte index + 1, in every encoding.

use core::fmt::{self, Write};

use pgrx::pg_sys;

use crate::codec::crockford::{Found, TextError, TextForm};
use crate::pg::datum::InputText;
use crate::pg::error::MessageBuf;

/// How many characters of a bad input its error message quotes.
pub const QUOTED_CHARACTERS: usize = 64;

/// Writes why `input` is not a `T` (`type_name` in SQL) into `out`.
#[cold]
#[inline(never)]
pub fn describe<T: TextForm>(input: InputText, type_name: &str, out: &mut MessageBuf) {
    let bytes = input.all().to_bytes();
    let problem = match T::parse(bytes) {
        Err(problem) => problem,
        // Not reached: the two parsers agree (the fuzz tests check it).
        Ok(_) => TextError::WrongLength {
            expected: 0,
            found: 0,
        },
    };
    let encoding = DatabaseEncoding::current();
    let _ = match encoding {
        DatabaseEncoding::Utf8 | DatabaseEncoding::SqlAscii => {
            write_message(out, type_name, bytes, encoding, problem)
        }
        DatabaseEncoding::Other(_) => write_message(
            &mut EscapeNonAscii(out),
            type_name,
            bytes,
            encoding,
            problem,
        ),
    };
}

fn write_message(
    out: &mut impl Write,
    type_name: &str,
    bytes: &[u8],
    encoding: DatabaseEncoding,
    mut problem: TextError,
) -> fmt::Result {
    write!(out, "invalid input syntax for type {type_name}: \"")?;
    let cut = encoding.write_prefix(out, bytes)?;
    if cut {
        write!(
            out,
            "...\" ({} characters): ",
            encoding.count_characters(bytes)
        )?;
    } else {
        out.write_str("\": ")?;
    }
    // The codec read the bad character as UTF-8; in another encoding, a non-ASCII one is named
    // by converting it.
    if let (TextError::InvalidCharacter { found, position }, DatabaseEncoding::Other(enc)) =
        (&mut problem, encoding)
    {
        let at = &bytes[*position - 1..];
        if !at[0].is_ascii() {
            *found = character_in(enc, at);
        }
    }
    write!(out, "{problem}")
}

/// The server encoding, as far as the message cares.
#[derive(Clone, Copy)]
enum DatabaseEncoding {
    Utf8,
    SqlAscii,
    /// Any other server encoding (`pg_enc`).
    Other(i32),
}

impl DatabaseEncoding {
    fn current() -> Self {
        // SAFETY: a plain read of the session's settled database encoding.
        let encoding = unsafe { pg_sys::GetDatabaseEncoding() };
        match encoding as pg_sys::pg_enc::Type {
            pg_sys::pg_enc::PG_UTF8 => DatabaseEncoding::Utf8,
            pg_sys::pg_enc::PG_SQL_ASCII => DatabaseEncoding::SqlAscii,
            _ => DatabaseEncoding::Other(encoding),
        }
    }

    /// Writes the first [`QUOTED_CHARACTERS`] characters of `bytes`; whether there are more.
    fn write_prefix(self, out: &mut impl Write, bytes: &[u8]) -> Result<bool, fmt::Error> {
        match self {
            DatabaseEncoding::Utf8 | DatabaseEncoding::SqlAscii => {
                let mut written = 0;
                for chunk in bytes.utf8_chunks() {
                    for c in chunk.valid().chars() {
                        if written == QUOTED_CHARACTERS {
                            return Ok(true);
                        }
                        out.write_char(c)?;
                        written += 1;
                    }
                    if !chunk.invalid().is_empty() {
                        if written == QUOTED_CHARACTERS {
                            return Ok(true);
                        }
                        out.write_char(char::REPLACEMENT_CHARACTER)?;
                        written += 1;
                    }
                }
                Ok(false)
            }
            DatabaseEncoding::Other(encoding) => {
                let mut end = 0;
                for _ in 0..QUOTED_CHARACTERS {
                    if end == bytes.len() {
                        break;
                    }
                    end += character_length(encoding, &bytes[end..]);
                }
                for c in to_utf8(&bytes[..end]).chars() {
                    out.write_char(c)?;
                }
                Ok(end < bytes.len())
            }
        }
    }

    /// The number of characters of `bytes`, as `length()` counts them in this database.
    fn count_characters(self, bytes: &[u8]) -> usize {
        match self {
            // Every byte that does not continue a multi-byte sequence starts a character.
            DatabaseEncoding::Utf8 => bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count(),
            DatabaseEncoding::SqlAscii => bytes.len(),
            // SAFETY: plain calls on the encoding's tables; the text is valid in the encoding
            // and at most 1 GB (a text value's limit), so its length fits an int.
            DatabaseEncoding::Other(encoding) => unsafe {
                if pg_sys::pg_encoding_max_length(encoding) == 1 {
                    bytes.len()
                } else {
                    pg_sys::pg_mbstrlen_with_len(bytes.as_ptr().cast(), bytes.len() as i32) as usize
                }
            },
        }
    }
}

/// The length in bytes of the character `bytes` starts with, in `encoding`, at least 1 and at
/// most what is left.
fn character_length(encoding: i32, bytes: &[u8]) -> usize {
    // SAFETY: reads the lead byte only; `bytes` is not empty (callers check).
    let length = unsafe { pg_sys::pg_encoding_mblen(encoding, bytes.as_ptr().cast()) };
    usize::try_from(length).unwrap_or(1).clamp(1, bytes.len())
}

/// The character `bytes` starts with, in `encoding`, named by its code point.
fn character_in(encoding: i32, bytes: &[u8]) -> Found {
    let character = &bytes[..character_length(encoding, bytes)];
    match to_utf8(character).chars().next() {
        Some(c) => Found::Char(c),
        None => Found::Byte(bytes[0]),
    }
}

/// `text` (a few characters in the database encoding) converted to UTF-8.
fn to_utf8(text: &[u8]) -> String {
    if text.is_empty() {
        return String::new();
    }
    // SAFETY: `text` is valid in the database encoding (the server converted it from the
    // client's). pg_server_to_any returns `text` itself when no conversion is needed, else a
    // palloc'd NUL-terminated copy in UTF-8.
    unsafe {
        let converted = pg_sys::pg_server_to_any(
            text.as_ptr().cast(),
            text.len() as i32,
            pg_sys::pg_enc::PG_UTF8 as i32,
        );
        let converted = if converted.cast_const() == text.as_ptr().cast() {
            text
        } else {
            core::ffi::CStr::from_ptr(converted).to_bytes()
        };
        String::from_utf8_lossy(converted).into_owned()
    }
}

/// Writes non-ASCII characters as `<U+00C4>`: a message readable in any database encoding.
struct EscapeNonAscii<'a, W: Write>(&'a mut W);

impl<W: Write> Write for EscapeNonAscii<'_, W> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        for c in text.chars() {
            if c.is_ascii() {
                self.0.write_char(c)?;
            } else {
                write!(self.0, "<U+{:04X}>", c as u32)?;
            }
        }
        Ok(())
    }
}
