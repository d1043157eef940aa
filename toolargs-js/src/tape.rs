//! The arguments of an accepted call as places in the call's own text: a tape the wrapper
//! builds the arguments' object from, instead of a text it hands to `JSON.parse`.
//!
//! The wrapper holds the call's text as a JavaScript string. When that text is ASCII, a place
//! in its UTF-8 bytes is the same place in the string, and a string value the reader borrowed
//! from the text (one with no escape) is a slice of it; an integer of at most 15 digits is
//! `Number` of a slice. The wrapper then makes the object directly, with no JSON of the
//! arguments written here, copied out and parsed again. Only the arguments the parse hands over
//! as members ([`Arguments::Members`]: an object under a plain root schema) have a tape; the
//! others, and a call whose arguments hold an integer beyond a JavaScript number, are written
//! as text ([`Written`](crate::convert::Written)).
//!
//! The tape is little-endian 32-bit words, from the first multiple of 4 at or after where the
//! verdict starts, then text:
//!
//! - `words`: how many words the tape has, these three included;
//! - `repairs`: where the repairs start in the text after the tape, or `u32::MAX` when there
//!   are none. From there the text holds what [`Kind::Annotated`](crate::convert::Kind) holds
//!   after the arguments: the repairs' JSON, a newline, the places of their integers beyond a
//!   number;
//! - `count`: how many members; then each member's property index (a place in
//!   [`member_names`](toolargs_dynamic::Spec::member_names)) and its value.
//!
//! A value is a tag and what the tag says: [`STRING`] and [`NUMBER`] a start and an end in the
//! call's text, [`TRUE`], [`FALSE`] and [`NULL`] nothing, [`LIST`] how many items and then
//! each, [`JSON`] a start and an end in the text after the tape, where the value is written as
//! JSON (a repaired value or a default, a string with escapes, a number not written as a small
//! integer).

use std::borrow::Cow;
use std::cell::RefCell;
use std::ops::Range;

use serde_json::Value;
use toolargs_core::node::{Node, Number};
use toolargs_core::Repair;
use toolargs_dynamic::{Arguments, Member};

use crate::convert::{self, Kind, Verdict};

/// A string: `input.slice(start, end)`.
pub const STRING: u32 = 0;
/// A number: `Number(input.slice(start, end))`.
pub const NUMBER: u32 = 1;
/// `true`.
pub const TRUE: u32 = 2;
/// `false`.
pub const FALSE: u32 = 3;
/// `null`.
pub const NULL: u32 = 4;
/// A list of the next `count` values.
pub const LIST: u32 = 5;
/// `JSON.parse` of the text after the tape, from `start` to `end`.
pub const JSON: u32 = 6;

/// What the `repairs` word holds when there are none.
const NO_REPAIRS: u32 = u32::MAX;

/// The tape of a call's arguments, not yet written out (see the module). Its buffers are kept
/// from call to call.
pub struct Tape {
    words: Vec<u32>,
    /// The values written as JSON, then the repairs.
    text: String,
}

thread_local! {
    /// The buffers of the last tape, emptied: a tape allocates nothing once they have room.
    static KEPT: RefCell<(Vec<u32>, String)> = const { RefCell::new((Vec::new(), String::new())) };
}

impl Drop for Tape {
    fn drop(&mut self) {
        let (mut words, mut text) = (
            std::mem::take(&mut self.words),
            std::mem::take(&mut self.text),
        );
        words.clear();
        text.clear();
        KEPT.set((words, text));
    }
}

impl Tape {
    /// The tape of `args`, read from the call's text `source`: `None` for arguments that are
    /// not members, or that hold an integer beyond a JavaScript number.
    pub fn of(args: &Arguments<'_>, source: &[u8]) -> Option<Tape> {
        let Arguments::Members(members) = args else {
            return None;
        };
        let (words, text) = KEPT.take();
        let mut tape = Tape { words, text };
        tape.words
            .extend([0, NO_REPAIRS, u32::try_from(members.len()).ok()?]);
        let source = source.as_ptr_range();
        for (key, member) in members {
            tape.words.push(u32::try_from(key.index).ok()?);
            match member {
                Member::Sent(node) => tape.node(node, &source)?,
                Member::Built(value) => tape.value(value)?,
            }
        }
        Some(tape)
    }

    fn node(&mut self, node: &Node<'_>, source: &Range<*const u8>) -> Option<()> {
        match node {
            Node::Null => self.words.push(NULL),
            Node::Bool(b) => self.words.push(if *b { TRUE } else { FALSE }),
            // Borrowed from the call's text, a string has no escape: the slice is its value.
            Node::String(Cow::Borrowed(s)) if source.contains(&s.as_ptr()) => {
                self.place(STRING, s, source)?;
            }
            // What `Number` makes of these digits is the integer `to_value` gives.
            Node::Number(Number::Literal(text))
                if convert::is_small_integer(text) && source.contains(&text.as_ptr()) =>
            {
                self.place(NUMBER, text, source)?;
            }
            Node::Array(items) => {
                self.words.push(LIST);
                self.words.push(u32::try_from(items.len()).ok()?);
                for item in items {
                    self.node(item, source)?;
                }
            }
            other => {
                let start = self.text.len();
                self.text = convert::json_of_node(other, source, std::mem::take(&mut self.text))?;
                self.span(start)?;
            }
        }
        Some(())
    }

    fn value(&mut self, value: &Value) -> Option<()> {
        match value {
            Value::Null => self.words.push(NULL),
            Value::Bool(b) => self.words.push(if *b { TRUE } else { FALSE }),
            Value::Array(items) => {
                self.words.push(LIST);
                self.words.push(u32::try_from(items.len()).ok()?);
                for item in items {
                    self.value(item)?;
                }
            }
            other => {
                let start = self.text.len();
                self.text = convert::json_of_value(other, std::mem::take(&mut self.text))?;
                self.span(start)?;
            }
        }
        Some(())
    }

    /// `tag` and where `text`, a slice of the call's text, lies in it.
    fn place(&mut self, tag: u32, text: &str, source: &Range<*const u8>) -> Option<()> {
        let start = text.as_ptr() as usize - source.start as usize;
        self.words.push(tag);
        self.words.push(u32::try_from(start).ok()?);
        self.words.push(u32::try_from(start + text.len()).ok()?);
        Some(())
    }

    /// [`JSON`] and the text written since `start`.
    fn span(&mut self, start: usize) -> Option<()> {
        self.words.push(JSON);
        self.words.push(u32::try_from(start).ok()?);
        self.words.push(u32::try_from(self.text.len()).ok()?);
        Some(())
    }

    /// The verdict: the tape, then the text after it with the `repairs`, written into
    /// `buffer` (emptied; it keeps its room). It is handed over where it is written
    /// ([`io::emit`](crate::io::emit)), since the tape's start depends on where that is.
    pub fn verdict(mut self, repairs: &[Repair], mut buffer: Vec<u8>) -> Verdict {
        if !repairs.is_empty() {
            self.words[1] = u32::try_from(self.text.len()).unwrap_or(NO_REPAIRS);
            convert::push_repairs(&mut self.text, repairs, "");
        }
        self.words[0] = u32::try_from(self.words.len()).unwrap_or(u32::MAX);
        buffer.clear();
        // Room for it all first: the buffer does not move while it is written.
        buffer.reserve(3 + 4 * self.words.len() + self.text.len());
        let pad = (4 - buffer.as_ptr() as usize % 4) % 4;
        buffer.resize(pad + 4 * self.words.len(), 0);
        for (place, word) in buffer[pad..].chunks_exact_mut(4).zip(&self.words) {
            place.copy_from_slice(&word.to_le_bytes());
        }
        buffer.extend_from_slice(self.text.as_bytes());
        Verdict {
            kind: Kind::Tape,
            bytes: buffer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolargs_core::{ParseOptions, RawArgs};

    /// The words of the tape of the call `text` (header left out), and the text after it.
    fn tape(schema: &str, text: &str) -> Option<(Vec<u32>, String)> {
        let spec = toolargs_dynamic::Spec::from_json(schema).unwrap();
        let raw = RawArgs::from(text);
        let parsed = spec.parse_borrowed(&raw, &ParseOptions::DEFAULT, |args| {
            let RawArgs::Text(source) = &raw else {
                unreachable!()
            };
            Tape::of(&args, source.as_bytes())
        });
        parsed
            .unwrap()
            .args
            .map(|t| (t.words[2..].to_vec(), t.text))
    }

    const SCHEMA: &str = r#"{"type": "object", "properties": {
        "s": {"type": "string"}, "n": {"type": "number"},
        "list": {"type": "array", "items": {"type": ["boolean", "null", "string"]}},
        "flag": {"type": "boolean", "default": false}}}"#;

    #[test]
    fn places_in_the_text_tags_and_json() {
        let text = r#"{"n": -12, "s": "ab", "list": [true, null, "c\n"]}"#;
        let (words, json) = tape(SCHEMA, text).unwrap();
        let s = text.find("ab").unwrap() as u32;
        let n = text.find("-12").unwrap() as u32;
        #[rustfmt::skip]
        assert_eq!(words, [
            4,
            0, STRING, s, s + 2,
            1, NUMBER, n, n + 3,
            2, LIST, 3, TRUE, NULL, JSON, 0, 5,
            3, FALSE,
        ]);
        assert_eq!(json, r#""c\n""#);
        // A double, `-0` and a string from a second encoding are written as JSON.
        let (words, json) = tape(SCHEMA, r#""{\"n\": -0, \"s\": \"x\"}""#).unwrap();
        assert_eq!(words, [3, 0, JSON, 0, 3, 1, JSON, 3, 4, 3, FALSE]);
        assert_eq!(json, r#""x"0"#);
    }

    #[test]
    fn no_tape_for_an_integer_beyond_a_number_or_a_schema_not_plain() {
        assert!(tape(SCHEMA, r#"{"n": 9007199254740993}"#).is_none());
        assert!(tape(SCHEMA, r#"{"n": 9007199254740991}"#).is_some());
        assert!(tape(r#"{"type": "object"}"#, r#"{"n": 1}"#).is_none());
    }
}
