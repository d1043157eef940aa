//! An accepted call's arguments and repairs as a tape: places in the call's own text and
//! tagged values, from which the wrapper makes the JavaScript values itself, instead of a JSON
//! text it would parse again.
//!
//! The wrapper often holds the call's text as a JavaScript string. When that text is ASCII, a
//! place in its UTF-8 bytes is the same place in the string, and a string value the reader
//! borrowed from the text (one with no escape) is a slice of it; an integer of at most 15
//! digits is read from its digits there. Anything else, and everything when the text is not
//! ASCII or was given as bytes, is written after the tape: a string as its UTF-8 text, a
//! number as `serde_json` writes it, an integer beyond a JavaScript number as its digits, for
//! a `BigInt`. So no JSON is written here, copied out and parsed again. Only the arguments the
//! parse hands over as members (an object under a plain root schema:
//! [`Arguments::Members`](toolargs_dynamic::Arguments::Members)) have a tape; built ones are
//! written as text ([`Written`](crate::convert::Written)).
//!
//! The tape is little-endian 32-bit words, from the first multiple of 4 at or after where the
//! verdict starts, then the text its values point into:
//!
//! - how many words the tape has, this one included;
//! - how many members; then each member's property index (a place in
//!   [`member_names`](toolargs_dynamic::Spec::member_names)) and its value;
//! - how many repairs; then each repair's path (a value), its rule (a place in
//!   [`Rule::ALL`]), and its values before and after.
//!
//! A value is a tag and what the tag says: [`STRING`] and [`NUMBER`] a start and an end in the
//! call's text; [`TEXT`], [`NUMBER_TEXT`] and [`BIG`] a start and an end in the text after the
//! tape; [`TRUE`], [`FALSE`] and [`NULL`] nothing; [`LIST`] how many items, then each;
//! [`OBJECT`] how many members, then each member's key (a value) and value.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt::Write as _;
use std::ops::Range;

use serde_json::Value;
use toolargs_core::node::{Node, Number};
use toolargs_core::{Repair, Rule};
use toolargs_dynamic::{Key, Member};

use crate::convert::{self, Kind, Verdict};

/// A string: `input.slice(start, end)`.
pub const STRING: u32 = 0;
/// An integer of at most 15 digits, `-` first when negative: its digits, `input.slice(start,
/// end)`.
pub const NUMBER: u32 = 1;
/// `true`.
pub const TRUE: u32 = 2;
/// `false`.
pub const FALSE: u32 = 3;
/// `null`.
pub const NULL: u32 = 4;
/// A list of the next `count` values.
pub const LIST: u32 = 5;
/// An object of the next `count` members, each a key and a value.
pub const OBJECT: u32 = 6;
/// A string: the text after the tape, from `start` to `end`.
pub const TEXT: u32 = 7;
/// A number: `Number` of the text after the tape, from `start` to `end`.
pub const NUMBER_TEXT: u32 = 8;
/// An integer beyond ±(2^53 − 1): `BigInt` of the text after the tape, from `start` to `end`.
pub const BIG: u32 = 9;

/// The tape of a call's arguments and repairs, not yet written out (see the module). Its
/// buffers are kept from call to call.
pub struct Tape {
    words: Vec<u32>,
    /// What the values point into.
    text: String,
}

thread_local! {
    /// The buffers of the last tape, emptied: a tape allocates nothing once they have room.
    static BUFFERS: RefCell<(Vec<u32>, String)> =
        const { RefCell::new((Vec::new(), String::new())) };
}

/// The most room each buffer keeps for the next tape (in words, in bytes) after a larger one.
const ROOM: usize = 16 * 1024;

impl Drop for Tape {
    fn drop(&mut self) {
        let (mut words, mut text) = (
            std::mem::take(&mut self.words),
            std::mem::take(&mut self.text),
        );
        words.clear();
        words.shrink_to(ROOM);
        text.clear();
        text.shrink_to(ROOM);
        BUFFERS.set((words, text));
    }
}

impl Tape {
    /// The tape of the arguments' `members` (those of
    /// [`Arguments::Members`](toolargs_dynamic::Arguments::Members)), read from the call's text
    /// `source`. Without `source` (when a place in the call's bytes is not a place in the
    /// wrapper's string), every value is written after the tape.
    pub fn of(members: &[(Key<'_>, Member<'_>)], source: Option<&[u8]>) -> Tape {
        let (words, text) = BUFFERS.take();
        let mut tape = Tape { words, text };
        tape.words.push(0);
        tape.count(members.len());
        let source = source.map_or(std::ptr::null()..std::ptr::null(), <[u8]>::as_ptr_range);
        for (key, member) in members {
            tape.count(key.index);
            match member {
                Member::Sent(node) => tape.node(node, &source),
                Member::Built(value) => tape.value(value),
            }
        }
        tape
    }

    /// The verdict: the tape with the `repairs` after the arguments, written into `buffer`
    /// (emptied; it keeps its room). It is handed over where it is written
    /// ([`io::emit`](crate::io::emit)), since the tape's start depends on where that is.
    pub fn verdict(mut self, repairs: &[Repair], mut buffer: Vec<u8>) -> Verdict {
        self.count(repairs.len());
        for repair in repairs {
            self.text_value(TEXT, &repair.path);
            self.count(
                Rule::ALL
                    .iter()
                    .position(|rule| *rule == repair.rule)
                    .unwrap_or(usize::MAX),
            );
            self.value(&repair.before);
            self.value(&repair.after);
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

    /// A node read from the call's text at `source`, as [`Node::to_value`] gives it.
    fn node(&mut self, node: &Node<'_>, source: &Range<*const u8>) {
        match node {
            // Borrowed from the call's text, a string has no escape: the slice is its value.
            Node::String(Cow::Borrowed(s)) if source.contains(&s.as_ptr()) => {
                self.place(STRING, s, source);
            }
            Node::String(s) => self.text_value(TEXT, s),
            // What these digits make is the integer `to_value` gives.
            Node::Number(Number::Literal(text))
                if is_small_integer(text) && source.contains(&text.as_ptr()) =>
            {
                self.place(NUMBER, text, source);
            }
            Node::Number(n) => self.value(&n.to_value()),
            Node::Null => self.words.push(NULL),
            Node::Bool(b) => self.words.push(if *b { TRUE } else { FALSE }),
            Node::Array(items) => {
                self.words.push(LIST);
                self.count(items.len());
                for item in items {
                    self.node(item, source);
                }
            }
            Node::Object(members) => {
                self.words.push(OBJECT);
                self.count(members.len());
                for (key, value) in members {
                    self.node(&Node::String(Cow::Borrowed(key.as_ref())), source);
                    self.node(value, source);
                }
            }
        }
    }

    fn value(&mut self, value: &Value) {
        match value {
            Value::Null => self.words.push(NULL),
            Value::Bool(b) => self.words.push(if *b { TRUE } else { FALSE }),
            Value::Number(n) => {
                self.words.push(match convert::beyond_a_number(n) {
                    true => BIG,
                    false => NUMBER_TEXT,
                });
                self.count(self.text.len());
                // Writing into a `String` cannot fail.
                let _ = write!(self.text, "{n}");
                self.count(self.text.len());
            }
            Value::String(s) => self.text_value(TEXT, s),
            Value::Array(items) => {
                self.words.push(LIST);
                self.count(items.len());
                for item in items {
                    self.value(item);
                }
            }
            Value::Object(members) => {
                self.words.push(OBJECT);
                self.count(members.len());
                for (key, value) in members {
                    self.text_value(TEXT, key);
                    self.value(value);
                }
            }
        }
    }

    /// A count or an index, as a word (past `u32::MAX` only where the gate's limits are).
    fn count(&mut self, n: usize) {
        self.words.push(u32::try_from(n).unwrap_or(u32::MAX));
    }

    /// `tag` and where `text`, a slice of the call's text, lies in it.
    fn place(&mut self, tag: u32, text: &str, source: &Range<*const u8>) {
        let start = text.as_ptr() as usize - source.start as usize;
        self.words.push(tag);
        self.count(start);
        self.count(start + text.len());
    }

    /// `tag` and `text`, written after the tape.
    fn text_value(&mut self, tag: u32, text: &str) {
        self.words.push(tag);
        self.count(self.text.len());
        self.text.push_str(text);
        self.count(self.text.len());
    }
}

/// Whether a JSON number literal is an integer of at most 15 digits (below 2^53), written
/// as [`Number::to_value`] writes it: not `-0`, which is the integer 0.
fn is_small_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    digits.len() <= 15 && digits.bytes().all(|b| b.is_ascii_digit()) && text != "-0"
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolargs_core::{ParseOptions, RawArgs};
    use toolargs_dynamic::Arguments;

    /// The words of the verdict's tape on the call `text` (the first, their count, left out)
    /// and the text after them.
    fn tape(schema: &str, text: &str) -> Option<(Vec<u32>, String)> {
        let spec = toolargs_dynamic::Spec::from_json(schema).unwrap();
        let raw = RawArgs::from(text);
        let parsed = spec.parse_borrowed(&raw, &ParseOptions::DEFAULT, |args| match args {
            Arguments::Members(members) => Some(Tape::of(&members, Some(text.as_bytes()))),
            Arguments::Value(_) => None,
        });
        let parsed = parsed.unwrap();
        let verdict = parsed.args?.verdict(&parsed.repairs, Vec::new());
        let pad = (4 - verdict.bytes.as_ptr() as usize % 4) % 4;
        let words: Vec<u32> = verdict.bytes[pad..]
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        let count = words[0] as usize;
        let after = String::from_utf8(verdict.bytes[pad + 4 * count..].to_vec()).unwrap();
        Some((words[1..count].to_vec(), after))
    }

    const SCHEMA: &str = r#"{"type": "object", "properties": {
        "s": {"type": "string"}, "n": {"type": "number"},
        "list": {"type": "array", "items": {"type": ["boolean", "null", "string"]}},
        "flag": {"type": "boolean", "default": false}}}"#;

    fn rule(rule: Rule) -> u32 {
        Rule::ALL.iter().position(|r| *r == rule).unwrap() as u32
    }

    #[test]
    fn places_in_the_call_and_text_after_the_tape() {
        let text = r#"{"n": -12, "s": "ab", "list": [true, null, "c\n"]}"#;
        let (words, after) = tape(SCHEMA, text).unwrap();
        let s = text.find("ab").unwrap() as u32;
        let n = text.find("-12").unwrap() as u32;
        #[rustfmt::skip]
        assert_eq!(words, [
            4,
            0, STRING, s, s + 2,
            1, NUMBER, n, n + 3,
            2, LIST, 3, TRUE, NULL, TEXT, 0, 2,
            3, FALSE,
            0,
        ]);
        assert_eq!(after, "c\n");
    }

    #[test]
    fn repairs_and_what_is_not_in_the_call_text_after_the_tape() {
        // A second encoding: every value is in the decoded text, not the call's; `-0` is 0.
        let (words, after) = tape(SCHEMA, r#""{\"n\": -0, \"s\": \"x\"}""#).unwrap();
        let json = rule(Rule::UnwrapDoubleEncoded);
        #[rustfmt::skip]
        assert_eq!(words, [
            3, 0, TEXT, 0, 1, 1, NUMBER_TEXT, 1, 2, 3, FALSE,
            1, TEXT, 2, 3, json, TEXT, 3, 22, OBJECT, 2, TEXT, 22, 23, NUMBER_TEXT, 23, 24,
            TEXT, 24, 25, TEXT, 25, 26,
        ]);
        assert_eq!(after, r#"x0${"n": -0, "s": "x"}n0sx"#);
        // An integer beyond a number, as sent, and as repaired from a string: its digits.
        let (words, after) = tape(SCHEMA, r#"{"n": 9007199254740993}"#).unwrap();
        assert_eq!(words, [2, 1, BIG, 0, 16, 3, FALSE, 0]);
        assert_eq!(after, "9007199254740993");
        let integer = r#"{"type": "object", "properties": {"i": {"type": "integer"}}}"#;
        let (words, after) = tape(integer, r#"{"i": "9007199254740993"}"#).unwrap();
        assert_eq!(&words[..6], [1, 0, BIG, 0, 16, 1]);
        assert_eq!(words.iter().filter(|w| **w == BIG).count(), 2, "{words:?}");
        assert!(
            after.ends_with("90071992547409939007199254740993"),
            "{after}"
        );
        assert!(tape(r#"{"type": "object"}"#, r#"{"n": 1}"#).is_none());
    }

    #[test]
    fn without_places_every_value_after_the_tape() {
        let spec = toolargs_dynamic::Spec::from_json(SCHEMA).unwrap();
        let raw = RawArgs::from(r#"{"s": "é", "n": 7}"#);
        let parsed = spec.parse_borrowed(&raw, &ParseOptions::DEFAULT, |args| match args {
            Arguments::Members(members) => {
                let tape = Tape::of(&members, None);
                (tape.words[1..].to_vec(), tape.text.clone())
            }
            Arguments::Value(_) => unreachable!("a plain schema's call is members"),
        });
        let (words, text) = parsed.unwrap().args;
        assert_eq!(words, [3, 0, TEXT, 0, 2, 1, NUMBER_TEXT, 2, 3, 3, FALSE]);
        assert_eq!(text, "é7");
    }
}
