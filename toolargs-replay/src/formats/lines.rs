//! The replay's own format: one call per record, `{"tool": NAME, "arguments":
//! STRING_OR_OBJECT, ...}`, every other top-level field a grouping key.

use std::borrow::Cow;
use std::cell::Cell;

use serde_json::Value;
use toolargs_core::decode::{read_embedded, read_logged, LoggedPayload};
use toolargs_core::internal::text::{scan_to_special, special_bytes};
use toolargs_core::node::Node;
use toolargs_core::options::Limits;

use super::{Args, Call};
use crate::outcome::BadRecord;

/// Reads one record and hands its call (or why it is none) to `f`.
///
/// The usual record (arguments as JSON text or a JSON value, nothing unusual in it) is read by
/// [`Scan`], which finds the fields replay needs without building the others. Anything else is
/// read by toolargs' own reader, which borrows from the line; a line it refuses (a duplicate
/// key, say) is read again by serde_json, which keeps the last value as most loggers' readers
/// do.
pub(crate) fn read<R>(
    text: &str,
    by: &[String],
    limits: &Limits,
    f: impl FnOnce(Result<Call<'_>, BadRecord>) -> R,
) -> R {
    if let Some(record) = Scan::record(text, by, limits) {
        let result = f(Ok(Call {
            tool: record.tool.as_deref(),
            arguments: Some(match record.arguments {
                Found::Escaped(text, read) => Args::Escaped(text, read),
                Found::Logged(text, read) => Args::Logged(Cow::Borrowed(text), read),
            }),
            key: record.key,
        }));
        return result;
    }
    let fallback: Value;
    let node = match toolargs_core::decode::parse_document(text, Limits::DEFAULT.max_depth) {
        Ok(node) => node,
        Err(_) => match serde_json::from_str::<Value>(text) {
            Ok(value) => {
                fallback = value;
                match Node::from_value(&fallback, usize::MAX) {
                    Ok(node) => node,
                    Err(_) => return f(Err(BadRecord::NotJson)),
                }
            }
            Err(_) => return f(Err(BadRecord::NotJson)),
        },
    };
    let Node::Object(fields) = &node else {
        return f(Err(BadRecord::NotObject));
    };
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    let key: Vec<Value> = by
        .iter()
        .map(|f| field(f).map_or(Value::Null, Node::to_value))
        .collect();
    let tool = match field("tool") {
        None | Some(Node::Null) => None,
        Some(Node::String(name)) => Some(name.as_ref()),
        Some(_) => Some(""),
    };
    let arguments = field("arguments").map(|arguments| match arguments {
        Node::String(text) => Args::Text(text.as_ref()),
        other => Args::Logged(Cow::Owned(other.to_json()), None),
    });
    f(Ok(Call {
        tool,
        arguments,
        key,
    }))
}

/// The fields of a usual record, as [`Scan::record`] finds them.
struct Usual<'a> {
    tool: Option<Cow<'a, str>>,
    arguments: Found<'a>,
    key: Vec<Value>,
}

/// The arguments of a usual record.
enum Found<'a> {
    /// A string of JSON text, as logged, and as read from there ([`Args::Escaped`]).
    Escaped(&'a str, Option<LoggedPayload<'a>>),
    /// Any other value: its text in the record, whose syntax the scan has checked, and the
    /// object as read from there ([`Args::Logged`]).
    Logged(&'a str, Option<LoggedPayload<'a>>),
}

/// Runs `f` on JSON text logged as a string ([`Args::Escaped`]), unescaped into this thread's
/// spare buffer, which is kept for the next one. `None` if the text is not one string's
/// content and closing quote with escapes of one character only, as the scan checked.
pub(crate) fn with_unescaped<R>(logged: &str, f: impl FnOnce(&str) -> R) -> Option<R> {
    let mut scan = Scan {
        text: logged,
        at: 0,
    };
    let text = scan.unescape(0).filter(|_| scan.at == logged.len())?;
    let result = f(&text);
    if text.capacity() <= SPARE_MAX {
        SPARE.set(text.into_bytes());
    }
    Some(result)
}

/// A grouping field's value, as the full reader reads it from its text.
fn value_of(text: &str) -> Option<Value> {
    toolargs_core::decode::parse_document(text, Limits::DEFAULT.max_depth)
        .ok()
        .map(|node| node.to_value())
}

/// The position of the first byte from `at` on that ends a run of plain string content (a
/// quote, a backslash or a control character), or `None` when the text ends first.
#[inline(always)]
fn next_special(bytes: &[u8], at: usize) -> Option<usize> {
    let found = scan_to_special(bytes, at);
    (found < bytes.len()).then_some(found)
}

thread_local! {
    /// The buffer of the last arguments [`Scan::unescape`] wrote, for the next record's: most
    /// records have their arguments as escaped text, and the buffer needs no allocation, nor
    /// zeroing but for what the next one needs more.
    static SPARE: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// The largest buffer kept in [`SPARE`], so that one long line does not hold its memory.
const SPARE_MAX: usize = 1 << 16;

/// The bytes [`Scan::unescape`] copies at once.
const WORD: usize = 8;

/// The byte each escape `\X` stands for, by `X`; 0 for those [`Scan`] leaves to the full
/// reader (`\u`) or that are no escape.
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

/// How many keys of one nested object [`Scan`] reads; a record with more goes to the full
/// reader.
const SCAN_KEYS: usize = 16;

/// The keys of one nested object read so far, to refuse a repeated one: the full reader refuses
/// it, and the line's fallback reader would keep one of the two values.
struct Keys<'a> {
    seen: [&'a [u8]; SCAN_KEYS],
    count: usize,
    /// The lengths of the keys read, a bit each (from 63 bytes on, the last bit): a key of a
    /// length not read yet is new without comparing it to the others.
    lengths: u64,
}

impl<'a> Keys<'a> {
    fn new() -> Self {
        Keys {
            seen: [b""; SCAN_KEYS],
            count: 0,
            lengths: 0,
        }
    }

    /// Adds a key read with [`Scan::key`]; `None` when it is repeated or one too many.
    #[inline(always)]
    // `contains` on a slice of slices is a call per key; `any` is inlined.
    #[allow(clippy::manual_contains)]
    fn add(&mut self, name: &'a [u8]) -> Option<&'a [u8]> {
        let length = 1 << name.len().min(63);
        if self.count == SCAN_KEYS
            || (self.lengths & length != 0
                && self.seen[..self.count].iter().any(|&seen| seen == name))
        {
            return None;
        }
        self.lengths |= length;
        self.seen[self.count] = name;
        self.count += 1;
        Some(name)
    }
}

/// How deep [`Scan`] follows nested values before leaving the record to the full reader.
const SCAN_DEPTH: usize = 32;

/// A reader of the usual record `{"tool": "NAME", "arguments": "JSON TEXT", ...}`: it reads the
/// tool's name and the arguments (the text of those logged as a value, its syntax checked),
/// reads the grouping fields (with the full reader when they are not strings), and checks the
/// syntax of every other value without building it. It gives up (`None`) on anything it is
/// not sure to read exactly as the full reader does: a `\u` escape, a key with an escape, a
/// nested object of more than [`SCAN_KEYS`] keys or with a repeated key, a number with an
/// exponent or of more than 15 digits, a repeated record key whose value it reads, deep
/// nesting, or invalid JSON; the full reader then decides.
struct Scan<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Scan<'a> {
    fn record(text: &'a str, by: &[String], limits: &Limits) -> Option<Usual<'a>> {
        // Without grouping fields, the usual case, the scan is built without their code.
        match by {
            [] => Self::record_grouped::<false>(text, by, limits),
            _ => Self::record_grouped::<true>(text, by, limits),
        }
    }

    fn record_grouped<const GROUPED: bool>(
        text: &'a str,
        by: &[String],
        limits: &Limits,
    ) -> Option<Usual<'a>> {
        let mut scan = Scan { text, at: 0 };
        scan.space();
        scan.eat(b'{')?;
        let mut tool = None;
        let mut arguments = None;
        // Built only when grouping: `vec!` calls out even for no element.
        let mut key: Vec<Value> = match GROUPED {
            false => Vec::new(),
            true => vec![Value::Null; by.len()],
        };
        // Only a repeated key whose value is used (the tool, the arguments, a grouping field)
        // sends the record to the full reader, which keeps the last value. Any other key may
        // repeat: the values replay reads are the same whichever copy is kept.
        let mut tool_seen = false;
        let mut grouped_seen = 0u64;
        scan.space();
        if scan.peek() == Some(b'}') {
            return None;
        }
        loop {
            scan.space();
            let name = scan.key()?;
            scan.colon()?;
            let start = scan.at;
            let field = match GROUPED {
                false => None,
                true => by.iter().position(|f| f.as_bytes() == name),
            };
            if let Some(i) = field {
                // Past 64 grouping fields, every record goes to the full reader.
                let bit = 1u64.checked_shl(i as u32)?;
                if grouped_seen & bit != 0 {
                    return None;
                }
                grouped_seen |= bit;
            }
            match name {
                b"tool" => {
                    if std::mem::replace(&mut tool_seen, true) {
                        return None;
                    }
                    match scan.peek()? {
                        b'"' => tool = Some(scan.string()?),
                        b'n' => scan.skip(0)?,
                        // A name that is not a string: the full reader says so.
                        _ => return None,
                    }
                }
                b"arguments" => {
                    // Once tested, the assignment below has no earlier value to drop.
                    if arguments.is_some() {
                        return None;
                    }
                    arguments = Some(match scan.peek()? {
                        // Arguments logged as text: read as they stand where they can be,
                        // else their escapes checked, not undone.
                        b'"' => match read_logged(&text[start + 1..], limits) {
                            Some((payload, read)) => {
                                scan.at = start + 1 + read;
                                Found::Escaped(&text[start + 1..scan.at], Some(payload))
                            }
                            None => {
                                scan.skip_logged_text()?;
                                Found::Escaped(&text[start + 1..scan.at], None)
                            }
                        },
                        // Arguments logged as a value: an object read where it stands, else
                        // its syntax checked and its text left to the tool's judge.
                        _ => match read_embedded(&text[start..], limits) {
                            Some((payload, read)) => {
                                scan.at = start + read;
                                Found::Logged(&text[start..scan.at], Some(payload))
                            }
                            None => {
                                scan.skip(0)?;
                                Found::Logged(&text[start..scan.at], None)
                            }
                        },
                    });
                }
                _ => match (field, scan.peek()?) {
                    (Some(i), _) => key[i] = scan.grouped()?,
                    // The usual other fields (an id, a model's name) without the call.
                    (None, b'"') => scan.skip_string()?,
                    (None, b'-' | b'0'..=b'9') => scan.number()?,
                    (None, _) => scan.skip(0)?,
                },
            }
            if let Some(i) = field {
                // A grouping field named `tool` or `arguments`, read above as the call's.
                if let b"tool" | b"arguments" = name {
                    key[i] = value_of(&text[start..scan.at])?;
                }
                // A grouping field named twice holds the same value twice.
                for j in i + 1..by.len() {
                    if by[j].as_bytes() == name {
                        key[j] = key[i].clone();
                    }
                }
            }
            if scan.comma() {
                continue;
            }
            scan.space();
            match scan.next()? {
                b',' => continue,
                b'}' => break,
                _ => return None,
            }
        }
        scan.space();
        if scan.at != text.len() {
            return None;
        }
        Some(Usual {
            tool,
            arguments: arguments?,
            key,
        })
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        Some(b)
    }

    fn eat(&mut self, want: u8) -> Option<()> {
        (self.next()? == want).then_some(())
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// The colon after a key, with the space around it: most often `: ` exactly, taken at
    /// once.
    #[inline(always)]
    fn colon(&mut self) -> Option<()> {
        if self.text.as_bytes().get(self.at..self.at + 2) == Some(b": ") {
            self.at += 2;
        } else {
            self.space();
            self.eat(b':')?;
        }
        self.space();
        Some(())
    }

    /// Moves past the usual `, ` between members, if it is at the cursor; any other
    /// spacing is left to the general steps.
    #[inline(always)]
    fn comma(&mut self) -> bool {
        let usual = self.text.as_bytes().get(self.at..self.at + 2) == Some(b", ");
        if usual {
            self.at += 2;
        }
        usual
    }

    /// A string at the cursor, borrowed when it has no escape.
    // Inlined: most strings (every key, most values) have no escape and take a few steps.
    #[inline(always)]
    fn string(&mut self) -> Option<Cow<'a, str>> {
        self.eat(b'"')?;
        let bytes = self.text.as_bytes();
        let start = self.at;
        let at = next_special(bytes, start)?;
        if bytes[at] == b'"' {
            self.at = at + 1;
            // Two splits rather than a range: the range's check is a call, the splits' inlined.
            let (before, _) = self.text.split_at_checked(at)?;
            let (_, string) = before.split_at_checked(start)?;
            return Some(Cow::Borrowed(string));
        }
        self.unescape(start).map(Cow::Owned)
    }

    /// A key at the cursor, as its bytes; `None` when it has an escape (the full reader
    /// compares keys as read).
    #[inline(always)]
    fn key(&mut self) -> Option<&'a [u8]> {
        self.eat(b'"')?;
        let bytes = self.text.as_bytes();
        let start = self.at;
        let end = next_special(bytes, start)?;
        if bytes[end] != b'"' {
            return None;
        }
        self.at = end + 1;
        bytes.get(start..end)
    }

    /// Checks the string at the cursor, as [`Scan::string`] reads it, and moves past it.
    // Inlined, as `number`: a call saves and restores more registers than a short value takes.
    #[inline(always)]
    fn skip_string(&mut self) -> Option<()> {
        self.eat(b'"')?;
        self.skip_string_from(self.at)
    }

    /// Moves past the string whose content goes on at `at`.
    fn skip_string_from(&mut self, mut at: usize) -> Option<()> {
        let bytes = self.text.as_bytes();
        loop {
            at = next_special(bytes, at)?;
            match bytes[at] {
                b'"' => break,
                b'\\' if UNESCAPED[usize::from(*bytes.get(at + 1)?)] != 0 => at += 2,
                _ => return None,
            }
        }
        self.at = at + 1;
        Some(())
    }

    /// [`Scan::skip_string`] for JSON text logged as a string, whose escapes are nearly all
    /// `\"`: eight bytes at a time, a backslash followed by a quote taken in stride. From the
    /// first word with another escape or a control character on, the general steps.
    fn skip_logged_text(&mut self) -> Option<()> {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        // The high bit of each byte equal to `byte`, and of no other.
        let equal = |word: u64, byte: u8| {
            let x = word ^ (0x0101_0101_0101_0101 * u64::from(byte));
            !(((x & LOW) + LOW) | x) & HIGH
        };
        self.eat(b'"')?;
        let bytes = self.text.as_bytes();
        let mut at = self.at;
        // Whether the last word ended with a backslash, which the quote starting this one ends.
        let mut carry = 0;
        while let Some(chunk) = bytes.get(at..at + WORD) {
            let word = u64::from_le_bytes(chunk.try_into().ok()?);
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
                self.at = at + (bare.trailing_zeros() / 8) as usize + 1;
                return Some(());
            }
            carry = (backslashes >> 63) << 7;
            at += WORD;
        }
        // A backslash that ended the last word is read again with what it escapes.
        self.skip_string_from(at - usize::from(carry != 0))
    }

    /// The rest of a string that starts at `start`, unescaped: called for a string with an
    /// escape (or a control character), or for arguments logged as text, which have some.
    #[inline(never)]
    fn unescape(&mut self, start: usize) -> Option<String> {
        let bytes = self.text.as_bytes();
        let mut rest = bytes.get(start..)?;
        // Arguments logged as text escape every quote, so the runs between escapes are short:
        // rather than a scan and a copy call per run, each word of eight bytes is copied whole
        // to where the output stands, and the output moved on by its plain bytes only. The
        // output is never longer than the input, so a word more than the input leaves room
        // for every word read.
        let mut out = SPARE.take();
        if out.len() < rest.len() + WORD {
            out.resize(rest.len() + WORD, 0);
        }
        let mut room = &mut out[..];
        loop {
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
            } else {
                // The line's last few bytes.
                let (&b, after) = rest.split_first()?;
                if !matches!(b, b'"' | b'\\' | ..0x20) {
                    let (to, more) = std::mem::take(&mut room).split_first_mut()?;
                    *to = b;
                    (rest, room) = (after, more);
                    continue;
                }
            }
            // `rest` starts with a quote, a backslash or a control character.
            match *rest {
                [b'"', ..] => break,
                [b'\\', escaped, ..] => {
                    let (to, more) = std::mem::take(&mut room).split_first_mut()?;
                    *to = match UNESCAPED[usize::from(escaped)] {
                        0 => return None,
                        b => b,
                    };
                    room = more;
                    rest = &rest[2..];
                }
                // A control character, which a string cannot hold raw, or the line's end.
                _ => return None,
            }
        }
        let left = room.len();
        out.truncate(out.len() - left);
        self.at = bytes.len() - rest.len() + 1;
        // Escapes are ASCII and the runs between them are copied whole from a `str`.
        String::from_utf8(out).ok()
    }

    /// The value of a grouping field at the cursor: a string as the scan reads it (as the full
    /// reader does), anything else with the full reader.
    #[inline(never)]
    fn grouped(&mut self) -> Option<Value> {
        if self.peek()? == b'"' {
            return Some(Value::String(self.string()?.into_owned()));
        }
        let start = self.at;
        self.skip(0)?;
        value_of(&self.text[start..self.at])
    }

    /// Checks the syntax of the value at the cursor and moves past it.
    fn skip(&mut self, depth: usize) -> Option<()> {
        if depth > SCAN_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' => self.skip_string(),
            b'{' | b'[' => {
                let close = if self.next()? == b'{' { b'}' } else { b']' };
                self.space();
                if self.peek()? == close {
                    self.at += 1;
                    return Some(());
                }
                // Members are one level deeper, where scalars are refused too.
                if depth == SCAN_DEPTH {
                    return None;
                }
                let mut keys = Keys::new();
                loop {
                    self.space();
                    if close == b'}' {
                        keys.add(self.key()?)?;
                        self.colon()?;
                    }
                    // Strings and numbers, most members, without a call of their own.
                    match self.peek()? {
                        b'"' => self.skip_string()?,
                        b'-' | b'0'..=b'9' => self.number()?,
                        _ => self.skip(depth + 1)?,
                    }
                    if self.comma() {
                        continue;
                    }
                    self.space();
                    match self.next()? {
                        b',' => continue,
                        b if b == close => return Some(()),
                        _ => return None,
                    }
                }
            }
            b't' => self.word("true"),
            b'f' => self.word("false"),
            b'n' => self.word("null"),
            _ => self.number(),
        }
    }

    fn word(&mut self, word: &str) -> Option<()> {
        let end = self.at + word.len();
        (self.text.get(self.at..end)? == word).then(|| self.at = end)
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?`, at most 15 digits.
    #[inline(always)]
    fn number(&mut self) -> Option<()> {
        let bytes = self.text.as_bytes();
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let digits = |s: &mut Self| {
            let from = s.at;
            while bytes.get(s.at).is_some_and(u8::is_ascii_digit) {
                s.at += 1;
            }
            s.at - from
        };
        let int = self.at;
        let mut written = digits(self);
        match written {
            0 => return None,
            n if n > 1 && bytes[int] == b'0' => return None,
            _ => {}
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            match digits(self) {
                0 => return None,
                n => written += n,
            }
        }
        match self.peek() {
            Some(b'e' | b'E') => None,
            _ if written > 15 => None,
            _ => Some(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call as plain values: tool, arguments (`text:`, `logged:` or `value:`), grouping key.
    type Found = (Option<String>, Option<String>, Vec<Value>);

    /// The call `read` finds, as plain values.
    fn call_of(text: &str, by: &[String]) -> Result<Found, BadRecord> {
        read(text, by, &Limits::DEFAULT, |call| {
            call.map(|c| {
                // Logged text as the full reader writes it back, whatever its spacing.
                let args = c.arguments.map(|a| match a {
                    Args::Text(t) => format!("text:{t}"),
                    Args::Escaped(t, read) => with_unescaped(t, |t| {
                        // Arguments the scan read as they stand are what the text holds.
                        if let Some(payload) = read {
                            let whole = toolargs_core::decode::parse_document(t, 128)
                                .expect("arguments the scan read are JSON");
                            assert_eq!(format!("{payload:?}"), format!("LoggedPayload({whole:?})"));
                        }
                        format!("text:{t}")
                    })
                    .unwrap_or_else(|| format!("unreadable {t}")),
                    Args::Logged(t, read) => {
                        let whole = toolargs_core::decode::parse_document(&t, 64);
                        // An object the scan read where it stands is what its text holds.
                        if let Some(payload) = read {
                            let whole = whole.as_ref().expect("arguments the scan read are JSON");
                            assert_eq!(format!("{payload:?}"), format!("LoggedPayload({whole:?})"));
                        }
                        format!(
                            "logged:{}",
                            whole.map_or_else(|_| format!("unreadable {t}"), |n| n.to_json())
                        )
                    }
                    Args::Value(v) => format!("value:{v}"),
                });
                (c.tool.map(str::to_owned), args, c.key)
            })
        })
    }

    /// The full reader's answer, without the scan.
    fn full(text: &str, by: &[String]) -> Result<Found, BadRecord> {
        let node = match toolargs_core::decode::parse_document(text, 64) {
            Ok(node) => node,
            Err(_) => match serde_json::from_str::<Value>(text) {
                Ok(v) => return call_of(&v.to_string(), by).map_err(|_| BadRecord::NotJson),
                Err(_) => return Err(BadRecord::NotJson),
            },
        };
        let Node::Object(fields) = &node else {
            return Err(BadRecord::NotObject);
        };
        let field = |n: &str| fields.iter().find(|(k, _)| k == n).map(|(_, v)| v);
        let tool = match field("tool") {
            None | Some(Node::Null) => None,
            Some(Node::String(s)) => Some(s.to_string()),
            Some(_) => Some(String::new()),
        };
        let args = field("arguments").map(|a| match a {
            Node::String(t) => format!("text:{t}"),
            other => format!("logged:{}", other.to_json()),
        });
        let key = by
            .iter()
            .map(|f| field(f).map_or(Value::Null, Node::to_value))
            .collect();
        Ok((tool, args, key))
    }

    #[test]
    fn the_scan_reads_records_as_the_full_reader_does() {
        let by = vec!["model".to_owned(), "n".to_owned()];
        let records = [
            r#"{"tool":"a","arguments":"{\"x\":1}","model":"m","n":[1,{"k":-2.5}]}"#,
            r#" { "arguments" : "{\"x\":\"a\\nb\\\\\"}" , "tool" : null , "id" : 12 } "#,
            r#"{"tool":"a","arguments":"```json\n{}\n```","model":{"name":"m","v":[true,false,null]}}"#,
            r#"{"tool":"t\u00e9","arguments":"{}"}"#,
            r#"{"tool":"a","arguments":"{}","id":1e400}"#,
            r#"{"tool":"a","arguments":"{}","id":01}"#,
            r#"{"tool":"a","arguments":"{}","id":1.}"#,
            r#"{"tool":"a","arguments":"{}","tool":"b"}"#,
            r#"{"tool":"a","arguments":"{}","x":{"k":1,"k":2}}"#,
            r#"{"tool":"a","arguments":{"x":1}}"#,
            r#"{"tool":"a","arguments":"{}",}"#,
            r#"{"tool":"a","arguments":"{}"} x"#,
            r#"{"tool":"a","arguments":"tab	in"}"#,
            r#"{"tool":"a","arguments":"{}","n":12345678901234567890}"#,
            r#"{"tool":"a","arguments":"{}","n":-123456789.012345,"id":0.5}"#,
            r#"{"tool":"a","arguments":"{}","n":-1234567890.123456}"#,
            r#"{"tool":"a","arguments":"{}","model":"m\"1\\/\n","n":"x"}"#,
            r#"{"tool":"a","arguments":"{}","model":"m\u00e9"}"#,
            r#"{"tool":"a","arguments":"{}","model":null,"n":""}"#,
            r#"{"tool":7,"arguments":"{}"}"#,
            r#"{"tool":"a"}"#,
            r#"{}"#,
            r#"[1]"#,
            r#"{"tool":"a","arguments":"{}","x":[1,2,]}"#,
            r#"{"tool":"a","arguments":"{}","x":tru}"#,
            r#"{"id":1,"tool":"a","arguments":"{}","id":2,"x":[1],"x":{}}"#,
            r#"{"tool":"a","model":"m","arguments":"{}","model":"n"}"#,
            r#"{"tool":"a","arguments":"{\"x\":1}","arguments":"{}"}"#,
            r#"{"tool":null,"arguments":"{}","tool":"a"}"#,
        ];
        for record in records {
            assert_eq!(call_of(record, &by), full(record, &by), "{record}");
        }
        assert!(Scan::record(records[0], &by, &Limits::DEFAULT).is_some());
        assert!(Scan::record(records[1], &by, &Limits::DEFAULT).is_some());
        assert!(Scan::record(records[4], &by, &Limits::DEFAULT).is_none());
        // At most 15 digits, the fraction's included.
        assert!(Scan::record(records[14], &by, &Limits::DEFAULT).is_some());
        assert!(Scan::record(records[15], &by, &Limits::DEFAULT).is_none());
        // A repeated key is the scan's own only when replay does not read its value.
        assert!(Scan::record(records[25], &by, &Limits::DEFAULT).is_some());
        for repeated in &records[26..] {
            assert!(
                Scan::record(repeated, &by, &Limits::DEFAULT).is_none(),
                "{repeated}"
            );
        }
    }

    #[test]
    fn the_scan_reads_arguments_logged_as_a_value_as_the_full_reader_does() {
        let by = ["model", "tool", "arguments"].map(str::to_owned);
        let long = format!(
            r#"{{"model":"{}","tool":"a","arguments":{{"x":1}}}}"#,
            "m".repeat(20_000)
        );
        // Read by the scan, which hands over the value's text as logged.
        let scanned = [
            r#"{"tool":"a","model":"m","arguments":{"x":1,"y":[true,null,"\"q\""],"z":{"k":-0.5}}}"#,
            r#" { "tool" : "a" , "arguments" : [ 1 , {"x":{}} ] } "#,
            r#"{"tool":"a","arguments":null}"#,
            r#"{"tool":"a","arguments":12}"#,
            r#"{"arguments":{"x":1}}"#,
            r#"{"tool":"a","arguments":{"x":1},"model":"m"}"#,
            &long,
            // An object is read where it stands by toolargs' own reader, which keeps every
            // number's digits and reads every escape.
            r#"{"tool":"a","arguments":{"x":1e400,"y":123456789012345678901234567890}}"#,
            r#"{"tool":"a","arguments":{"t\u00e9":"\u00e9"}}"#,
        ];
        // Left to the full reader.
        let full_only = [
            r#"{"tool":"a","arguments":{"x":1,"x":2}}"#,
            r#"{"tool":"a","arguments":{"x":1}}}"#,
            r#"{"tool":"a","arguments":{"x":1}"#,
            r#"{"tool":"a","arguments":{"x":1}]"#,
            r#"{"tool":"a","arguments":{"x":1} x}"#,
            r#"{"tool":"a","arguments":}"#,
            r#"{"tool":"a","arguments":{"x":1},}"#,
            "{\"tool\":\"a\",\"arguments\":{\"x\":1}}\u{a0}",
        ];
        for record in scanned.iter().chain(&full_only) {
            assert_eq!(call_of(record, &by), full(record, &by), "{record}");
        }
        for record in scanned {
            assert!(
                Scan::record(record, &by, &Limits::DEFAULT).is_some(),
                "{record}"
            );
        }
        for record in full_only {
            assert!(
                Scan::record(record, &by, &Limits::DEFAULT).is_none(),
                "{record}"
            );
        }
        let exact = call_of(scanned[7], &by).unwrap().1.unwrap();
        assert_eq!(
            exact,
            r#"logged:{"x":1e400,"y":123456789012345678901234567890}"#
        );
        // A grouping field named twice holds its value twice, as in the full reader.
        let twice = ["model", "model"].map(str::to_owned);
        for record in [scanned[0], scanned[5]] {
            assert!(Scan::record(record, &twice, &Limits::DEFAULT).is_some());
            assert_eq!(call_of(record, &twice), full(record, &twice));
        }
    }

    #[test]
    fn deep_values_are_read_as_the_full_reader_reads_them() {
        let by = ["n".to_owned()];
        for levels in 28..36 {
            let value = format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
            let record = format!(r#"{{"tool":"a","arguments":{{"x":{value}}},"n":{value}}}"#);
            assert_eq!(call_of(&record, &by), full(&record, &by), "{levels}");
            assert_eq!(call_of(&record, &[]), full(&record, &[]), "{levels}");
        }
    }

    #[test]
    fn records_cut_anywhere_are_read_as_the_full_reader_reads_them() {
        let by = ["model".to_owned()];
        let records = [
            r#"{"id": 0, "model": "model-b", "tool": "issue_refund", "arguments": "{\"order_id\": \"ord_A4E1g0Fg\", \"tags\": [\"gift\", \"fragile\"], \"note\": \"caf\\u00e9 \\\"\\u20ac\\\"\"}"}"#,
            r#"{"id": 1.5, "model": "m\"é", "tool": "t", "arguments": {"order_id": "ord_\"x", "amount": -12, "ok": [true, false, null, {}], "z": {"k": "v"}}}"#,
        ];
        for record in records {
            for (cut, _) in record.char_indices() {
                let text = &record[..cut];
                assert_eq!(call_of(text, &by), full(text, &by), "{text}");
                assert_eq!(call_of(text, &[]), full(text, &[]), "{text}");
            }
            assert!(
                Scan::record(record, &by, &Limits::DEFAULT).is_some(),
                "{record}"
            );
        }
    }

    /// A small deterministic generator of JSON-ish text, for the test below: mostly what the
    /// scan reads, now and then what it leaves to the full reader or what is no JSON.
    struct Gen(u64);

    impl Gen {
        fn below(&mut self, n: usize) -> usize {
            // xorshift64*: enough spread for choosing among a few pieces.
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
        }

        fn pick<'p>(&mut self, pieces: &[&'p str]) -> &'p str {
            pieces[self.below(pieces.len())]
        }

        /// Usually one of `usual`, one time in `odds` one of `rare`.
        fn mostly<'p>(&mut self, usual: &[&'p str], rare: &[&'p str], odds: usize) -> &'p str {
            match self.below(odds) {
                0 => self.pick(rare),
                _ => self.pick(usual),
            }
        }

        fn space(&mut self) -> &'static str {
            self.mostly(&["", "", " "], &["\t", "  ", "\r"], 8)
        }

        fn string(&mut self) -> String {
            let usual = [
                "a", "é", "€", "𝄞", "\\\"", "\\\\", "\\n", "\\/", "\\t", "x y", "", "12345678",
            ];
            let rare = ["\\u00e9", "\\x", "\u{1}"];
            let body: String = (0..self.below(5))
                .map(|_| self.mostly(&usual, &rare, 30))
                .collect();
            format!("\"{body}\"")
        }

        fn value(&mut self, depth: usize) -> String {
            let numbers = [
                "0",
                "-0",
                "12",
                "-3.25",
                "123456789012345",
                "1.23456789012345",
                "0.000001",
                "42",
            ];
            let odd_numbers = [
                "1e3",
                "1.5E-2",
                "12345678901234567",
                "-12345678901234567890",
                "01",
                "1.",
            ];
            match self.below(if depth > 3 { 6 } else { 8 }) {
                0 | 1 => self.string(),
                2 | 4 => self.mostly(&numbers, &odd_numbers, 10).to_owned(),
                3 | 5 => self
                    .mostly(&["true", "false", "null"], &["nul", "tru"], 30)
                    .to_owned(),
                6 => {
                    let items: Vec<String> = (0..self.below(4))
                        .map(|_| {
                            format!("{}{}{}", self.space(), self.value(depth + 1), self.space())
                        })
                        .collect();
                    format!("[{}]", items.join(","))
                }
                _ => self.object(depth + 1),
            }
        }

        /// An object of distinct keys, now and then one repeated or escaped.
        fn object(&mut self, depth: usize) -> String {
            let mut keys = vec!["k", "x", "y", "tool", "arguments"];
            let members: Vec<String> = (0..self.below(5))
                .map(|_| {
                    let key = match self.below(20) {
                        0 => "t\\u00e9",
                        1 => "k",
                        _ => keys.remove(self.below(keys.len())),
                    };
                    let (a, b, c) = (self.space(), self.space(), self.space());
                    format!("{a}\"{key}\"{b}:{c}{}", self.value(depth))
                })
                .collect();
            format!("{{{}}}", members.join(","))
        }

        /// A record: the usual fields in any order, the arguments as JSON text or as a value,
        /// now and then a field repeated or something broken.
        fn record(&mut self) -> String {
            // Arguments nearly always, somewhere among the other fields.
            let mut keys = vec!["tool", "model", "n", "id"];
            let mut members = Vec::new();
            let count = 1 + self.below(5);
            let arguments_at = match self.below(20) {
                0 => usize::MAX,
                _ => self.below(count),
            };
            for at in 0..count {
                if at == arguments_at {
                    keys.push("arguments");
                }
                let key = match (at == arguments_at, self.below(30)) {
                    (true, _) => keys.pop().unwrap_or("arguments"),
                    (false, 0) => "arguments",
                    (false, _) => keys.remove(self.below(keys.len())),
                };
                let value = match key {
                    "tool" => self
                        .mostly(&["\"a\"", "\"a\"", "null"], &["7", "\"b\\u0041\""], 20)
                        .to_owned(),
                    "arguments" if self.below(3) > 0 => {
                        let inner = self.object(1);
                        serde_json::to_string(&inner).unwrap_or_default()
                    }
                    _ => self.value(1),
                };
                let (a, b, c) = (self.space(), self.space(), self.space());
                members.push(format!("{a}\"{key}\"{b}:{c}{value}{}", self.space()));
                if keys.is_empty() {
                    break;
                }
            }
            let mut record = format!("{}{{{}}}{}", self.space(), members.join(","), self.space());
            match self.below(40) {
                0 => record.push(','),
                1 => {
                    record.pop();
                }
                2 => record.insert(1, ','),
                _ => {}
            }
            record
        }
    }

    #[test]
    fn generated_records_are_read_as_the_full_reader_reads_them() {
        let mut gen = Gen(0x9e37_79b9_7f4a_7c15);
        let groupings = [
            vec![],
            vec!["model".to_owned(), "n".to_owned()],
            ["model", "model", "tool", "arguments"]
                .map(str::to_owned)
                .to_vec(),
        ];
        let mut scanned = 0;
        let total = 20_000;
        for i in 0..total {
            let record = gen.record();
            let by = &groupings[i % groupings.len()];
            assert_eq!(call_of(&record, by), full(&record, by), "{record}");
            scanned += usize::from(Scan::record(&record, by, &Limits::DEFAULT).is_some());
        }
        // Most records take the scan, so that the comparison says something about it.
        assert!(scanned > total / 2, "{scanned} of {total} scanned");
    }

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
                    // What follows the string decides where the scan copies a word at a time.
                    for after in 0..WORD + 2 {
                        let text = format!("{string}{}", " ".repeat(after));
                        let mut scan = Scan { text: &text, at: 0 };
                        let ours = scan.string().map(|s| s.into_owned());
                        // The scan leaves `\\u` escapes to the full reader; otherwise it agrees.
                        if ours.is_some() || !text.contains("\\u") {
                            assert_eq!(ours, theirs, "{text:?}");
                        }
                        if ours.is_some() {
                            assert_eq!(scan.at, string.len(), "{text:?}");
                        }
                    }
                    // An unterminated string is no string.
                    let open = &string[..string.len() - 1];
                    assert_eq!(Scan { text: open, at: 0 }.string(), None, "{open:?}");
                }
            }
        }
    }
}
