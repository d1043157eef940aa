//! Verdicts and values as the text the JavaScript wrapper reads.
//!
//! A verdict is a [`Kind`] and one text (or a tape), so that the wrapper reads only what it
//! needs, when it needs it:
//!
//! - [`Kind::Plain`]: the arguments as JSON, accepted with no repair and no integer beyond a
//!   JavaScript number (one `JSON.parse`);
//! - [`Kind::Annotated`]: the arguments, a newline, the repairs (`[{"path", "rule", "before",
//!   "after"}]`), a newline and the places of the integers beyond a JavaScript number (below):
//!   accepted otherwise;
//! - [`Kind::Rejected`]: the rejection's text for the model ([`Rejection::for_model`]), as it
//!   is: the errors are read from it (`error` there is an error's `code`) only when asked for;
//! - [`Kind::Tape`]: accepted, the arguments and the repairs as a tape ([`crate::tape`]): every
//!   accepted call under a plain schema, but for a stream's. The two kinds above are the
//!   others'.
//!
//! JSON written here never holds a raw newline (strings escape control characters), so the
//! newline separates the parts. An integer beyond ±(2^53 − 1), which a JavaScript number
//! cannot hold exactly, is written as the string of its digits, and its place is listed: a
//! JSON array of keys and indices from `"arguments"` or `"repairs"` down, for the wrapper to
//! make a `BigInt` of. Every other number is written as `serde_json` writes it: an integer in
//! its digits, a double as the shortest text that reads back as the same double, which is what
//! `JSON.parse` gives.
//!
//! A value (a stream's partial arguments) is `{"v": VALUE, "big": [PATH, ...]}`, its paths
//! from `VALUE` down.

use serde_json::Value;
use toolargs_core::internal::text::push_json_str;
use toolargs_core::{ArgumentError, Code, Limits, Parsed, Path, Rejection, Repair};

/// The largest integer a JavaScript number holds exactly, along with every integer below it
/// (`Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// What a verdict's text holds (see the module); the wrapper reads it as a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The arguments alone.
    Plain = 0,
    /// The arguments, the repairs and the places of the integers beyond a number.
    Annotated = 1,
    /// The rejection's text for the model.
    Rejected = 2,
    /// The arguments and the repairs as a tape ([`crate::tape`]).
    Tape = 3,
}

/// A verdict: what it holds, and its bytes.
#[derive(Debug)]
pub struct Verdict {
    /// What `bytes` hold.
    pub kind: Kind,
    /// The arguments, and what else `kind` says; or the rejection for the model: UTF-8 text,
    /// but for a tape's words.
    pub bytes: Vec<u8>,
}

/// The verdict on built arguments (see the module); `size` is about how long the arguments'
/// text was, to make room for it at once.
pub fn verdict(verdict: &Result<Parsed<Value>, Rejection>, size: usize) -> Verdict {
    match verdict {
        Ok(parsed) => accepted(Written::of(&parsed.args, size, Vec::new()), &parsed.repairs),
        Err(rejection) => rejected(rejection),
    }
}

/// The verdict of a rejected call.
pub fn rejected(rejection: &Rejection) -> Verdict {
    Verdict {
        kind: Kind::Rejected,
        bytes: rejection.for_model().into_bytes(),
    }
}

/// The arguments of an accepted call as JSON, with the places of their integers beyond a
/// number when there are any.
pub struct Written {
    out: String,
    /// The places of the arguments' integers beyond a number, each a JSON array, separated by
    /// `,`: empty unless `met_big`.
    big: String,
    met_big: bool,
}

impl Written {
    /// The arguments `args`, about `size` bytes as sent, written into `buffer` (emptied; it
    /// keeps its room).
    pub fn of(args: &Value, size: usize, buffer: Vec<u8>) -> Written {
        Written::with(text_buffer(buffer), size, |w| w.value(args))
    }

    /// Written by `write` from the key `arguments` down, into `buffer`: the places of the
    /// integers beyond a number are followed only when one was met, and then the arguments
    /// are written again, keeping them.
    fn with<'a>(buffer: String, size: usize, write: impl Fn(&mut Writer<'a>)) -> Written {
        let mut w = Writer::into(buffer, size, false);
        write(&mut w);
        if w.met_big {
            let mut buffer = w.out;
            buffer.clear();
            w = Writer::into(buffer, size, true);
            w.enter(Step::Key("arguments"));
            write(&mut w);
        }
        Written {
            out: w.out,
            big: w.big,
            met_big: w.met_big,
        }
    }
}

/// `bytes` emptied, as a string to write into: it keeps its room.
fn text_buffer(mut bytes: Vec<u8>) -> String {
    bytes.clear();
    String::from_utf8(bytes).unwrap_or_default()
}

/// The verdict of an accepted call whose arguments were written: the arguments alone when
/// nothing else is to be said, or with the repairs and the places of the integers beyond a
/// number.
pub fn accepted(written: Written, repairs: &[Repair]) -> Verdict {
    if repairs.is_empty() && !written.met_big {
        return Verdict {
            kind: Kind::Plain,
            bytes: written.out.into_bytes(),
        };
    }
    let mut out = written.out;
    out.push('\n');
    push_repairs(&mut out, repairs, &written.big);
    Verdict {
        kind: Kind::Annotated,
        bytes: out.into_bytes(),
    }
}

/// The repairs' JSON, a newline and the places of the integers beyond a number: those of the
/// arguments, `arguments_big` (places separated by `,`), then the repairs' own. Written in
/// `out` itself: again, keeping the places, when an integer beyond a number is met.
fn push_repairs(out: &mut String, repairs: &[Repair], arguments_big: &str) {
    let start = out.len();
    let mut w = Writer::into(std::mem::take(out), 0, false);
    write_repairs(&mut w, repairs);
    if w.met_big {
        let mut text = w.out;
        text.truncate(start);
        w = Writer::into(text, 0, true);
        write_repairs(&mut w, repairs);
    }
    let (mut text, big) = (w.out, w.big);
    text.push_str("\n[");
    text.push_str(arguments_big);
    if !arguments_big.is_empty() && !big.is_empty() {
        text.push(',');
    }
    text.push_str(&big);
    text.push(']');
    *out = text;
}

/// The repairs as a JSON array, from the key `repairs` down.
fn write_repairs<'a>(w: &mut Writer<'a>, repairs: &'a [Repair]) {
    w.out.push('[');
    w.enter(Step::Key("repairs"));
    for (i, repair) in repairs.iter().enumerate() {
        if i > 0 {
            w.out.push(',');
        }
        w.enter(Step::Index(i));
        w.out.push_str("{\"path\":");
        push_json_str(&mut w.out, &repair.path);
        w.out.push_str(",\"rule\":");
        push_json_str(&mut w.out, repair.rule.as_str());
        w.out.push_str(",\"before\":");
        w.enter(Step::Key("before"));
        w.value(&repair.before);
        w.leave();
        w.out.push_str(",\"after\":");
        w.enter(Step::Key("after"));
        w.value(&repair.after);
        w.leave();
        w.out.push('}');
        w.leave();
    }
    w.leave();
    w.out.push(']');
}

/// The document of a value.
pub fn value(value: &Value) -> String {
    let mut w = Writer::new(0, true);
    w.out.push_str("{\"v\":");
    w.value(value);
    w.out.push_str(",\"big\":[");
    w.out.push_str(&w.big);
    w.out.push_str("]}");
    w.out
}

/// A rejection's errors as a JSON array of `{"path", "code", "message"}` (they hold no
/// numbers).
pub fn errors(rejection: &Rejection) -> String {
    let mut out = String::new();
    out.push('[');
    for (i, error) in rejection.errors().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"path\":");
        push_json_str(&mut out, &error.path);
        out.push_str(",\"code\":");
        push_json_str(&mut out, error.code.as_str());
        out.push_str(",\"message\":");
        push_json_str(&mut out, &error.message);
        out.push('}');
    }
    out.push(']');
    out
}

/// The rejection of a JavaScript value that is not JSON: `invalid_json` at the path `steps`
/// gives (a JSON array of keys and indices from the payload down), saying `what` was found.
pub fn not_json(steps: &str, what: &str) -> Rejection {
    let steps: Vec<Value> = serde_json::from_str(steps).unwrap_or_default();
    // The wrapper stops one level past the limit; a longer path is not one of its own.
    let steps = &steps[..steps.len().min(Limits::DEFAULT.max_depth + 1)];
    Rejection::single(ArgumentError::new(
        render(steps, &Path::ROOT),
        Code::InvalidJson,
        format!("{what}; send JSON values only"),
    ))
}

/// The path `steps` lead to from `path`, written as the gate writes paths.
fn render(steps: &[Value], path: &Path<'_>) -> String {
    match steps.split_first() {
        None => path.render(),
        Some((Value::String(key), rest)) => render(rest, &path.key(key)),
        Some((Value::Number(index), rest)) => {
            let index = index
                .as_u64()
                .and_then(|i| usize::try_from(i).ok())
                .unwrap_or(usize::MAX);
            render(rest, &path.index(index))
        }
        Some((_, rest)) => render(rest, path),
    }
}

/// One step of the path to a value in the document.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

struct Writer<'a> {
    out: String,
    /// Whether `path` is kept.
    track: bool,
    /// Where the value being written is, when tracked.
    path: Vec<Step<'a>>,
    /// Whether an integer beyond a number was written.
    met_big: bool,
    /// The paths of the integers written as strings, each a JSON array, separated by `,`.
    big: String,
}

impl<'a> Writer<'a> {
    fn new(size: usize, track: bool) -> Writer<'a> {
        Writer::into(String::new(), size, track)
    }

    /// A writer after what `out` holds.
    fn into(mut out: String, size: usize, track: bool) -> Writer<'a> {
        // Room for what defaults and repairs add, at once.
        out.reserve(size + size / 2 + 64);
        Writer {
            out,
            track,
            path: Vec::new(),
            met_big: false,
            big: String::new(),
        }
    }

    fn enter(&mut self, step: Step<'a>) {
        if self.track {
            self.path.push(step);
        }
    }

    fn leave(&mut self) {
        if self.track {
            self.path.pop();
        }
    }

    fn value(&mut self, value: &'a Value) {
        match value {
            Value::Null => self.out.push_str("null"),
            Value::Bool(b) => self.boolean(*b),
            Value::Number(n) => self.number(n),
            Value::String(s) => push_json_str(&mut self.out, s),
            Value::Array(items) => self.array(items),
            Value::Object(members) => self.object(members),
        }
    }

    fn boolean(&mut self, b: bool) {
        self.out.push_str(if b { "true" } else { "false" });
    }

    /// A number; one beyond a JavaScript number as the string of its digits, its place kept.
    fn number(&mut self, n: &serde_json::Number) {
        let big = beyond_a_number(n);
        if big {
            self.out.push('"');
        }
        match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => integer(&mut self.out, i < 0, i.unsigned_abs()),
            (None, Some(u)) => integer(&mut self.out, false, u),
            (None, None) => self.out.push_str(&n.to_string()),
        }
        if big {
            self.out.push('"');
            self.mark_big();
        }
    }

    fn array(&mut self, items: &'a [Value]) {
        self.out.push('[');
        for (i, one) in items.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.enter(Step::Index(i));
            self.value(one);
            self.leave();
        }
        self.out.push(']');
    }

    fn object(&mut self, members: &'a serde_json::Map<String, Value>) {
        self.out.push('{');
        for (i, (key, one)) in members.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            push_json_str(&mut self.out, key);
            self.out.push(':');
            self.enter(Step::Key(key));
            self.value(one);
            self.leave();
        }
        self.out.push('}');
    }

    /// Records the current path as one of a big integer's.
    fn mark_big(&mut self) {
        self.met_big = true;
        if !self.track {
            return;
        }
        if !self.big.is_empty() {
            self.big.push(',');
        }
        self.big.push('[');
        for (i, step) in self.path.iter().enumerate() {
            if i > 0 {
                self.big.push(',');
            }
            match step {
                Step::Key(key) => push_json_str(&mut self.big, key),
                Step::Index(index) => integer(&mut self.big, false, *index as u64),
            }
        }
        self.big.push(']');
    }
}

/// Whether `n` is an integer beyond ±(2^53 − 1), which a JavaScript number cannot hold
/// exactly (every `u64` beyond `i64` is).
pub(crate) fn beyond_a_number(n: &serde_json::Number) -> bool {
    match (n.as_i64(), n.as_u64()) {
        (Some(i), _) => i.unsigned_abs() > MAX_SAFE_INTEGER,
        (None, Some(_)) => true,
        (None, None) => false,
    }
}

/// An integer in its decimal digits, `-` first when `negative`.
fn integer(out: &mut String, negative: bool, magnitude: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = magnitude;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if negative {
        out.push('-');
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}
