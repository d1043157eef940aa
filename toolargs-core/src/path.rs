//! JSON paths of values inside a payload: `$`, `$.field`, `$.list[3]`, `$['odd key']`.
//!
//! A [`Path`] is a linked list on the stack: descending into a field costs nothing, and the
//! string is only built when a repair or an error has to name the place.

use std::fmt::{self, Write};

/// One step from a parent value to a child.
#[derive(Clone, Copy, Debug)]
enum Step<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// The location of a value in the payload, rendered on demand.
#[derive(Clone, Copy, Debug)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    step: Step<'a>,
}

impl Path<'static> {
    /// The payload itself: `$`.
    pub const ROOT: Path<'static> = Path {
        parent: None,
        step: Step::Root,
    };
}

impl<'a> Path<'a> {
    /// The path of the member `key` of the object at this path.
    pub fn key<'b>(&'b self, key: &'b str) -> Path<'b> {
        Path {
            parent: Some(self),
            step: Step::Key(key),
        }
    }

    /// The path of item `index` of the array at this path.
    pub fn index(&self, index: usize) -> Path<'_> {
        Path {
            parent: Some(self),
            step: Step::Index(index),
        }
    }

    /// Number of steps below the root.
    pub fn depth(&self) -> usize {
        self.parent.map_or(0, |p| p.depth() + 1)
    }

    /// The path as text, `$.items[2].qty`, built in one allocation (the same text as its
    /// `Display`).
    pub fn render(&self) -> String {
        // Most paths are a field of the payload: `$.order_id`, written at once.
        if let (Some(Path { parent: None, .. }), Step::Key(key)) = (self.parent, self.step) {
            if is_identifier(key) {
                let mut out = String::with_capacity(key.len() + 2);
                out.push_str("$.");
                out.push_str(key);
                return out;
            }
        }
        let mut out = String::with_capacity(self.text_len_bound());
        self.write_to(&mut out);
        out
    }

    /// An upper bound of the rendered length for plain keys and short indexes (enough to
    /// render the common path without growing the string).
    fn text_len_bound(&self) -> usize {
        let step = match self.step {
            Step::Root => 1,
            Step::Key(key) => key.len() + 4,
            Step::Index(_) => 8,
        };
        step + self.parent.map_or(0, Path::text_len_bound)
    }

    fn write_to(&self, out: &mut String) {
        if let Some(parent) = self.parent {
            parent.write_to(out);
        }
        match self.step {
            Step::Root => out.push('$'),
            Step::Key(key) => push_key(out, key),
            Step::Index(index) => {
                let _ = write!(out, "[{index}]");
            }
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

/// Appends `.key` for a plain identifier, `['key']` (with `'` and `\` escaped) otherwise.
pub(crate) fn push_key(out: &mut String, key: &str) {
    if is_identifier(key) {
        out.push('.');
        out.push_str(key);
        return;
    }
    out.push_str("['");
    for c in key.chars() {
        match c {
            '\'' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push_str("']");
}

/// One step of a rendered path, read back ([`steps`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OwnedStep {
    Key(String),
    Index(usize),
}

/// The steps of a path as [`Path::render`] writes it, read back: `$.a[2]['odd key']` is
/// `[Key("a"), Index(2), Key("odd key")]`. `None` for text that rendering never writes.
pub(crate) fn steps(rendered: &str) -> Option<Vec<OwnedStep>> {
    let mut rest = rendered.strip_prefix('$')?;
    let mut steps = Vec::new();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("['") {
            let (key, tail) = quoted_key(after)?;
            steps.push(OwnedStep::Key(key));
            rest = tail;
        } else if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']')?;
            steps.push(OwnedStep::Index(after[..end].parse().ok()?));
            rest = &after[end + 1..];
        } else {
            let after = rest.strip_prefix('.')?;
            let end = after.find(['.', '[']).unwrap_or(after.len());
            if end == 0 {
                return None;
            }
            steps.push(OwnedStep::Key(after[..end].to_owned()));
            rest = &after[end..];
        }
    }
    Some(steps)
}

/// A key written `['...']` by [`push_key`], from after its opening quote: the key and the
/// text after its `']`.
fn quoted_key(text: &str) -> Option<(String, &str)> {
    let mut key = String::new();
    let mut rest = text;
    loop {
        let mut chars = rest.chars();
        match chars.next()? {
            '\'' => return Some((key, rest[1..].strip_prefix(']')?)),
            '\\' => match chars.next()? {
                'u' => {
                    let hex = chars.as_str().strip_prefix('{')?;
                    let close = hex.find('}')?;
                    key.push(char::from_u32(
                        u32::from_str_radix(&hex[..close], 16).ok()?,
                    )?);
                    rest = &hex[close + 1..];
                }
                escaped => {
                    key.push(escaped);
                    rest = chars.as_str();
                }
            },
            c => {
                key.push(c);
                rest = chars.as_str();
            }
        }
    }
}

fn is_identifier(key: &str) -> bool {
    let mut bytes = key.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_fields_indexes_and_odd_keys() {
        let root = Path::ROOT;
        assert_eq!(root.to_string(), "$");
        let items = root.key("items");
        let second = items.index(2);
        let qty = second.key("qty");
        assert_eq!(qty.to_string(), "$.items[2].qty");
        assert_eq!(root.key("odd key").to_string(), "$['odd key']");
        assert_eq!(root.key("it's").to_string(), r"$['it\'s']");
        assert_eq!(root.key("9lives").to_string(), "$['9lives']");
        assert_eq!(root.key("").to_string(), "$['']");
        assert_eq!(qty.depth(), 3);
        assert_eq!(qty.render(), qty.to_string());
    }

    #[test]
    fn rendered_paths_read_back_to_their_steps() {
        let root = Path::ROOT;
        let odd = root.key("it's [odd]\\");
        let item = odd.index(12);
        let control = item.key("a\u{7}b");
        let plain = control.key("qty");
        let expected = vec![
            OwnedStep::Key("it's [odd]\\".to_owned()),
            OwnedStep::Index(12),
            OwnedStep::Key("a\u{7}b".to_owned()),
            OwnedStep::Key("qty".to_owned()),
        ];
        assert_eq!(steps(&plain.render()), Some(expected));
        assert_eq!(steps("$"), Some(Vec::new()));
        for never in ["", "a", "$.", "$[x]", "$['open", "$..a", "$['a'"] {
            assert_eq!(steps(never), None, "{never}");
        }
    }
}
