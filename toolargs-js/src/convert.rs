//! Verdicts and values as the text the JavaScript wrapper reads.
//!
//! A verdict is one string whose first character says what follows, so that the wrapper reads
//! only what it needs, when it needs it:
//!
//! - `A` then the arguments as JSON: accepted, with no repair and no integer beyond a
//!   JavaScript number (the common case: one `JSON.parse`);
//! - `R` then the arguments, a newline, the repairs (`[{"path", "rule", "before", "after"}]`),
//!   a newline and the places of the integers beyond a JavaScript number (below): accepted
//!   otherwise;
//! - `X` then the rejection's text for the model ([`Rejection::for_model`]), as it is: the
//!   errors are read from it (`error` there is an error's `code`) only when asked for.
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
use toolargs_core::{ArgumentError, Code, Limits, Parsed, Path, Rejection};

/// The largest integer a JavaScript number holds exactly, along with every integer below it
/// (`Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// The text of a verdict (see the module); `size` is about how long the arguments' text was,
/// to make room for it at once.
pub fn verdict(verdict: &Result<Parsed<Value>, Rejection>, size: usize) -> String {
    match verdict {
        Ok(parsed) => {
            // Paths are followed only when an integer beyond a number was met: then the
            // verdict is written again, keeping them.
            let mut w = Writer::new(size, false);
            accepted(&mut w, parsed);
            if !w.met_big {
                return w.out;
            }
            let mut w = Writer::new(size, true);
            accepted(&mut w, parsed);
            w.out
        }
        Err(rejection) => {
            let model = rejection.for_model();
            let mut out = String::with_capacity(model.len() + 1);
            out.push('X');
            out.push_str(&model);
            out
        }
    }
}

fn accepted<'a>(w: &mut Writer<'a>, parsed: &'a Parsed<Value>) {
    w.out.push('A');
    w.enter(Step::Key("arguments"));
    w.value(&parsed.args);
    w.leave();
    if parsed.repairs.is_empty() && !w.met_big {
        return;
    }
    w.out.replace_range(..1, "R");
    w.out.push_str("\n[");
    w.enter(Step::Key("repairs"));
    for (i, repair) in parsed.repairs.iter().enumerate() {
        if i > 0 {
            w.out.push(',');
        }
        w.enter(Step::Index(i));
        w.out.push_str("{\"path\":");
        string(&mut w.out, &repair.path);
        w.out.push_str(",\"rule\":");
        string(&mut w.out, repair.rule.as_str());
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
    w.out.push_str("]\n[");
    w.out.push_str(&w.big);
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
        string(&mut out, &error.path);
        out.push_str(",\"code\":");
        string(&mut out, error.code.as_str());
        out.push_str(",\"message\":");
        string(&mut out, &error.message);
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
        Writer {
            out: String::with_capacity(size + 64),
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
            Value::Bool(true) => self.out.push_str("true"),
            Value::Bool(false) => self.out.push_str("false"),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    if i.unsigned_abs() > MAX_SAFE_INTEGER {
                        self.out.push('"');
                        integer(&mut self.out, i < 0, i.unsigned_abs());
                        self.out.push('"');
                        self.mark_big();
                    } else {
                        integer(&mut self.out, i < 0, i.unsigned_abs());
                    }
                } else if let Some(u) = n.as_u64() {
                    // Beyond i64, so beyond 2^53.
                    self.out.push('"');
                    integer(&mut self.out, false, u);
                    self.out.push('"');
                    self.mark_big();
                } else {
                    self.out.push_str(&n.to_string());
                }
            }
            Value::String(s) => string(&mut self.out, s),
            Value::Array(items) => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.enter(Step::Index(i));
                    self.value(item);
                    self.leave();
                }
                self.out.push(']');
            }
            Value::Object(members) => {
                self.out.push('{');
                for (i, (key, item)) in members.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    string(&mut self.out, key);
                    self.out.push(':');
                    self.enter(Step::Key(key));
                    self.value(item);
                    self.leave();
                }
                self.out.push('}');
            }
        }
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
                Step::Key(key) => string(&mut self.big, key),
                Step::Index(index) => integer(&mut self.big, false, *index as u64),
            }
        }
        self.big.push(']');
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

/// `text` as a JSON string: `"` and `\\` escaped, control characters as `\n`, `\r`, `\t`,
/// `\b`, `\f` or `\u00XX`, everything else as it is (the string `JSON.parse` reads back is
/// `text`).
fn string(out: &mut String, text: &str) {
    out.push('"');
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Eight bytes at a time while none needs escaping.
        if let Some(word) = bytes.get(i..i + 8) {
            let word = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
            if !needs_escape(word) {
                i += 8;
                continue;
            }
        }
        let b = bytes[i];
        if b >= 0x20 && b != b'"' && b != b'\\' {
            i += 1;
            continue;
        }
        // `i` is at an ASCII byte: a character boundary.
        out.push_str(&text[start..i]);
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
            }
        }
        i += 1;
        start = i;
    }
    out.push_str(&text[start..]);
    out.push('"');
}

/// Whether one of the eight bytes of `word` is `"`, `\\` or a control character (below
/// 0x20): a byte with its high bit set (UTF-8 past ASCII) is none of them.
fn needs_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // A byte below `n` (with its high bit clear) leaves its high bit set in `x - n` and clear
    // in `x`; a zero byte of `x ^ c` is a byte equal to `c`.
    let below = |x: u64, n: u64| x.wrapping_sub(ONES * n) & !x & HIGHS;
    (below(word, 0x20)
        | below(word ^ (ONES * u64::from(b'"')), 1)
        | below(word ^ (ONES * u64::from(b'\\')), 1))
        != 0
}
