//! Verdicts and values as the JSON documents the JavaScript wrapper reads.
//!
//! A document is `{"v": VALUE, "big": [PATH, ...]}`. `JSON.parse` reads `VALUE` into exactly
//! the values of the verdict, but for the integers beyond ±(2^53 − 1), which a JavaScript
//! number cannot hold exactly: each is written as the string of its digits, and its place in
//! `VALUE` (an array of keys and indices) is listed in `big`, for the wrapper to make a
//! `BigInt` of. Every other number is written as `serde_json` writes it: an integer in its
//! digits, a double as the shortest text that reads back as the same double, which is what
//! `JSON.parse` gives.
//!
//! A verdict's `VALUE` is `{"ok", "arguments", "repairs", "errors", "model"}`: the arguments
//! (`null` when rejected), the repairs (`path`, `rule`, `before`, `after`), the errors (`path`,
//! `code`, `message`) and the text for the model (`for_model`).

use serde_json::Value;
use toolargs_core::{ArgumentError, Code, Limits, Parsed, Path, Rejection};

/// The largest integer a JavaScript number holds exactly, along with every integer below it
/// (`Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// The document of a verdict.
pub fn verdict(verdict: &Result<Parsed<Value>, Rejection>) -> String {
    let mut w = Writer::default();
    w.out.extend_from_slice(b"{\"v\":{\"ok\":");
    match verdict {
        Ok(parsed) => {
            w.out.extend_from_slice(b"true,\"arguments\":");
            w.path.push(Step::Key("arguments"));
            w.value(&parsed.args);
            w.path.pop();
            w.out.extend_from_slice(b",\"repairs\":[");
            w.path.push(Step::Key("repairs"));
            for (i, repair) in parsed.repairs.iter().enumerate() {
                if i > 0 {
                    w.out.push(b',');
                }
                w.path.push(Step::Index(i));
                w.out.extend_from_slice(b"{\"path\":");
                w.string(&repair.path);
                w.out.extend_from_slice(b",\"rule\":");
                w.string(repair.rule.as_str());
                w.out.extend_from_slice(b",\"before\":");
                w.path.push(Step::Key("before"));
                w.value(&repair.before);
                w.path.pop();
                w.out.extend_from_slice(b",\"after\":");
                w.path.push(Step::Key("after"));
                w.value(&repair.after);
                w.path.pop();
                w.out.push(b'}');
                w.path.pop();
            }
            w.path.pop();
            w.out
                .extend_from_slice(b"],\"errors\":[],\"model\":\"{\\\"ok\\\":true}\"");
        }
        Err(rejection) => {
            w.out
                .extend_from_slice(b"false,\"arguments\":null,\"repairs\":[],\"errors\":");
            w.errors(rejection);
            w.out.extend_from_slice(b",\"model\":");
            w.string(&rejection.for_model());
        }
    }
    w.out.push(b'}');
    w.finish()
}

/// The document of a value.
pub fn value(value: &Value) -> String {
    let mut w = Writer::default();
    w.out.extend_from_slice(b"{\"v\":");
    w.value(value);
    w.finish()
}

/// A rejection's errors as a JSON array of `{"path", "code", "message"}` (they hold no
/// numbers).
pub fn errors(rejection: &Rejection) -> String {
    let mut w = Writer::default();
    w.errors(rejection);
    String::from_utf8(w.out).unwrap_or_default()
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

#[derive(Default)]
struct Writer<'a> {
    out: Vec<u8>,
    /// Where the value being written is.
    path: Vec<Step<'a>>,
    /// The paths of the integers written as strings, each a JSON array, separated by `,`.
    big: Vec<u8>,
}

impl<'a> Writer<'a> {
    fn value(&mut self, value: &'a Value) {
        match value {
            Value::Null => self.out.extend_from_slice(b"null"),
            Value::Bool(true) => self.out.extend_from_slice(b"true"),
            Value::Bool(false) => self.out.extend_from_slice(b"false"),
            Value::Number(n) => {
                let beyond = match (n.as_i64(), n.as_u64()) {
                    (Some(i), _) => i.unsigned_abs() > MAX_SAFE_INTEGER,
                    (None, Some(u)) => u > MAX_SAFE_INTEGER,
                    (None, None) => false,
                };
                if beyond {
                    self.out.push(b'"');
                    self.out.extend_from_slice(n.to_string().as_bytes());
                    self.out.push(b'"');
                    self.mark_big();
                } else {
                    self.out.extend_from_slice(n.to_string().as_bytes());
                }
            }
            Value::String(s) => self.string(s),
            Value::Array(items) => {
                self.out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(b',');
                    }
                    self.path.push(Step::Index(i));
                    self.value(item);
                    self.path.pop();
                }
                self.out.push(b']');
            }
            Value::Object(members) => {
                self.out.push(b'{');
                for (i, (key, item)) in members.iter().enumerate() {
                    if i > 0 {
                        self.out.push(b',');
                    }
                    self.string(key);
                    self.out.push(b':');
                    self.path.push(Step::Key(key));
                    self.value(item);
                    self.path.pop();
                }
                self.out.push(b'}');
            }
        }
    }

    fn errors(&mut self, rejection: &Rejection) {
        self.out.push(b'[');
        for (i, error) in rejection.errors().iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            self.out.extend_from_slice(b"{\"path\":");
            self.string(&error.path);
            self.out.extend_from_slice(b",\"code\":");
            self.string(error.code.as_str());
            self.out.extend_from_slice(b",\"message\":");
            self.string(&error.message);
            self.out.push(b'}');
        }
        self.out.push(b']');
    }

    fn string(&mut self, text: &str) {
        // Writing a string into a vector cannot fail.
        let _ = serde_json::to_writer(&mut self.out, text);
    }

    /// Records the current path as one of a big integer's.
    fn mark_big(&mut self) {
        if !self.big.is_empty() {
            self.big.push(b',');
        }
        self.big.push(b'[');
        for (i, step) in self.path.iter().enumerate() {
            if i > 0 {
                self.big.push(b',');
            }
            match step {
                Step::Key(key) => {
                    let _ = serde_json::to_writer(&mut self.big, key);
                }
                Step::Index(index) => self.big.extend_from_slice(index.to_string().as_bytes()),
            }
        }
        self.big.push(b']');
    }

    /// Closes the document with the list of big integers.
    fn finish(mut self) -> String {
        self.out.extend_from_slice(b",\"big\":[");
        self.out.append(&mut self.big);
        self.out.extend_from_slice(b"]}");
        // Everything written is UTF-8: JSON punctuation, digits and `serde_json`'s strings.
        String::from_utf8(self.out).unwrap_or_default()
    }
}
