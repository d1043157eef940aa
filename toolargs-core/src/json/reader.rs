//! The reader: JSON text into a [`Node`] tree, with duplicate keys, non-finite numbers and the
//! [`Limits`] checked while scanning.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::node::{Node, Number};
use crate::options::Limits;
use crate::path::Path;
use crate::report::{ArgumentError, Code};
use crate::text::{scan_plain, scan_to_special};

use super::in_string;
use super::limit::{too_deep, too_long, too_many_items, too_many_keys};
use super::pool::{pooled_items, pooled_members};

/// Objects with more members than this switch from a linear scan to a hash set for duplicates.
const LINEAR_DUPLICATE_SCAN: usize = 16;

/// Placeholders pushed before an item or a member is read into place. As constants they are
/// copied from static data in whole words, which keeps the push cheap.
const EMPTY_ITEM: Node<'static> = Node::Null;
const EMPTY_MEMBER: (Cow<'static, str>, Node<'static>) = (Cow::Borrowed(""), Node::Null);

/// Writes `node` over a placeholder (`Node::Null` or an empty string): there is nothing to drop,
/// and skipping the drop keeps the recursive drop code of `Node` off the hot path.
fn fill<'a>(out: &mut Node<'a>, node: Node<'a>) {
    debug_assert!(matches!(out, Node::Null | Node::String(Cow::Borrowed(""))));
    std::mem::forget(std::mem::replace(out, node));
}

/// Where a string is, for its `too_long` error. A member's path is only built for the error.
#[derive(Clone, Copy)]
enum Place<'p> {
    /// A key of the object at this path (reported at the object).
    Key(&'p Path<'p>),
    /// The value at this path.
    Value(&'p Path<'p>),
    /// The value of the member with this key in the object at this path.
    Member(&'p Path<'p>, &'p str),
    /// The item with this index in the array at this path.
    Item(&'p Path<'p>, usize),
}

impl Place<'_> {
    /// The path of the string, for messages.
    fn render(self) -> String {
        match self {
            Place::Key(path) | Place::Value(path) => path.render(),
            Place::Member(path, key) => path.key(key).render(),
            Place::Item(path, index) => path.index(index).render(),
        }
    }

    fn too_long(self, limits: &Limits) -> ArgumentError {
        match self {
            Place::Key(path) => too_long(path, true, limits),
            Place::Value(path) => too_long(path, false, limits),
            Place::Member(path, key) => too_long(&path.key(key), false, limits),
            Place::Item(path, index) => too_long(&path.index(index), false, limits),
        }
    }
}

/// The identifier-like word `rest` starts with (at most 24 characters), for messages about a
/// bare word where JSON wants a value or a quoted key.
fn leading_word(rest: &str) -> String {
    rest.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .take(24)
        .collect()
}

/// Whether a `//` or `/*` comment starts `rest`.
fn is_comment(rest: &str) -> bool {
    rest.starts_with("//") || rest.starts_with("/*")
}

/// A failure inside the reader; the error itself is kept in [`Reader::error`], so results stay
/// the size of a node.
pub(super) struct Fail;

pub(super) type Step<T> = Result<T, Fail>;

/// How [`Reader::string_slow`] failed: with its error kept, or too long, which the caller
/// reports since it knows where the string is.
enum Slow {
    Failed(Fail),
    TooLong,
}

impl From<Fail> for Slow {
    fn from(fail: Fail) -> Self {
        Slow::Failed(fail)
    }
}

/// Reads JSON text; with `ESCAPED`, JSON text as written inside a JSON string, read from the
/// text that holds that string, where each quote of the document is `\"`
/// ([`read_logged`](super::read_logged)).
pub(super) struct Reader<'a, const ESCAPED: bool> {
    pub(super) text: &'a str,
    pub(super) pos: usize,
    depth_left: usize,
    limits: Limits,
    error: Option<ArgumentError>,
}

impl<'a, const ESCAPED: bool> Reader<'a, ESCAPED> {
    /// The bytes of a quote: `"`, or `\"` inside a JSON string.
    const QUOTE: usize = in_string::quote_len(ESCAPED);

    /// A reader at the start of `text`.
    pub(super) fn new(text: &'a str, limits: &Limits) -> Self {
        Reader {
            text,
            pos: 0,
            depth_left: limits.max_depth,
            limits: *limits,
            error: None,
        }
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// Whether a quote starts at `pos`.
    #[inline(always)]
    fn quote_at(&self, pos: usize) -> bool {
        in_string::quote_at(self.text.as_bytes(), pos, ESCAPED)
    }

    pub(super) fn skip_whitespace(&mut self) {
        // Counted in a local: the position is stored once, not once per byte.
        let bytes = self.text.as_bytes();
        let mut pos = self.pos;
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(pos) {
            pos += 1;
        }
        self.pos = pos;
    }

    fn fail(&mut self, error: ArgumentError) -> Fail {
        self.error = Some(error);
        Fail
    }

    pub(super) fn into_error(self) -> ArgumentError {
        self.error.unwrap_or_else(|| ArgumentError {
            path: "$".to_owned(),
            code: Code::InvalidJson,
            message: "the payload could not be read".to_owned(),
        })
    }

    /// An `invalid_json` error at the current position, with line and column for the model.
    pub(super) fn syntax(&mut self, what: &str) -> Fail {
        let consumed = &self.text[..floor_char_boundary(self.text, self.pos)];
        let line = consumed.matches('\n').count() + 1;
        let column = consumed
            .rsplit('\n')
            .next()
            .map_or(0, |l| l.chars().count())
            + 1;
        self.fail(ArgumentError {
            path: "$".to_owned(),
            code: Code::InvalidJson,
            message: format!("{what} at line {line} column {column}"),
        })
    }

    /// Reads one value into `out` (written in place: moving nodes through return values is
    /// what a tree reader spends most of its time on otherwise).
    pub(super) fn value(&mut self, path: &Path<'_>, out: &mut Node<'a>) -> Step<()> {
        if self.quote_at(self.pos) {
            let max = if self.depth_left == self.limits.max_depth {
                usize::MAX
            } else {
                self.limits.max_string_bytes
            };
            fill(out, Node::String(Cow::Borrowed("")));
            if let Node::String(s) = out {
                self.string(max, Place::Value(path), s)?;
            }
            return Ok(());
        }
        let node = match self.peek() {
            Some(b'{') => return self.object(path, out),
            Some(b'[') => return self.array(path, out),
            Some(b't') => self.keyword("true", Node::Bool(true), path)?,
            Some(b'f') => self.keyword("false", Node::Bool(false), path)?,
            Some(b'n') => self.keyword("null", Node::Null, path)?,
            Some(b'N') => return self.non_finite("NaN", path),
            Some(b'I') => return self.non_finite("Infinity", path),
            Some(b'-') if self.text.as_bytes().get(self.pos + 1) == Some(&b'I') => {
                return self.non_finite("-Infinity", path)
            }
            Some(b'-' | b'0'..=b'9') => Node::Number(Number::Literal(self.number()?)),
            Some(_) | None => return Err(self.not_a_value(path)),
        };
        fill(out, node);
        Ok(())
    }

    fn keyword(&mut self, word: &str, node: Node<'a>, path: &Path<'_>) -> Step<Node<'a>> {
        if self.text.as_bytes()[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(node)
        } else {
            Err(self.not_a_value(path))
        }
    }

    /// No JSON value starts here: says what does, when it is one of the near misses models
    /// write, and how to write it in JSON.
    #[cold]
    fn not_a_value(&mut self, path: &Path<'_>) -> Fail {
        let rest = &self.text[self.pos..];
        let at = path.render();
        let word = leading_word(rest);
        let message = match (rest.as_bytes().first(), word.as_str()) {
            (None, _) => format!("the text ends where the value of `{at}` should be: the call is cut off; send all of it"),
            (_, "True" | "False" | "None") => format!(
                "Python's `{word}` for `{at}`; JSON writes `{}`",
                match word.as_str() {
                    "True" => "true",
                    "False" => "false",
                    _ => "null",
                }
            ),
            (Some(b'\''), _) => format!("a single-quoted string for `{at}`; JSON quotes strings with `\"`"),
            _ if is_comment(rest) => {
                format!("a comment before the value of `{at}`; JSON has no comments, remove it")
            }
            _ if path.depth() == 0 && rest.contains('{') => {
                "text before the JSON object; send the JSON object alone".to_owned()
            }
            _ if "true".starts_with(rest) || "false".starts_with(rest) || "null".starts_with(rest) => {
                format!("the text ends inside the value of `{at}`: the call is cut off; send all of it")
            }
            _ => format!("expected a JSON value for `{at}`"),
        };
        self.syntax(&message)
    }

    /// No quoted key starts here, in the object at `path` whose last member so far is `last`.
    #[cold]
    fn not_a_key(&mut self, path: &Path<'_>, last: Option<&str>) -> Fail {
        let rest = &self.text[self.pos..];
        let at = path.render();
        let key = leading_word(rest);
        let message = match (rest.as_bytes().first(), last) {
            (None, _) => {
                format!("the text ends inside `{at}`: the call is cut off; send all of it")
            }
            (Some(b'}'), Some(last)) => format!(
                "a trailing comma after `{}`; JSON has none before `}}`, remove it",
                path.key(last).render()
            ),
            (Some(b'\''), _) => {
                format!("a single-quoted key in `{at}`; JSON quotes keys with `\"`")
            }
            _ if is_comment(rest) => {
                format!("a comment in `{at}`; JSON has no comments, remove it")
            }
            _ if !key.is_empty() => {
                format!("the unquoted key `{key}` in `{at}`; JSON quotes keys: \"{key}\"")
            }
            _ => format!("expected a quoted key in `{at}`"),
        };
        self.syntax(&message)
    }

    /// What ends a container where a `,` or its closing bracket should be.
    #[cold]
    fn not_a_separator(&mut self, path: &Path<'_>, close: char) -> Fail {
        let rest = &self.text[self.pos..];
        let at = path.render();
        let message = if rest.is_empty() {
            format!("the text ends inside `{at}`: the call is cut off; send all of it")
        } else if is_comment(rest) {
            format!("a comment in `{at}`; JSON has no comments, remove it")
        } else {
            format!("expected ',' or '{close}' in `{at}`")
        };
        self.syntax(&message)
    }

    fn non_finite(&mut self, word: &str, path: &Path<'_>) -> Step<()> {
        if self.text.as_bytes()[self.pos..].starts_with(word.as_bytes()) {
            Err(self.fail(ArgumentError {
                path: path.render(),
                code: Code::NonFiniteNumber,
                message: format!("{word} is not a JSON number; send a finite number"),
            }))
        } else {
            Err(self.not_a_value(path))
        }
    }

    fn enter(&mut self) -> Step<()> {
        self.depth_left = match self.depth_left.checked_sub(1) {
            Some(left) => left,
            None => return Err(self.fail(too_deep(&self.limits))),
        };
        self.pos += 1;
        Ok(())
    }

    // Containers are read out of line: their frame is large, and a string or number (most
    // values) then goes through `value` without paying for it.
    #[inline(never)]
    fn array(&mut self, path: &Path<'_>, out: &mut Node<'a>) -> Step<()> {
        self.enter()?;
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.depth_left += 1;
            fill(out, Node::Array(Vec::new()));
            return Ok(());
        }
        fill(out, Node::Array(pooled_items()));
        let Node::Array(items) = out else {
            return Err(Fail);
        };
        loop {
            let index = items.len();
            if index == self.limits.max_items {
                return Err(self.fail(too_many_items(path, &self.limits)));
            }
            self.skip_whitespace();
            if index > 0 && self.peek() == Some(b']') {
                let last = path.index(index - 1).render();
                return Err(self.syntax(&format!(
                    "a trailing comma after `{last}`; JSON has none before `]`, remove it"
                )));
            }
            items.push(EMPTY_ITEM);
            let Some(slot) = items.last_mut() else {
                return Err(Fail);
            };
            if self.quote_at(self.pos) {
                fill(slot, Node::String(Cow::Borrowed("")));
                if let Node::String(s) = slot {
                    self.string(self.limits.max_string_bytes, Place::Item(path, index), s)?;
                }
            } else {
                self.value(&path.index(index), slot)?;
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    self.depth_left += 1;
                    return Ok(());
                }
                _ => return Err(self.not_a_separator(path, ']')),
            }
        }
    }

    #[inline(never)]
    fn object(&mut self, path: &Path<'_>, out: &mut Node<'a>) -> Step<()> {
        self.enter()?;
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            self.depth_left += 1;
            fill(out, Node::Object(Vec::new()));
            return Ok(());
        }
        fill(out, Node::Object(pooled_members()));
        let Node::Object(members) = out else {
            return Err(Fail);
        };
        let mut seen: Option<HashSet<Cow<'a, str>, foldhash::fast::RandomState>> = None;
        loop {
            self.skip_whitespace();
            if !self.quote_at(self.pos) {
                return Err(self.not_a_key(path, members.last().map(|(key, _)| key.as_ref())));
            }
            if members.len() == self.limits.max_keys {
                return Err(self.fail(too_many_keys(path, &self.limits)));
            }
            // The member is read in place: key first, then its value.
            members.push(EMPTY_MEMBER);
            let Some(((key, slot), earlier)) = members.split_last_mut() else {
                return Err(Fail);
            };
            self.string(self.limits.max_string_bytes, Place::Key(path), key)?;
            let duplicate = if earlier.len() <= LINEAR_DUPLICATE_SCAN {
                repeats(earlier, key)
            } else {
                let set =
                    seen.get_or_insert_with(|| earlier.iter().map(|(k, _)| k.clone()).collect());
                !set.insert(key.clone())
            };
            if duplicate {
                return Err(self.fail(ArgumentError {
                    path: path.key(key).render(),
                    code: Code::DuplicateKey,
                    message: "this key appears more than once in the object; send it once"
                        .to_owned(),
                }));
            }
            // Most often `": "` exactly, taken at once.
            if self.text.as_bytes().get(self.pos..self.pos + 2) == Some(b": ") {
                self.pos += 2;
            } else {
                self.skip_whitespace();
                if self.peek() != Some(b':') {
                    return Err(self.syntax("expected ':' after an object key"));
                }
                self.pos += 1;
            }
            self.skip_whitespace();
            if self.quote_at(self.pos) {
                // A string value, the common case, is read here without a call to `value`
                // and without building its path, which only an error needs.
                fill(slot, Node::String(Cow::Borrowed("")));
                if let Node::String(s) = slot {
                    self.string(self.limits.max_string_bytes, Place::Member(path, key), s)?;
                }
            } else if let Some(b'0'..=b'9') = self.peek() {
                fill(slot, Node::Number(Number::Literal(self.number()?)));
            } else {
                self.value(&path.key(key), slot)?;
            }
            // Most often `, ` exactly, taken at once.
            if self.text.as_bytes().get(self.pos..self.pos + 2) == Some(b", ") {
                self.pos += 2;
                continue;
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    self.depth_left += 1;
                    return Ok(());
                }
                _ => return Err(self.not_a_separator(path, '}')),
            }
        }
    }

    /// Reads a string starting at its opening quote; borrows it when it has no escapes. A
    /// string whose unescaped text would pass `max` bytes is refused as `too_long` at its
    /// place without scanning further.
    #[inline(always)]
    fn string(&mut self, max: usize, at: Place<'_>, out: &mut Cow<'a, str>) -> Step<()> {
        let text = self.text;
        let start = self.pos + Self::QUOTE;
        // Scanned without the window of `max`: a run that goes past it is refused all the same,
        // and the plain case needs no window arithmetic.
        let end = scan_to_special(text.as_bytes(), start);
        self.pos = end;
        if end - start <= max && self.quote_at(end) {
            // `out` holds the empty placeholder, which has nothing to drop. Inside a JSON
            // string, the stop is the backslash of the closing `\"`: the content before it has
            // no escape, so it is the string as the document means it.
            std::mem::forget(std::mem::replace(out, Cow::Borrowed(&text[start..end])));
            self.pos = end + Self::QUOTE;
            return Ok(());
        }
        if ESCAPED {
            // An escape of the document's own, written inside a JSON string: not read here.
            return Err(Fail);
        }
        match self.string_slow(start, max, out) {
            Ok(()) => Ok(()),
            Err(Slow::Failed(_)) if self.pos >= text.len() => Err(self.cut_off_in_string(at)),
            Err(Slow::Failed(fail)) => Err(fail),
            // Only here is the place of the string needed.
            Err(Slow::TooLong) => Err(self.fail(at.too_long(&self.limits))),
        }
    }

    /// The text ends inside the string at `at`. Apart from [`Reader::string`], which every
    /// key and string value goes through and which stays small enough to be inlined.
    #[cold]
    fn cut_off_in_string(&mut self, at: Place<'_>) -> Fail {
        let inside = match at {
            Place::Key(path) => format!("a key in `{}`", path.render()),
            place => format!("the string at `{}`", place.render()),
        };
        self.syntax(&format!(
            "the text ends inside {inside}: the call is cut off; send all of it"
        ))
    }

    /// The rest of [`Reader::string`]: escapes, the limit, and errors. Not marked cold:
    /// double-encoded arguments, common in logs, are strings full of escapes.
    #[inline(never)]
    fn string_slow(
        &mut self,
        start: usize,
        max: usize,
        out: &mut Cow<'a, str>,
    ) -> Result<(), Slow> {
        if self.pos - start > max {
            return Err(Slow::TooLong);
        }
        match self.peek() {
            Some(b'\\') => {}
            Some(_) => return Err(self.syntax("control character inside a string").into()),
            None => return Err(self.syntax("unterminated string").into()),
        }
        // Escapes only shrink text, so the raw length up to the closing quote is room enough:
        // one allocation, never regrown, even for double-encoded arguments full of `\"`.
        let room = raw_string_len(self.text.as_bytes(), start, max.saturating_add(1));
        let mut owned = String::with_capacity(room);
        owned.push_str(&self.text[start..self.pos]);
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    *out = Cow::Owned(owned);
                    return Ok(());
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(&mut owned)?;
                }
                Some(_) => return Err(self.syntax("control character inside a string").into()),
                None => return Err(self.syntax("unterminated string").into()),
            }
            // An escape may already have gone past `max`; otherwise the next run may use the
            // room left. A scan that fills more than the room stopped at the window's end,
            // possibly inside a character, so it is refused before the text is sliced.
            let room = match max.checked_sub(owned.len()) {
                Some(room) => room,
                None => return Err(Slow::TooLong),
            };
            let run_start = self.pos;
            self.pos = scan_plain(self.text.as_bytes(), self.pos, room);
            if self.pos - run_start > room {
                return Err(Slow::TooLong);
            }
            owned.push_str(&self.text[run_start..self.pos]);
        }
    }

    fn escape(&mut self, out: &mut String) -> Step<()> {
        let Some(b) = self.peek() else {
            return Err(self.syntax("unterminated string"));
        };
        self.pos += 1;
        let c = match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let first = self.hex4()?;
                match first {
                    0xD800..=0xDBFF => {
                        if !self.text.as_bytes()[self.pos..].starts_with(b"\\u") {
                            return Err(self.syntax("unpaired surrogate in \\u escape"));
                        }
                        self.pos += 2;
                        let second = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&second) {
                            return Err(self.syntax("unpaired surrogate in \\u escape"));
                        }
                        let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                        match char::from_u32(code) {
                            Some(c) => c,
                            None => return Err(self.syntax("invalid \\u escape")),
                        }
                    }
                    0xDC00..=0xDFFF => return Err(self.syntax("unpaired surrogate in \\u escape")),
                    code => match char::from_u32(code) {
                        Some(c) => c,
                        None => return Err(self.syntax("invalid \\u escape")),
                    },
                }
            }
            _ => return Err(self.syntax("invalid escape in string")),
        };
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Step<u32> {
        let Some(digits) = self.text.as_bytes().get(self.pos..self.pos + 4) else {
            return Err(self.syntax("truncated \\u escape"));
        };
        let mut code = 0u32;
        for &d in digits {
            let v = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => return Err(self.syntax("invalid \\u escape")),
            };
            code = code * 16 + u32::from(v);
        }
        self.pos += 4;
        Ok(code)
    }

    /// Reads a number literal, checking the JSON grammar: `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`.
    #[inline(always)]
    fn number(&mut self) -> Step<&'a str> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.syntax("invalid number")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.syntax("invalid number"));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.syntax("invalid number"));
            }
            self.digits();
        }
        Ok(&self.text[start..self.pos])
    }

    fn digits(&mut self) {
        const ONES: u64 = 0x0101_0101_0101_0101;
        // Counted in a local: the position is stored once, not once per digit.
        let bytes = self.text.as_bytes();
        let mut pos = self.pos;
        // Eight bytes at a time while there are eight: after subtracting '0' from each byte, a
        // byte above 9 is not a digit. A borrow only comes from a byte below '0', itself not a
        // digit, so the lowest flagged byte is exact.
        while let Some(chunk) = bytes.get(pos..pos + 8) {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
            let x = word.wrapping_sub(ONES * u64::from(b'0'));
            let flagged = (((x & (ONES * 0x7f)) + ONES * (0x7f - 9)) | x) & (ONES * 0x80);
            if flagged != 0 {
                self.pos = pos + (flagged.trailing_zeros() / 8) as usize;
                return;
            }
            pos += 8;
        }
        while let Some(b'0'..=b'9') = bytes.get(pos) {
            pos += 1;
        }
        self.pos = pos;
    }
}

/// Whether `key` is among the keys of `earlier`. Lengths are compared first: keys of one
/// object seldom share a length, so most keys are passed over without reading their text.
#[inline(always)]
fn repeats(earlier: &[(Cow<'_, str>, Node<'_>)], key: &str) -> bool {
    for (k, _) in earlier {
        if k.len() == key.len() && k.as_bytes() == key.as_bytes() {
            return true;
        }
    }
    false
}

/// Bytes from `start` to the closing quote of a string (or to where the string breaks off),
/// stepping over escapes; counting stops at `cap`, so a hostile string is not read twice.
fn raw_string_len(bytes: &[u8], start: usize, cap: usize) -> usize {
    let mut pos = start;
    loop {
        pos = scan_plain(bytes, pos, cap.saturating_sub(pos - start));
        if pos - start >= cap {
            return cap;
        }
        match bytes.get(pos) {
            Some(b'\\') => pos = (pos + 2).min(bytes.len()),
            _ => return pos - start,
        }
    }
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::decode::parse_document;
    use crate::json::{read_text, Document};

    fn code(text: &str) -> Code {
        parse_document(text, 128).unwrap_err().code
    }

    fn limited(text: &str, limits: Limits) -> Result<Node<'_>, (Code, String)> {
        read_text(text, &limits)
            .map(Document::into_root)
            .map_err(|e| (e.code, e.path))
    }

    #[test]
    fn reads_values_and_borrows_plain_strings() {
        let node = parse_document(
            r#" {"a": [1, -2.5e3, true, null], "b": "x\u00e9y", "c": "plain"} "#,
            128,
        )
        .unwrap();
        let Node::Object(members) = node else {
            panic!("not an object")
        };
        assert_eq!(members.len(), 3);
        assert_eq!(members[1].1, Node::String(Cow::Owned("xéy".into())));
        assert!(matches!(members[2].1, Node::String(Cow::Borrowed("plain"))));
    }

    #[test]
    fn scans_strings_of_every_length_and_position() {
        for len in 0..40 {
            for special in ["\"", "\\\\", "\\n", "\\u00e9"] {
                let body = "a".repeat(len);
                let text = format!("[\"{body}{special}{body}\", \"{body}\"]");
                let expected: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                match parse_document(&text, 128) {
                    Ok(node) => assert_eq!(node.to_value(), expected, "{text}"),
                    Err(e) => assert_eq!(special, "\"", "{text}: {e}"),
                }
            }
            let control = format!("[\"{}\u{1}\"]", "b".repeat(len));
            assert_eq!(code(&control), Code::InvalidJson, "{control:?}");
            let high = format!("[\"{}\u{e9}\u{7f}\u{20ac}\"]", "c".repeat(len));
            assert!(parse_document(&high, 128).is_ok(), "{high:?}");
        }
    }

    #[test]
    fn rejects_duplicates_at_any_depth_and_through_escapes() {
        let err = parse_document(r#"{"a":{"b":1,"\u0062":2}}"#, 128).unwrap_err();
        assert_eq!((err.code, err.path.as_str()), (Code::DuplicateKey, "$.a.b"));
        let many: String = (0..40).map(|i| format!("\"k{i}\":{i},")).collect();
        let err = parse_document(&format!("{{{many}\"k39\":0}}"), 128).unwrap_err();
        assert_eq!((err.code, err.path.as_str()), (Code::DuplicateKey, "$.k39"));
    }

    #[test]
    fn classifies_bad_text() {
        assert_eq!(code("NaN"), Code::NonFiniteNumber);
        assert_eq!(code("[-Infinity]"), Code::NonFiniteNumber);
        assert_eq!(code("{\"a\": Infinity}"), Code::NonFiniteNumber);
        for bad in [
            "",
            "nul",
            "01",
            "1.",
            "-",
            "1e",
            "[1,]",
            "{\"a\"}",
            "\"\\x\"",
            "\"\\ud800\"",
            "{} x",
            "\"a\nb\"",
        ] {
            assert_eq!(code(bad), Code::InvalidJson, "{bad:?}");
        }
    }

    #[test]
    fn deep_nesting_is_a_clean_error() {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert_eq!(code(&deep), Code::TooDeep);
        let ok = "[".repeat(128) + &"]".repeat(128);
        assert!(parse_document(&ok, 128).is_ok());
        let too_deep = "[".repeat(129) + &"]".repeat(129);
        assert_eq!(code(&too_deep), Code::TooDeep);
    }

    #[test]
    fn limits_are_checked_while_scanning() {
        let limits = Limits {
            max_string_bytes: 4,
            max_items: 3,
            max_keys: 2,
            ..Limits::DEFAULT
        };
        assert!(limited(r#"{"abcd":["wxyz",1,2],"b":{}}"#, limits).is_ok());
        // Escapes count once unescaped: `\u0041` is one byte.
        assert!(limited(r#"{"a":"\u0041\u0041\u0041\u0041"}"#, limits).is_ok());
        for (text, code, path) in [
            (r#"{"a":"vwxyz"}"#, Code::TooLong, "$.a"),
            (r#"{"a":[1,"vwxyz"]}"#, Code::TooLong, "$.a[1]"),
            (r#"["vwxyz"]"#, Code::TooLong, "$[0]"),
            (
                r#"{"a":"\u0041\u0041\u0041\u0041\n"}"#,
                Code::TooLong,
                "$.a",
            ),
            (r#"{"abcde":1}"#, Code::TooLong, "$"),
            (r#"{"a":[[1,2,3,4]]}"#, Code::TooManyItems, "$.a[0]"),
            (r#"{"a":1,"b":2,"c":3}"#, Code::TooManyKeys, "$"),
        ] {
            assert_eq!(
                limited(text, limits),
                Err((code, path.to_owned())),
                "{text}"
            );
        }
        // A limit that falls inside a character, after an escape, is still a clean refusal.
        assert_eq!(
            limited("{\"a\":\"\\na\u{5bc}\u{5bc}\"}", limits),
            Err((Code::TooLong, "$.a".to_owned()))
        );
        assert_eq!(
            limited("{\"a\":\"\u{5bc}\u{5bc}\u{5bc}\"}", limits),
            Err((Code::TooLong, "$.a".to_owned()))
        );
        // The payload itself may be a long string (a double-encoded object).
        assert!(limited(r#""a long payload""#, limits).is_ok());
    }

    #[test]
    fn number_literals_end_where_their_digits_end() {
        for len in 1..24 {
            let digits: String = (0..len)
                .map(|i| char::from(b"1234567890"[i % 10]))
                .collect();
            for after in ["", " ", ".25", ".0e+7", "E-12", "\n"] {
                let text = format!("[{digits}{after}]");
                let literal = format!("{digits}{}", after.trim());
                assert_eq!(
                    parse_document(&text, 128).unwrap(),
                    Node::Array(vec![Node::Number(Number::Literal(&literal))]),
                    "{text:?}"
                );
            }
            for bad in [":", "/", "\u{e9}", "\u{7f}", "a"] {
                let text = format!("[{digits}{bad}1]");
                let err = parse_document(&text, 128).unwrap_err();
                assert_eq!(err.code, Code::InvalidJson, "{text:?}");
                let column = format!("column {}", len + 2);
                assert!(err.message.ends_with(&column), "{text:?}: {}", err.message);
            }
        }
    }

    #[test]
    fn error_positions_count_characters() {
        let err = parse_document("{\"é\": x}", 128).unwrap_err();
        assert!(err.message.ends_with("line 1 column 7"), "{}", err.message);
    }
}
