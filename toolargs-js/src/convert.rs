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
use toolargs_core::internal::text::push_json_str;
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
            Value::String(s) => push_json_str(&mut self.out, s),
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
                    push_json_str(&mut self.out, key);
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
                Step::Key(key) => push_json_str(&mut self.big, key),
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
