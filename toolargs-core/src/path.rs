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
fn push_key(out: &mut String, key: &str) {
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
}
