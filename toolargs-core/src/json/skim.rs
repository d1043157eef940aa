//! Skimming JSON text: reading the few parts of a document one needs where they stand, without
//! building the rest.
//!
//! Every function takes the whole text and a byte offset into it, and answers with offsets into
//! the same text, so that a caller can read a member's value, skip it, or hand its span to a
//! full reader. The grammar is RFC 8259's, exactly: a value these functions accept is one that
//! `serde_json` accepts, with the same strings (lone surrogates in a `\u` escape are refused,
//! as both readers refuse them).
//!
//! Numbers are the one difference: their text is kept, so one past the range of `f64`
//! (`1e400`), which `serde_json` refuses, is read as written.
//!
//! Hostile input is safe: no text makes these functions panic, nesting deeper than
//! [`MAX_DEPTH`] is refused, and the work is linear in the bytes read. Only [`skip_strict`]
//! checks the toolargs reader's policy on repeated keys; the other
//! [`Limits`](crate::options::Limits) are the reader's to check on a span that matters.
//!
//! ```
//! use toolargs_core::json::skim;
//!
//! let record = r#"{"id": 7, "tool": "search", "arguments": {"q": "caf\u00e9"}}"#;
//! let tool = skim::member(record, "tool").unwrap();
//! assert_eq!(skim::string(record, tool.start).unwrap().0, "search");
//! let arguments = skim::member(record, "arguments").unwrap();
//! assert_eq!(&record[arguments], r#"{"q": "caf\u00e9"}"#);
//! ```

use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Range;

use crate::text::{scan_to_special, special_bytes};

/// The deepest nesting of arrays and objects the functions of this module follow; deeper values are
/// refused, so that no text exhausts the stack.
pub const MAX_DEPTH: usize = 128;

/// The offset of the first byte at or after `at` that is not JSON whitespace (or the text's
/// length).
#[inline]
pub fn skip_space(text: &str, mut at: usize) -> usize {
    let bytes = text.as_bytes();
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// The span of the JSON value that starts at `at` (whitespace before it is skipped), its syntax
/// checked; `None` when there is no valid value there or it nests deeper than [`MAX_DEPTH`].
///
/// ```
/// use toolargs_core::json::skim;
///
/// let text = r#"[1, {"a": [true]}] tail"#;
/// assert_eq!(skim::skip(text, 0), Some(0..18));
/// assert_eq!(skim::skip(text, 4), Some(4..17));
/// assert_eq!(skim::skip("[1,]", 0), None);
/// ```
pub fn skip(text: &str, at: usize) -> Option<Range<usize>> {
    let start = skip_space(text, at);
    let end = skip_at::<false>(text, start, 0, MAX_DEPTH)?;
    Some(start..end)
}

/// [`skip`] for a value that toolargs' reader must read as it stands: an object that repeats a
/// key (compared as decoded, so `"a"` and `"\u0061"` are the same) is refused at any depth, and
/// so is nesting deeper than `max_depth` (itself at most [`MAX_DEPTH`]).
///
/// The keys of an object are compared in place up to sixteen of them; past that, or for a key
/// with an escape, in a hash set, so the work stays linear.
///
/// ```
/// use toolargs_core::json::skim;
///
/// assert_eq!(skim::skip_strict(r#"{"a": {"b": 1, "c": 2}}"#, 0, 8), Some(0..23));
/// assert_eq!(skim::skip_strict(r#"[{"a": 1, "\u0061": 2}]"#, 0, 8), None);
/// assert_eq!(skim::skip_strict("[[1]]", 0, 1), None);
/// ```
pub fn skip_strict(text: &str, at: usize, max_depth: usize) -> Option<Range<usize>> {
    let start = skip_space(text, at);
    let end = skip_at::<true>(text, start, 0, max_depth.min(MAX_DEPTH))?;
    Some(start..end)
}

/// Past the value at `at` (no whitespace before it), at `depth` levels of nesting; with
/// `DISTINCT`, an object that repeats a key is refused.
fn skip_at<const DISTINCT: bool>(
    text: &str,
    at: usize,
    depth: usize,
    max_depth: usize,
) -> Option<usize> {
    let bytes = text.as_bytes();
    match *bytes.get(at)? {
        b'"' => skip_string_bytes(bytes, at),
        b'{' | b'[' => {
            if depth >= max_depth {
                return None;
            }
            let close = if bytes[at] == b'{' { b'}' } else { b']' };
            let mut at = space(bytes, at + 1);
            if bytes.get(at) == Some(&close) {
                return Some(at + 1);
            }
            let mut keys = Keys::new();
            loop {
                if close == b'}' {
                    if DISTINCT {
                        let (key, end) = string(text, at)?;
                        if !keys.add(key) {
                            return None;
                        }
                        at = end;
                    } else {
                        at = skip_string_bytes(bytes, at)?;
                    }
                    at = space(bytes, at);
                    if bytes.get(at) != Some(&b':') {
                        return None;
                    }
                    at = space(bytes, at + 1);
                }
                at = skip_at::<DISTINCT>(text, at, depth + 1, max_depth)?;
                at = space(bytes, at);
                match *bytes.get(at)? {
                    b',' => at = space(bytes, at + 1),
                    b if b == close => return Some(at + 1),
                    _ => return None,
                }
            }
        }
        b't' => word(bytes, at, b"true"),
        b'f' => word(bytes, at, b"false"),
        b'n' => word(bytes, at, b"null"),
        _ => number_end(bytes, at),
    }
}

/// How many keys of one object [`Keys`] compares in place.
const KEYS_IN_PLACE: usize = 16;

/// The keys of one object read so far by [`skip_strict`], to refuse a repeated one.
struct Keys<'a> {
    seen: [&'a str; KEYS_IN_PLACE],
    count: usize,
    /// The lengths of the keys in `seen`, a bit each (from 63 bytes on, the last bit): a key of
    /// a length not read yet is new without comparing it to the others.
    lengths: u64,
    /// Every key, once there are more than `seen` holds or one has an escape.
    more: Option<HashSet<Cow<'a, str>>>,
}

impl<'a> Keys<'a> {
    #[inline]
    fn new() -> Self {
        Keys {
            seen: [""; KEYS_IN_PLACE],
            count: 0,
            lengths: 0,
            more: None,
        }
    }

    /// Adds a key; `false` when it was read before.
    #[inline]
    fn add(&mut self, key: Cow<'a, str>) -> bool {
        if let Some(set) = &mut self.more {
            return set.insert(key);
        }
        match key {
            Cow::Borrowed(key) if self.count < KEYS_IN_PLACE => {
                let length = 1 << key.len().min(63);
                // `contains` on a slice of slices is a call per key; `any` is inlined.
                #[allow(clippy::manual_contains)]
                if self.lengths & length != 0 && self.seen[..self.count].iter().any(|&s| s == key) {
                    return false;
                }
                self.lengths |= length;
                self.seen[self.count] = key;
                self.count += 1;
                true
            }
            key => {
                let mut set: HashSet<Cow<'a, str>> = self.seen[..self.count]
                    .iter()
                    .map(|&s| Cow::Borrowed(s))
                    .collect();
                let new = set.insert(key);
                self.more = Some(set);
                new
            }
        }
    }
}

#[inline]
fn space(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

fn word(bytes: &[u8], at: usize, word: &[u8]) -> Option<usize> {
    let end = at + word.len();
    (bytes.get(at..end)? == word).then_some(end)
}

/// The text of the number at `at` (no whitespace before it), exactly as written:
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`. It ends at `at` plus its length.
///
/// ```
/// use toolargs_core::json::skim;
///
/// assert_eq!(skim::number("[-1.50e+3]", 1), Some("-1.50e+3"));
/// assert_eq!(skim::number("01", 0), Some("0"));
/// assert_eq!(skim::number("1.", 0), None);
/// ```
#[inline(always)]
pub fn number(text: &str, at: usize) -> Option<&str> {
    let end = number_end(text.as_bytes(), at)?;
    text.get(at..end)
}

/// Past the number at `at`.
#[inline(always)]
fn number_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    let digits = |mut at: usize| {
        while bytes.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        at
    };
    if bytes.get(at) == Some(&b'-') {
        at += 1;
    }
    match bytes.get(at)? {
        b'0' => at += 1,
        b'1'..=b'9' => at = digits(at + 1),
        _ => return None,
    }
    if bytes.get(at) == Some(&b'.') {
        let end = digits(at + 1);
        if end == at + 1 {
            return None;
        }
        at = end;
    }
    if let Some(b'e' | b'E') = bytes.get(at) {
        at += 1;
        if let Some(b'+' | b'-') = bytes.get(at) {
            at += 1;
        }
        let end = digits(at);
        if end == at {
            return None;
        }
        at = end;
    }
    Some(at)
}

/// The string whose opening quote is at `at`, decoded (borrowed from `text` when it has no
/// escape), and the offset just past its closing quote.
///
/// ```
/// use toolargs_core::json::skim;
/// use std::borrow::Cow;
///
/// let text = r#"{"a": "plain", "b": "caf\u00e9\n"}"#;
/// assert!(matches!(skim::string(text, 6), Some((Cow::Borrowed("plain"), 13))));
/// assert_eq!(skim::string(text, 20).unwrap().0, "café\n");
/// assert_eq!(skim::string(r#""\ud800""#, 0), None);
/// ```
// Inlined: most strings (every key, most values) have no escape and take a few steps; those
// with one take the call below.
#[inline(always)]
pub fn string(text: &str, at: usize) -> Option<(Cow<'_, str>, usize)> {
    let bytes = text.as_bytes();
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let start = at + 1;
    let end = scan_to_special(bytes, start);
    if bytes.get(end) == Some(&b'"') {
        // Two splits rather than a range: the range's check is a call, the splits' inlined.
        let (before, _) = text.split_at_checked(end)?;
        let (_, string) = before.split_at_checked(start)?;
        return Some((Cow::Borrowed(string), end + 1));
    }
    escaped(text, start)
}

/// [`string`] from the first escape (or control character) on.
#[inline(never)]
fn escaped(text: &str, start: usize) -> Option<(Cow<'_, str>, usize)> {
    let mut out = String::new();
    let end = unescape_into(text, start, &mut out)?;
    Some((Cow::Owned(out), end))
}

/// Past the string whose opening quote is at `at`, its escapes and characters checked as
/// [`string`] checks them, without decoding it.
///
/// ```
/// use toolargs_core::json::skim;
///
/// assert_eq!(skim::skip_string(r#""{\"x\": 1}", 2"#, 0), Some(12));
/// assert_eq!(skim::skip_string(r#""\x""#, 0), None);
/// ```
#[inline]
pub fn skip_string(text: &str, at: usize) -> Option<usize> {
    skip_string_bytes(text.as_bytes(), at)
}

/// [`skip_string`] on bytes. Up to the first escape, one plain run. JSON text held in a string
/// escapes every quote, so from there the content is read eight bytes at a time with a
/// backslash followed by a quote taken in stride; from the first word with another escape or a
/// control character on, one run at a time.
fn skip_string_bytes(bytes: &[u8], at: usize) -> Option<usize> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // The high bit of each byte equal to `byte`, and of no other.
    let equal = |word: u64, byte: u8| {
        let x = word ^ (0x0101_0101_0101_0101 * u64::from(byte));
        !(((x & LOW) + LOW) | x) & HIGH
    };
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    // Most strings have no escape: the plain scan finds their end.
    let mut at = scan_to_special(bytes, at + 1);
    match *bytes.get(at)? {
        b'"' => return Some(at + 1),
        b'\\' => {}
        _ => return None,
    }
    // Whether the last word ended with a backslash, which the quote starting this one ends.
    let mut carry = 0;
    while let Some(chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<WORD>) {
        let word = u64::from_le_bytes(*chunk);
        let quotes = equal(word, b'"');
        let backslashes = equal(word, b'\\');
        let control = !(((word & LOW) + 0x6060_6060_6060_6060) | word) & HIGH;
        // The bytes that follow a backslash, each of which must be a quote.
        let escaped = (backslashes << 8) | carry;
        if control != 0 || escaped & !quotes != 0 {
            break;
        }
        let bare = quotes & !escaped;
        if bare != 0 {
            return Some(at + (bare.trailing_zeros() / 8) as usize + 1);
        }
        carry = (backslashes >> 63) << 7;
        at += WORD;
    }
    // A backslash that ended the last word is read again with what it escapes.
    let mut at = at - usize::from(carry != 0);
    loop {
        at = scan_to_special(bytes, at);
        match *bytes.get(at)? {
            b'"' => return Some(at + 1),
            b'\\' => match *bytes.get(at + 1)? {
                b'u' => at = unicode(bytes, at + 2)?.1,
                b => match UNESCAPED[usize::from(b)] {
                    0 => return None,
                    _ => at += 2,
                },
            },
            _ => return None,
        }
    }
}

/// The bytes [`unescape_into`] copies at once.
const WORD: usize = 8;

/// The byte each escape `\X` stands for, by `X`; 0 for `\u`, read apart, and for what is no
/// escape.
const UNESCAPED: [u8; 256] = {
    let mut table = [0; 256];
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table[b'/' as usize] = b'/';
    table[b'b' as usize] = 0x08;
    table[b'f' as usize] = 0x0c;
    table[b'n' as usize] = b'\n';
    table[b'r' as usize] = b'\r';
    table[b't' as usize] = b'\t';
    table
};

/// The character of the `\u` escape whose four hex digits start at `at` (with the low half of a
/// surrogate pair after it), and the offset past it; `None` for a lone surrogate.
fn unicode(bytes: &[u8], at: usize) -> Option<(char, usize)> {
    let hex4 = |at: usize| -> Option<u32> {
        let digits = bytes.get(at..at + 4)?;
        digits.iter().try_fold(0u32, |code, &d| {
            Some((code << 4) | char::from(d).to_digit(16)?)
        })
    };
    let first = hex4(at)?;
    match first {
        0xD800..=0xDBFF => {
            if bytes.get(at + 4..at + 6)? != b"\\u" {
                return None;
            }
            let second = hex4(at + 6)?;
            if !(0xDC00..=0xDFFF).contains(&second) {
                return None;
            }
            let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
            Some((char::from_u32(code)?, at + 10))
        }
        code => Some((char::from_u32(code)?, at + 4)),
    }
}

/// Decodes the content of the string whose opening quote is just before `from`, appending it to
/// `out`; returns the offset just past its closing quote. `None` when the string is not
/// valid (an unknown escape, a lone surrogate, a raw control character, no closing quote),
/// and `out` is then as it was.
///
/// For a caller that reuses one buffer for many strings; [`string`] allocates its own.
///
/// ```
/// use toolargs_core::json::skim;
///
/// let mut out = String::from("> ");
/// assert_eq!(skim::unescape_into(r#""a\tb\u00e9" rest"#, 1, &mut out), Some(12));
/// assert_eq!(out, "> a\tbé");
/// ```
pub fn unescape_into(text: &str, from: usize, out: &mut String) -> Option<usize> {
    let mut buffer = std::mem::take(out).into_bytes();
    let end = unescape_bytes(text.as_bytes(), from, &mut buffer);
    // Valid by construction: the content is copied from a `str` and escapes are whole
    // characters; on `None` the buffer is back to what `out` held.
    match String::from_utf8(buffer) {
        Ok(decoded) => {
            *out = decoded;
            end
        }
        Err(_) => None,
    }
}

/// [`unescape_into`] on bytes: appends to `out` (truncated back on `None`).
///
/// Strings with escapes are mostly JSON text logged in a string, whose runs between escapes are
/// short: rather than a scan and a copy call per run, each word of eight bytes is copied whole to
/// where the output stands, and the output moved on by its plain bytes only. The output is never
/// longer than the input (`\uXXXX` is six bytes for at most three), so a word more than the
/// input leaves room for every word written.
fn unescape_bytes(bytes: &[u8], from: usize, out: &mut Vec<u8>) -> Option<usize> {
    let base = out.len();
    let mut rest = bytes.get(from..)?;
    out.resize(base + rest.len() + WORD, 0);
    let mut room = &mut out[base..];
    let found = loop {
        if let (Some(word), Some(to)) = (rest.first_chunk::<WORD>(), room.first_chunk_mut()) {
            *to = *word;
            let special = special_bytes(u64::from_le_bytes(*word));
            if special == 0 {
                rest = &rest[WORD..];
                room = &mut std::mem::take(&mut room)[WORD..];
                continue;
            }
            let plain = (special.trailing_zeros() / 8) as usize;
            rest = &rest[plain..];
            room = &mut std::mem::take(&mut room)[plain..];
        } else if let Some((&b, after)) = rest.split_first() {
            // The text's last few bytes.
            if !matches!(b, b'"' | b'\\' | ..0x20) {
                let Some((to, more)) = std::mem::take(&mut room).split_first_mut() else {
                    break false;
                };
                *to = b;
                (rest, room) = (after, more);
                continue;
            }
        }
        // `rest` starts with a quote, a backslash or a control character, or is empty.
        match *rest {
            [b'"', ..] => break true,
            [b'\\', b'u', ..] => {
                let at = bytes.len() - rest.len();
                let Some((c, end)) = unicode(bytes, at + 2) else {
                    break false;
                };
                let mut utf8 = [0; 4];
                let encoded = c.encode_utf8(&mut utf8).as_bytes();
                let Some(to) = room.get_mut(..encoded.len()) else {
                    break false;
                };
                to.copy_from_slice(encoded);
                room = &mut std::mem::take(&mut room)[encoded.len()..];
                rest = &bytes[end..];
            }
            [b'\\', escaped, ..] => {
                let Some((to, more)) = std::mem::take(&mut room).split_first_mut() else {
                    break false;
                };
                *to = match UNESCAPED[usize::from(escaped)] {
                    0 => break false,
                    b => b,
                };
                room = more;
                rest = &rest[2..];
            }
            // A control character, which a string cannot hold raw, or the text's end.
            _ => break false,
        }
    };
    if !found {
        out.truncate(base);
        return None;
    }
    let left = room.len();
    out.truncate(out.len() - left);
    Some(bytes.len() - rest.len() + 1)
}

/// The members of the object that starts at `at` (after whitespace), as its keys (decoded)
/// and the spans of their values, in order; an `Err` ends them when the object is not valid
/// JSON. [`Members::end`] is then where the object ends.
///
/// ```
/// use toolargs_core::json::skim;
///
/// let text = r#" {"a": 1, "b\n": [2]} "#;
/// let members: Vec<_> = skim::members(text, 0)
///     .map(|m| m.map(|(key, span)| (key.into_owned(), &text[span])))
///     .collect();
/// assert_eq!(members, [Ok(("a".into(), "1")), Ok(("b\n".into(), "[2]"))]);
/// assert!(skim::members("{\"a\" 1}", 0).any(|m| m.is_err()));
/// ```
pub fn members(text: &str, at: usize) -> Members<'_> {
    let at = skip_space(text, at);
    let state = match text.as_bytes().get(at) {
        Some(b'{') => State::First,
        _ => State::Failed,
    };
    Members {
        text,
        at: at + 1,
        state,
    }
}

/// The iterator [`members`] returns.
#[derive(Clone, Debug)]
pub struct Members<'a> {
    text: &'a str,
    at: usize,
    state: State,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    First,
    Next,
    Done,
    Failed,
}

/// The object [`members`] read is not valid JSON, from the byte `at` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// The offset where reading stopped.
    pub at: usize,
}

impl<'a> Members<'a> {
    /// The offset just past the object's closing brace, once every member has been read;
    /// `None` before that or when the object is not valid.
    pub fn end(&self) -> Option<usize> {
        (self.state == State::Done).then_some(self.at)
    }

    fn member(&mut self) -> Option<(Cow<'a, str>, Range<usize>)> {
        let bytes = self.text.as_bytes();
        let mut at = space(bytes, self.at);
        match (self.state, bytes.get(at)) {
            (State::First, Some(b'}')) | (State::Next, Some(b'}')) => {
                self.at = at + 1;
                self.state = State::Done;
                return None;
            }
            (State::Next, Some(b',')) => at = space(bytes, at + 1),
            (State::First, _) => {}
            _ => return None,
        }
        let (key, after) = string(self.text, at)?;
        at = space(bytes, after);
        if bytes.get(at) != Some(&b':') {
            return None;
        }
        at = space(bytes, at + 1);
        let end = skip_at::<false>(self.text, at, 1, MAX_DEPTH)?;
        self.at = end;
        self.state = State::Next;
        Some((key, at..end))
    }
}

impl<'a> Iterator for Members<'a> {
    type Item = Result<(Cow<'a, str>, Range<usize>), Malformed>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.state {
            State::Done | State::Failed => return None,
            State::First | State::Next => {}
        }
        match self.member() {
            Some(member) => Some(Ok(member)),
            None if self.state == State::Done => None,
            None => {
                self.state = State::Failed;
                Some(Err(Malformed { at: self.at }))
            }
        }
    }
}

/// The span of the value of the member named `key` of the object that is the whole of `text`
/// (whitespace around it allowed); `None` when there is no such member or `text` is not one
/// valid JSON object. When the key is written twice, the last one is taken, as `serde_json`
/// does.
///
/// ```
/// use toolargs_core::json::skim;
///
/// let text = r#"{"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}"#;
/// let span = skim::member(text, "arguments").unwrap();
/// let (arguments, _) = skim::string(text, span.start).unwrap();
/// assert_eq!(arguments, r#"{"city": "Paris"}"#);
/// assert_eq!(skim::member(text, "id"), None);
/// assert_eq!(skim::member(r#"{"a": 1} x"#, "a"), None);
/// ```
pub fn member(text: &str, key: &str) -> Option<Range<usize>> {
    let mut members = members(text, 0);
    let mut found = None;
    for m in members.by_ref() {
        let (name, span) = m.ok()?;
        if name == key {
            found = Some(span);
        }
    }
    let end = members.end()?;
    (skip_space(text, end) == text.len()).then_some(found?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_read_as_serde_json_reads_them_at_every_offset() {
        let pieces = [
            "a",
            "\\\"",
            "\\\\",
            "\\n",
            "é",
            "€",
            "\t",
            "\\u00e9",
            "\\ud834\\udd1e",
            "\\ud834",
            "\\udd1e",
            "\\u12",
            "\\x",
            "\u{1}",
            "12345678",
            "\\/\\b\\f\\r\\t",
            "𝄞é€",
        ];
        for first in pieces {
            for second in pieces {
                for pad in 0..9 {
                    let body = format!("{}{first}{second}{}", "x".repeat(pad), "y".repeat(8 - pad));
                    let string = format!("\"{body}\"");
                    let theirs = serde_json::from_str::<String>(&string).ok();
                    // What follows the string decides where words are copied whole.
                    for after in 0..WORD + 2 {
                        let text = format!("{string}{}", " ".repeat(after));
                        let ours = string_of(&text);
                        assert_eq!(ours.as_ref().map(|s| s.0.as_str()), theirs.as_deref());
                        if let Some((_, end)) = ours {
                            assert_eq!(end, string.len(), "{text:?}");
                        }
                        assert_eq!(
                            skip_string(&text, 0),
                            theirs.as_ref().map(|_| string.len()),
                            "{text:?}"
                        );
                    }
                    // An unterminated string is no string.
                    let open = &string[..string.len() - 1];
                    assert_eq!(string_of(open), None, "{open:?}");
                    assert_eq!(skip_string(open, 0), None, "{open:?}");
                }
            }
        }
    }

    fn string_of(text: &str) -> Option<(String, usize)> {
        string(text, 0).map(|(s, end)| (s.into_owned(), end))
    }

    #[test]
    fn a_failed_unescape_leaves_the_buffer_as_it_was() {
        let mut out = String::from("kept");
        assert_eq!(unescape_into("\"a\\qb\"", 1, &mut out), None);
        assert_eq!(out, "kept");
    }

    #[test]
    fn any_bytes_are_answered_without_a_panic() {
        let deep = format!(
            "{}1{}",
            "[".repeat(MAX_DEPTH + 1),
            "]".repeat(MAX_DEPTH + 1)
        );
        assert_eq!(skip(&deep, 0), None);
        let ok = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert_eq!(skip(&ok, 0), Some(0..ok.len()));
        let pieces = [
            "{", "}", "[", "]", "\"", "\\", ":", ",", "1", "-", "e", "t", "\\u", " ",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let text = format!("{a}{b}{c}");
                    for at in 0..=text.len() + 1 {
                        let _ = skip(&text, at);
                        let _ = string(&text, at);
                        let _ = number(&text, at);
                        let _ = members(&text, at).count();
                    }
                    let _ = member(&text, "a");
                }
            }
        }
    }

    #[test]
    fn numbers_follow_the_grammar() {
        for (text, want) in [
            ("0", Some("0")),
            ("-0.5e-3x", Some("-0.5e-3")),
            ("12E+4", Some("12E+4")),
            ("-", None),
            ("1e", None),
            ("1e+", None),
            (".5", None),
            ("+1", None),
        ] {
            assert_eq!(number(text, 0), want, "{text}");
        }
    }
}
