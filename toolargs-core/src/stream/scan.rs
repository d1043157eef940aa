//! The structure of a call's text as it arrives: where each member of the payload object
//! ends, where the object closes, how deep it is nested. One pass, each byte looked at once.
//!
//! The scanner does not check the grammar: each member it delimits is read by the JSON reader
//! when it is complete. What makes it sound is that on valid JSON its reading is exact (it
//! follows strings and escapes, and counts brackets outside them), so what it delimits in any
//! text that can still become a valid call is exactly a member of that call.

use crate::text::scan_to_special;

/// What the scanner found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
    /// The key of a member of the payload object (its first string) closed with the quote at
    /// `end`: the span `start..=end`, quotes included. A key sent twice is certain from here.
    Key { start: usize, end: usize },
    /// A member of the payload object ended with a `,` at `end`: its text is `start..end`;
    /// `key` is the span of its first string (quotes included), `colon` the first `:` after
    /// it at the same level.
    Member {
        start: usize,
        end: usize,
        key: Option<(usize, usize)>,
        colon: Option<usize>,
    },
    /// The payload object closed with the byte at `at`: its last member is `start..at`.
    Close {
        start: usize,
        at: usize,
        key: Option<(usize, usize)>,
        colon: Option<usize>,
    },
    /// Nesting went past the limit.
    TooDeep,
    /// Something other than whitespace after the payload object.
    Trailing,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Whitespace before the payload.
    Start,
    /// Inside the payload object.
    Object,
    /// After the payload object.
    Closed,
    /// Nothing more to find: the payload is not an object (a fence, a JSON string, ...),
    /// which only the whole text decides, or the scan is over.
    Done,
}

/// Where the scan stands, between chunks.
#[derive(Clone, Debug)]
pub(super) struct Scanner {
    state: State,
    /// Bytes of the text scanned.
    pos: usize,
    /// Open arrays and objects, the payload object included.
    depth: usize,
    in_string: bool,
    /// The previous byte in a string was the `\` of an escape.
    escape: bool,
    /// The current member's text starts here.
    member: usize,
    /// The current member's first string, once it started.
    key_start: Option<usize>,
    key_end: Option<usize>,
    colon: Option<usize>,
}

impl Scanner {
    pub(super) const fn new() -> Scanner {
        Scanner {
            state: State::Start,
            pos: 0,
            depth: 0,
            in_string: false,
            escape: false,
            member: 0,
            key_start: None,
            key_end: None,
            colon: None,
        }
    }

    /// True while the scan is inside the payload object, where [`Scanner::take_quiet`]
    /// applies.
    pub(super) fn in_object(&self) -> bool {
        self.state == State::Object
    }

    /// Takes `piece`, the next bytes of the text, which start at `at`, when they cannot make
    /// an event: one byte that opens, continues or closes no member and no key, or plain
    /// bytes inside a string (no quote, backslash or control byte, and no pending escape).
    /// False, with nothing taken, otherwise: [`Scanner::next`] scans them.
    ///
    /// Only inside the payload object ([`Scanner::in_object`]), with the scan caught up with
    /// the text. The position does not move: the caller tells where the quiet bytes end with
    /// [`Scanner::skip_to`] before the next scan.
    #[inline(always)]
    pub(super) fn take_quiet(&mut self, piece: &[u8], at: usize, max_depth: usize) -> bool {
        match piece {
            [byte] => self.quiet_byte(*byte, at, max_depth),
            _ => self.in_string && !self.escape && scan_to_special(piece, 0) == piece.len(),
        }
    }

    /// The bytes up to `end` were taken by [`Scanner::take_quiet`].
    pub(super) fn skip_to(&mut self, end: usize) {
        debug_assert!(self.pos <= end);
        self.pos = end;
    }

    /// One byte of [`Scanner::take_quiet`], at `at`, taken when it makes no event.
    #[inline(always)]
    fn quiet_byte(&mut self, byte: u8, at: usize, max_depth: usize) -> bool {
        if self.in_string {
            if self.escape {
                self.escape = false;
            } else if byte == b'\\' {
                self.escape = true;
            } else if byte == b'"' {
                if self.closes_key() {
                    return false;
                }
                self.in_string = false;
            }
            return true;
        }
        match byte {
            b',' | b'}' | b']' if self.depth == 1 => false,
            b'{' | b'[' if self.depth >= max_depth => false,
            _ => self.step(byte, at, max_depth).is_none(),
        }
    }

    /// Whether a quote that ends a string ends the key of a member of the payload object.
    #[inline(always)]
    fn closes_key(&self) -> bool {
        self.depth == 1 && self.key_start.is_some() && self.key_end.is_none()
    }

    /// Scans `text` (everything received so far; the scanner remembers how far it got) up to
    /// the next event, and returns it; `None` once all of `text` is scanned.
    #[inline]
    pub(super) fn next(&mut self, text: &[u8], max_depth: usize) -> Option<Event> {
        // Most pieces arrive inside the payload object: scanned here without the loop below.
        if self.state == State::Object {
            if let Some(event) = self.object(text, max_depth) {
                return Some(event);
            }
        }
        while self.pos < text.len() {
            match self.state {
                State::Start => self.start(text),
                State::Object => {
                    if let Some(event) = self.object(text, max_depth) {
                        return Some(event);
                    }
                }
                State::Closed => {
                    let rest = &text[self.pos..];
                    match rest.iter().position(|b| !is_whitespace(*b)) {
                        Some(_) => {
                            self.state = State::Done;
                            self.pos = text.len();
                            return Some(Event::Trailing);
                        }
                        None => self.pos = text.len(),
                    }
                }
                State::Done => self.pos = text.len(),
            }
        }
        None
    }

    #[cold]
    fn start(&mut self, text: &[u8]) {
        let Some(skip) = text[self.pos..].iter().position(|b| !is_whitespace(*b)) else {
            self.pos = text.len();
            return;
        };
        self.pos += skip;
        if text[self.pos] == b'{' {
            self.state = State::Object;
            self.depth = 1;
            self.pos += 1;
            self.member = self.pos;
        } else {
            self.state = State::Done;
        }
    }

    /// Scans inside the payload object up to its next event.
    #[inline]
    fn object(&mut self, text: &[u8], max_depth: usize) -> Option<Event> {
        let mut i = self.pos;
        while i < text.len() {
            if self.in_string {
                if self.escape {
                    self.escape = false;
                    i += 1;
                    continue;
                }
                i = scan_to_special(text, i);
                let Some(&b) = text.get(i) else {
                    break;
                };
                match b {
                    b'"' => {
                        self.in_string = false;
                        if let (true, Some(start)) = (self.closes_key(), self.key_start) {
                            self.key_end = Some(i);
                            self.pos = i + 1;
                            return Some(Event::Key { start, end: i });
                        }
                    }
                    b'\\' => self.escape = true,
                    // A control byte: invalid, which the reader says when the member is read.
                    _ => {}
                }
                i += 1;
                continue;
            }
            let b = text[i];
            i += 1;
            if let Some(event) = self.step(b, i - 1, max_depth) {
                return Some(event);
            }
        }
        self.pos = i;
        None
    }

    /// One byte outside strings, at `at`, inside the payload object: the event it makes, if
    /// any (the scan then stands past it).
    #[inline(always)]
    fn step(&mut self, b: u8, at: usize, max_depth: usize) -> Option<Event> {
        match b {
            b'"' => {
                self.in_string = true;
                if self.depth == 1 && self.key_start.is_none() {
                    self.key_start = Some(at);
                }
            }
            b'{' | b'[' => {
                self.depth += 1;
                if self.depth > max_depth {
                    self.pos = at + 1;
                    self.state = State::Done;
                    return Some(Event::TooDeep);
                }
            }
            b'}' | b']' => {
                self.depth -= 1;
                if self.depth == 0 {
                    self.pos = at + 1;
                    self.state = State::Closed;
                    let (key, colon) = self.take_member();
                    return Some(Event::Close {
                        start: self.member,
                        at,
                        key,
                        colon,
                    });
                }
            }
            b',' if self.depth == 1 => {
                self.pos = at + 1;
                let (key, colon) = self.take_member();
                let start = std::mem::replace(&mut self.member, at + 1);
                return Some(Event::Member {
                    start,
                    end: at,
                    key,
                    colon,
                });
            }
            b':' if self.depth == 1 && self.colon.is_none() && self.key_end.is_some() => {
                self.colon = Some(at);
            }
            _ => {}
        }
        None
    }

    /// The current member's key span and colon, reset for the next member.
    fn take_member(&mut self) -> (Option<(usize, usize)>, Option<usize>) {
        let key = self.key_start.zip(self.key_end);
        self.key_start = None;
        self.key_end = None;
        (key, self.colon.take())
    }
}

/// JSON's whitespace.
pub(super) fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

#[cfg(test)]
mod tests {
    use super::{Event, Scanner};

    fn events(chunks: &[&str]) -> Vec<Event> {
        let mut scanner = Scanner::new();
        let mut text = String::new();
        let mut found = Vec::new();
        for chunk in chunks {
            text.push_str(chunk);
            while let Some(event) = scanner.next(text.as_bytes(), 128) {
                found.push(event);
            }
        }
        found
    }

    #[test]
    fn members_end_at_commas_of_the_payload_only() {
        let text = r#"{"a": "x,}\"", "b": [1, {"c": 2}], "d": 3} "#;
        let whole = events(&[text]);
        let bytes: Vec<String> = text.chars().map(String::from).collect();
        let one_by_one = events(&bytes.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(whole, one_by_one);
        let [Event::Key {
            start: key_start,
            end: key_end,
        }, Event::Member {
            start,
            end,
            key,
            colon,
        }, Event::Key { .. }, Event::Member { .. }, Event::Key { .. }, Event::Close { at, .. }] =
            whole[..]
        else {
            panic!("{whole:?}");
        };
        assert_eq!(&text[start..end], r#""a": "x,}\"""#);
        assert_eq!((key_start, key_end), (1, 3));
        assert_eq!(key, Some((1, 3)));
        assert_eq!(colon, Some(4));
        assert_eq!(at, text.len() - 2);
    }

    /// The events of `text` fed one byte at a time as a stream feeds it: each byte taken
    /// quietly when it makes no event, scanned otherwise.
    fn events_quietly(text: &str, max_depth: usize) -> Vec<Event> {
        let bytes = text.as_bytes();
        let mut scanner = Scanner::new();
        let mut found = Vec::new();
        for at in 0..bytes.len() {
            if scanner.in_object() && scanner.take_quiet(&bytes[at..=at], at, max_depth) {
                continue;
            }
            scanner.skip_to(at);
            while let Some(event) = scanner.next(&bytes[..=at], max_depth) {
                found.push(event);
            }
        }
        found
    }

    #[test]
    fn bytes_taken_quietly_make_the_same_events() {
        for text in [
            r#"{"a": "x,}\"", "b": [1, {"c": 2}], "d": 3} "#,
            r#"{"k000001": "0001", "k2":"v", "n" : 1.5e3 , "t":true,"o":{"p":[{"q":"]"}]}}"#,
            r#"{"a\"b": "c\\", "e": [[["deep"]]], "f": {"g": {}}, "h": []}x"#,
            r#"{"a": 1 "b": 2}"#,
            r#"{ "a" : [ "x" , "y" ] , "b" : { } }"#,
        ] {
            for max_depth in [2, 3, 128] {
                let whole = {
                    let mut scanner = Scanner::new();
                    let mut found = Vec::new();
                    while let Some(event) = scanner.next(text.as_bytes(), max_depth) {
                        found.push(event);
                    }
                    found
                };
                assert_eq!(
                    events_quietly(text, max_depth),
                    whole,
                    "{text} at {max_depth}"
                );
            }
        }
    }

    #[test]
    fn depth_trailing_text_and_other_payloads() {
        assert_eq!(
            events(&["{\"a\": [[", "["]),
            vec![Event::Key { start: 1, end: 3 }]
        );
        let mut scanner = Scanner::new();
        assert_eq!(scanner.next(b"{[[", 2), Some(Event::TooDeep));
        assert!(matches!(
            events(&["{}", " x"])[..],
            [Event::Close { .. }, Event::Trailing]
        ));
        assert_eq!(events(&["  \"{}\""]), vec![]);
        assert_eq!(events(&["```json\n{\"a\": 1,}\n```"]), vec![]);
    }
}
