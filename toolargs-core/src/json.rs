//! A small JSON reader that builds a borrowed [`Node`] tree.
//!
//! It exists, instead of `serde_json::Value`, for what the policy needs and `serde_json` hides:
//! duplicate keys are an error at any depth (compared after unescaping, so `"a"` and `"\u0061"`
//! collide), `NaN`/`Infinity` get their own code, number literals keep their text, and nesting
//! is bounded so hostile input is a clean error rather than a stack overflow.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::node::{Node, Number};
use crate::path::Path;
use crate::report::{ArgumentError, Code};

/// Objects with more members than this switch from a linear scan to a hash set for duplicates.
const LINEAR_DUPLICATE_SCAN: usize = 16;

/// Parses one JSON document (with optional surrounding whitespace) into a node.
pub(crate) fn parse_document(text: &str, max_depth: usize) -> Result<Node<'_>, ArgumentError> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth_left: max_depth,
    };
    reader.skip_whitespace();
    let node = reader.value(&Path::ROOT)?;
    reader.skip_whitespace();
    if reader.pos != reader.bytes.len() {
        return Err(reader.syntax("unexpected text after the JSON value"));
    }
    Ok(node)
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth_left: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// An `invalid_json` error at the current position, with line and column for the model.
    fn syntax(&self, what: &str) -> ArgumentError {
        let consumed = &self.text[..floor_char_boundary(self.text, self.pos)];
        let line = consumed.matches('\n').count() + 1;
        let column = consumed
            .rsplit('\n')
            .next()
            .map_or(0, |l| l.chars().count())
            + 1;
        ArgumentError {
            path: "$".to_owned(),
            code: Code::InvalidJson,
            message: format!("{what} at line {line} column {column}"),
        }
    }

    fn value(&mut self, path: &Path<'_>) -> Result<Node<'a>, ArgumentError> {
        match self.peek() {
            Some(b'{') => self.object(path),
            Some(b'[') => self.array(path),
            Some(b'"') => Ok(Node::String(self.string()?)),
            Some(b't') => self.keyword("true", Node::Bool(true)),
            Some(b'f') => self.keyword("false", Node::Bool(false)),
            Some(b'n') => self.keyword("null", Node::Null),
            Some(b'N') => self.non_finite("NaN", path),
            Some(b'I') => self.non_finite("Infinity", path),
            Some(b'-') if self.bytes.get(self.pos + 1) == Some(&b'I') => {
                self.non_finite("-Infinity", path)
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.syntax("expected a JSON value")),
            None => Err(self.syntax("unexpected end of input")),
        }
    }

    fn keyword(&mut self, word: &str, node: Node<'a>) -> Result<Node<'a>, ArgumentError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(node)
        } else {
            Err(self.syntax("expected a JSON value"))
        }
    }

    fn non_finite(&mut self, word: &str, path: &Path<'_>) -> Result<Node<'a>, ArgumentError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            Err(ArgumentError {
                path: path.to_string(),
                code: Code::NonFiniteNumber,
                message: format!("{word} is not a JSON number; send a finite number"),
            })
        } else {
            Err(self.syntax("expected a JSON value"))
        }
    }

    fn enter(&mut self) -> Result<(), ArgumentError> {
        self.depth_left = match self.depth_left.checked_sub(1) {
            Some(left) => left,
            None => return Err(self.syntax("nesting is too deep")),
        };
        self.pos += 1;
        Ok(())
    }

    fn array(&mut self, path: &Path<'_>) -> Result<Node<'a>, ArgumentError> {
        self.enter()?;
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.depth_left += 1;
            return Ok(Node::Array(items));
        }
        loop {
            self.skip_whitespace();
            let item = self.value(&path.index(items.len()))?;
            items.push(item);
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    self.depth_left += 1;
                    return Ok(Node::Array(items));
                }
                _ => return Err(self.syntax("expected ',' or ']'")),
            }
        }
    }

    fn object(&mut self, path: &Path<'_>) -> Result<Node<'a>, ArgumentError> {
        self.enter()?;
        let mut members: Vec<(Cow<'a, str>, Node<'a>)> = Vec::new();
        let mut seen: Option<HashSet<Cow<'a, str>>> = None;
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            self.depth_left += 1;
            return Ok(Node::Object(members));
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.syntax("expected a quoted object key"));
            }
            let key = self.string()?;
            let duplicate = match &mut seen {
                Some(set) => !set.insert(key.clone()),
                None => members.iter().any(|(k, _)| *k == key),
            };
            if duplicate {
                return Err(ArgumentError {
                    path: path.key(&key).to_string(),
                    code: Code::DuplicateKey,
                    message: "this key appears more than once in the object; send it once"
                        .to_owned(),
                });
            }
            self.skip_whitespace();
            if self.peek() != Some(b':') {
                return Err(self.syntax("expected ':' after an object key"));
            }
            self.pos += 1;
            self.skip_whitespace();
            let value = self.value(&path.key(&key))?;
            members.push((key, value));
            if seen.is_none() && members.len() > LINEAR_DUPLICATE_SCAN {
                seen = Some(members.iter().map(|(k, _)| k.clone()).collect());
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    self.depth_left += 1;
                    return Ok(Node::Object(members));
                }
                _ => return Err(self.syntax("expected ',' or '}'")),
            }
        }
    }

    /// Reads a string starting at its opening quote; borrows it when it has no escapes.
    fn string(&mut self) -> Result<Cow<'a, str>, ArgumentError> {
        self.pos += 1;
        let start = self.pos;
        loop {
            match self.peek() {
                Some(b'"') => {
                    let s = &self.text[start..self.pos];
                    self.pos += 1;
                    return Ok(Cow::Borrowed(s));
                }
                Some(b'\\') => break,
                Some(0..=0x1f) => return Err(self.syntax("control character inside a string")),
                Some(_) => self.pos += 1,
                None => return Err(self.syntax("unterminated string")),
            }
        }
        let mut out = String::with_capacity(self.pos - start + 16);
        out.push_str(&self.text[start..self.pos]);
        loop {
            let run_start = self.pos;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(&self.text[run_start..self.pos]);
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(&mut out)?;
                }
                Some(_) => return Err(self.syntax("control character inside a string")),
                None => return Err(self.syntax("unterminated string")),
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), ArgumentError> {
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
                        if !self.bytes[self.pos..].starts_with(b"\\u") {
                            return Err(self.syntax("unpaired surrogate in \\u escape"));
                        }
                        self.pos += 2;
                        let second = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&second) {
                            return Err(self.syntax("unpaired surrogate in \\u escape"));
                        }
                        let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                        char::from_u32(code).ok_or_else(|| self.syntax("invalid \\u escape"))?
                    }
                    0xDC00..=0xDFFF => return Err(self.syntax("unpaired surrogate in \\u escape")),
                    code => {
                        char::from_u32(code).ok_or_else(|| self.syntax("invalid \\u escape"))?
                    }
                }
            }
            _ => return Err(self.syntax("invalid escape in string")),
        };
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, ArgumentError> {
        let Some(digits) = self.bytes.get(self.pos..self.pos + 4) else {
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
    fn number(&mut self) -> Result<Node<'a>, ArgumentError> {
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
        Ok(Node::Number(Number::Literal(&self.text[start..self.pos])))
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
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
    use super::*;

    fn code(text: &str) -> Code {
        parse_document(text, 128).unwrap_err().code
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
        assert_eq!(code(&deep), Code::InvalidJson);
        let ok = "[".repeat(128) + &"]".repeat(128);
        assert!(parse_document(&ok, 128).is_ok());
        let too_deep = "[".repeat(129) + &"]".repeat(129);
        assert_eq!(code(&too_deep), Code::InvalidJson);
    }

    #[test]
    fn error_positions_count_characters() {
        let err = parse_document("{\"é\": x}", 128).unwrap_err();
        assert!(err.message.ends_with("line 1 column 7"), "{}", err.message);
    }
}
