//! Tool-call arguments judged while the model is still writing them.
//!
//! Providers stream a call's arguments in pieces. An [`ArgStream`] takes the pieces as they
//! come ([`feed`](ArgStream::feed), or [`feed_bytes`](ArgStream::feed_bytes) for byte
//! chunks that may split a character) and gives three things:
//!
//! - **an early rejection that is never wrong**: `feed` returns `Err` as soon as no way of
//!   going on can make the call acceptable: a member whose value no repair can save or that
//!   breaks its bounds, pattern or enum, an undeclared key under the reject policy, a key sent
//!   twice, text that can no longer be JSON, a limit crossed. It never rejects text that some
//!   continuation would make acceptable;
//! - **a partial view** ([`partial`](ArgStream::partial)): the members complete and accepted
//!   so far, each as the parser will pass it on, never a guessed value;
//! - **the strict verdict at the end** ([`finish`](ArgStream::finish)): exactly what `parse`
//!   gives on the whole text, whatever the way it was cut into chunks. A prefix that happens
//!   to read as a plausible object is never taken for the call.
//!
//! The work is linear in the text: each byte is scanned once, and each member of the payload
//! object is read and judged once, when it is complete. For a derived struct, and for a loaded
//! schema whose root is an object of its own keywords, that reading is the member's part of
//! the parse: its field (or property) is read then, and when the object closes the verdict is
//! assembled from the members, as the parse assembles it. For other loaded schemas each member
//! is judged alone and the whole call is parsed once more when the object closes. Either way
//! the verdict `finish` returns is ready then. Memory is bounded by the limits of
//! [`ParseOptions`]: past `max_payload_bytes` nothing more is kept.
//!
//! A derived type streams with `T::stream()` and a loaded schema with `spec.stream()`; the
//! facade's streaming guide shows both, and the readers of provider streams that assemble
//! each call's pieces.

pub(crate) mod calls;
mod keys;
mod partial;
pub mod provider;
mod scan;

use serde_json::Value;

use crate::coerce::object::unknown_member;
use crate::cx::Cx;
use crate::decode::{decoding_rejection, too_large, RawArgs};
use crate::json::read_text;
use crate::judge::{Judge, MemberSlots};
use crate::node::Node;
use crate::options::ParseOptions;
use crate::path::Path;
use crate::report::{ArgumentError, Parsed, Rejection};
use crate::spec::UnknownPolicy;

use keys::{Keys, Name};
use partial::Accepted;
use scan::{Event, Scanner};

/// What a parse gives.
type Verdict<T> = Result<Parsed<T>, Rejection>;

/// A member read and judged alone.
enum Member {
    Accepted(Accepted),
    /// Its errors, at its path or below: certain.
    Rejected(Vec<ArgumentError>),
    /// It is not JSON, or breaks a limit, or repeats a key: the whole text says how.
    NotJson,
}

/// The text received, as it must be judged at the end.
#[derive(Debug)]
enum Received {
    /// Valid UTF-8 so far; `pending` holds the bytes of a character not complete yet
    /// ([`ArgStream::feed_bytes`]).
    Text { text: String, pending: Vec<u8> },
    /// Bytes that are not UTF-8: judged as bytes, as `parse` judges them.
    Bytes(Vec<u8>),
    /// Past `max_payload_bytes`: nothing is kept.
    TooLarge,
}

/// A call's arguments judged as they arrive (see the [module](self)).
///
/// Made by `T::stream()` for a derived type and `spec.stream()` for a loaded schema, or by
/// [`ArgStream::new`] with explicit options.
pub struct ArgStream<J: Judge> {
    judge: J,
    options: ParseOptions,
    received: Received,
    /// Bytes fed, counting those not kept; brought up to date by the pieces that are not
    /// quiet (see [`ArgStream::received`]).
    total: usize,
    scanner: Scanner,
    /// The next piece may be taken without a scan (see [`ArgStream::feed`]): the call is not
    /// rejected, the text is UTF-8 with no character pending, and the scan stands inside the
    /// payload object, caught up with the text.
    quiet: bool,
    /// Keys of the payload object read so far.
    keys: Keys,
    /// The member being read, alone in an object: a buffer kept from member to member.
    one: String,
    /// Members complete and accepted, in order.
    accepted: Vec<Accepted>,
    /// The early rejection, once certain.
    rejected: Option<Rejection>,
    /// The verdict on the whole text, taken when the payload object closed (or when the scan
    /// found the text can no longer be a call), with how much of the text it judged.
    verdict: Option<(Upto, Verdict<J::Output>)>,
    /// The members read into the judge's fields, when it reads them one at a time
    /// ([`Judge::member_slots`]), with its policy for undeclared keys and the collectors
    /// of the undeclared members, in payload order.
    slots: Option<Slots<J::Output>>,
}

/// How much of the text a verdict judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Upto {
    /// Its first bytes: the verdict holds while the text has no more.
    Bytes(usize),
    /// The payload object, which ends before this byte: the verdict holds while only
    /// whitespace follows it.
    Object(usize),
}

/// A judge's fields read one member at a time.
struct Slots<T> {
    fields: Box<dyn MemberSlots<T>>,
    unknown: UnknownPolicy,
    undeclared: Vec<Cx>,
}

impl<J: Judge> std::fmt::Debug for ArgStream<J> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArgStream")
            .field("received", &self.received())
            .field("accepted", &self.accepted.len())
            .field("rejected", &self.rejected)
            .finish_non_exhaustive()
    }
}

impl<J: Judge> ArgStream<J> {
    /// A stream of one call judged by `judge` under `options`.
    pub fn new(judge: J, options: ParseOptions) -> ArgStream<J> {
        let slots = judge.member_slots().map(|fields| Slots {
            unknown: fields.unknown_policy(),
            fields,
            undeclared: Vec::new(),
        });
        ArgStream {
            judge,
            options,
            received: Received::Text {
                text: String::new(),
                pending: Vec::new(),
            },
            total: 0,
            scanner: Scanner::new(),
            quiet: false,
            keys: Keys::default(),
            one: String::new(),
            accepted: Vec::new(),
            rejected: None,
            verdict: None,
            slots,
        }
    }

    /// Takes the next piece of the arguments' text. `Err` once the call can no longer be
    /// accepted, whatever follows: on this piece and on every later one (the text is still
    /// kept, for [`finish`](ArgStream::finish)).
    #[inline(always)]
    pub fn feed(&mut self, chunk: &str) -> Result<(), Rejection> {
        // The common piece: more of a member's value, within the limit, with no event. Only
        // the text grows: the scan's position and the count are brought up to date by the
        // next piece that is not quiet.
        if self.quiet {
            if let Received::Text { text, .. } = &mut self.received {
                let limits = &self.options.limits;
                if text.len() + chunk.len() <= limits.max_payload_bytes
                    && self
                        .scanner
                        .take_quiet(chunk.as_bytes(), text.len(), limits.max_depth)
                {
                    push(text, chunk);
                    return Ok(());
                }
            }
        }
        self.feed_slow(chunk)
    }

    /// [`feed`](ArgStream::feed) for every other piece.
    #[inline(never)]
    fn feed_slow(&mut self, chunk: &str) -> Result<(), Rejection> {
        self.catch_up(chunk.len());
        if self.over_limit() {
            return self.state();
        }
        match &mut self.received {
            Received::Text { text, pending } if pending.is_empty() => push(text, chunk),
            // A character left incomplete by `feed_bytes` cannot be completed by text.
            Received::Text { .. } => self.take_bytes(chunk.as_bytes()),
            Received::Bytes(bytes) => bytes.extend_from_slice(chunk.as_bytes()),
            Received::TooLarge => {}
        }
        self.advance();
        self.settle();
        self.state()
    }

    /// [`feed`](ArgStream::feed) for bytes, which may end inside a character (the rest comes
    /// with the next piece). Bytes that can never be UTF-8 reject the call, as `parse`
    /// rejects them.
    pub fn feed_bytes(&mut self, chunk: &[u8]) -> Result<(), Rejection> {
        self.catch_up(chunk.len());
        if self.over_limit() {
            return self.state();
        }
        self.take_bytes(chunk);
        self.advance();
        self.settle();
        self.state()
    }

    /// Before a piece that is not quiet: the quiet pieces taken since the last one were
    /// scanned (the scan stands at the end of the text), and the count of bytes fed grows by
    /// theirs and `more`.
    fn catch_up(&mut self, more: usize) {
        let kept = match &self.received {
            Received::Text { text, pending } => {
                if self.quiet {
                    self.scanner.skip_to(text.len());
                }
                text.len() + pending.len()
            }
            Received::Bytes(bytes) => bytes.len(),
            Received::TooLarge => self.total,
        };
        self.total = kept.saturating_add(more);
    }

    /// After a piece that was not quiet: whether the next may be.
    fn settle(&mut self) {
        self.quiet = self.rejected.is_none()
            && self.scanner.in_object()
            && matches!(&self.received, Received::Text { pending, .. } if pending.is_empty());
    }

    /// The members of the payload object complete and accepted so far, as the parser will
    /// pass them on (with their repairs; a stripped key left out). Always an object; empty
    /// until a member is complete, and when the payload is not an object.
    pub fn partial(&self) -> Value {
        let Received::Text { text, .. } = &self.received else {
            return Value::Object(serde_json::Map::new());
        };
        partial::view(text, &self.accepted, &self.options.limits)
    }

    /// True once [`feed`](ArgStream::feed) has rejected the call.
    pub fn is_rejected(&self) -> bool {
        self.rejected.is_some()
    }

    /// Bytes received so far.
    pub fn received(&self) -> usize {
        match &self.received {
            Received::Text { text, pending } => text.len() + pending.len(),
            Received::Bytes(bytes) => bytes.len(),
            Received::TooLarge => self.total,
        }
    }

    /// The verdict on the whole text: exactly what `parse` gives on it.
    pub fn finish(self) -> Result<Parsed<J::Output>, Rejection> {
        match self.received {
            // `total` is up to date: the piece that crossed the limit was not quiet.
            Received::TooLarge => Err(decoding_rejection(
                too_large(&self.options.limits, self.total),
                &self.options,
            )),
            Received::Text { text, pending } if pending.is_empty() => match self.verdict {
                Some((Upto::Object(end), verdict)) if is_blank(&text[end..]) => verdict,
                Some((Upto::Bytes(len), verdict)) if len == text.len() => verdict,
                _ => self.judge.parse(&RawArgs::from(text), &self.options),
            },
            Received::Text { text, pending } => {
                let mut bytes = text.into_bytes();
                bytes.extend_from_slice(&pending);
                self.judge.parse(&RawArgs::from(bytes), &self.options)
            }
            Received::Bytes(bytes) => self.judge.parse(&RawArgs::from(bytes), &self.options),
        }
    }

    fn state(&self) -> Result<(), Rejection> {
        match &self.rejected {
            Some(rejection) => Err(rejection.clone()),
            None => Ok(()),
        }
    }

    /// Past `max_payload_bytes`, the call is `too_large`, and nothing more is kept.
    fn over_limit(&mut self) -> bool {
        if self.total <= self.options.limits.max_payload_bytes {
            return false;
        }
        if !matches!(self.received, Received::TooLarge) {
            self.received = Received::TooLarge;
            self.accepted.clear();
            self.keys.clear();
            self.rejected = Some(decoding_rejection(
                too_large(&self.options.limits, self.total),
                &self.options,
            ));
        }
        true
    }

    /// Appends bytes, keeping the text valid UTF-8; bytes that can never be are judged as
    /// bytes, and reject the call.
    fn take_bytes(&mut self, chunk: &[u8]) {
        let Received::Text { text, pending } = &mut self.received else {
            if let Received::Bytes(bytes) = &mut self.received {
                bytes.extend_from_slice(chunk);
            }
            return;
        };
        pending.extend_from_slice(chunk);
        let (valid, rest) = match std::str::from_utf8(pending) {
            Ok(valid) => (valid.len(), None),
            Err(err) => (err.valid_up_to(), err.error_len()),
        };
        match rest {
            None => {
                let tail = pending.split_off(valid);
                // Valid up to `valid` by the check above.
                text.push_str(std::str::from_utf8(&pending[..valid]).unwrap_or_default());
                *pending = tail;
            }
            Some(_) => {
                let mut bytes = std::mem::take(text).into_bytes();
                bytes.append(pending);
                let rejection = self.judge.parse(&RawArgs::from(&bytes[..]), &self.options);
                self.received = Received::Bytes(bytes);
                if self.rejected.is_none() {
                    self.rejected = rejection.err();
                }
            }
        }
    }

    /// Scans what arrived and judges what it completes, until the call is rejected.
    fn advance(&mut self) {
        while self.rejected.is_none() {
            let Received::Text { text, .. } = &self.received else {
                return;
            };
            let Some(event) = self
                .scanner
                .next(text.as_bytes(), self.options.limits.max_depth)
            else {
                return;
            };
            match event {
                Event::Key { start, end } => self.key(start, end),
                Event::Member {
                    start,
                    end,
                    key,
                    colon,
                } => self.member(start, end, key, colon),
                Event::Close {
                    start,
                    at,
                    key,
                    colon,
                } => self.close(start, at, key, colon),
                Event::TooDeep | Event::Trailing => self.judge_text(),
            }
        }
    }

    /// The text as received, while it is valid UTF-8.
    fn text(&self) -> &str {
        match &self.received {
            Received::Text { text, .. } => text,
            _ => "",
        }
    }

    /// The whole text so far, parsed: when the scan found it can no longer become a valid
    /// call, the reader says why, at the place the whole call will show it.
    fn judge_text(&mut self) {
        let verdict = self.judge.parse(&RawArgs::from(self.text()), &self.options);
        self.rejected = verdict.as_ref().err().cloned();
        self.verdict = Some((Upto::Bytes(self.text().len()), verdict));
    }

    /// A member's key, complete: one sent before rejects the call at once (`parse` rejects
    /// it there, whatever follows). The member itself is read when it ends.
    fn key(&mut self, start: usize, end: usize) {
        let Received::Text { text, .. } = &self.received else {
            return;
        };
        // Most keys have no escape: their text between the quotes is the key. One that does
        // not decode is no key, and its member is not JSON.
        let raw = &text[start + 1..end];
        let fresh = if raw.contains('\\') {
            match read_text(&text[start..=end], &self.options.limits) {
                Ok(document) => match document.root() {
                    Node::String(name) => self.keys.insert(text, Name::Decoded(name.to_string())),
                    _ => true,
                },
                Err(_) => true,
            }
        } else {
            self.keys.insert(text, Name::Text(start + 1..end))
        };
        if !fresh {
            self.judge_text();
        }
    }

    /// A member complete, ended by a `,`: read alone, and judged alone when the judge's
    /// members are.
    fn member(
        &mut self,
        start: usize,
        end: usize,
        key: Option<(usize, usize)>,
        colon: Option<usize>,
    ) {
        match self.read_member(start, end, key, colon) {
            Member::Accepted(accepted) => self.accepted.push(accepted),
            Member::Rejected(errors) => self.rejected = Some(Rejection::new(errors, 0)),
            Member::NotJson => self.judge_text(),
        }
    }

    /// What [`ArgStream::member`] makes of a member.
    fn read_member(
        &mut self,
        start: usize,
        end: usize,
        key: Option<(usize, usize)>,
        colon: Option<usize>,
    ) -> Member {
        let Received::Text { text, .. } = &self.received else {
            return Member::NotJson;
        };
        let member = &text[start..end];
        // A comma with no member before it, or one member too many (its key is counted).
        let limits = &self.options.limits;
        if member.trim_ascii().is_empty() || self.keys.len() > limits.max_keys {
            return Member::NotJson;
        }
        // The member alone in an object, in a buffer kept from member to member.
        self.one.clear();
        self.one.push('{');
        self.one.push_str(member);
        self.one.push('}');
        let Ok(document) = read_text(&self.one, limits) else {
            return Member::NotJson;
        };
        let (Node::Object(members), Some(key), Some(colon)) = (document.root(), key, colon) else {
            return Member::NotJson;
        };
        let Some((name, _)) = members.first() else {
            return Member::NotJson;
        };
        let name = name.as_ref();
        let value = match members.first() {
            Some((_, value)) => value,
            None => return Member::NotJson,
        };
        if let Some(slots) = &mut self.slots {
            // Read once, into its field (or as an undeclared key), under the parse's options.
            let cx = Cx::under(&self.options, slots.unknown, Vec::new());
            let collected = match slots.fields.read(name, value, cx) {
                Ok(collected) => collected,
                Err(mut cx) => {
                    unknown_member(name, value, slots.fields.known(), &Path::ROOT, &mut cx);
                    slots.undeclared.push(cx);
                    slots
                        .undeclared
                        .last()
                        .map(std::slice::from_ref)
                        .unwrap_or_default()
                }
            };
            if collected.iter().any(Cx::has_errors) {
                let errors = collected.iter().flat_map(Cx::errors).cloned().collect();
                return Member::Rejected(errors);
            }
            let repairs = collected.iter().flat_map(Cx::repairs).cloned().collect();
            let name = Name::of(text, key.0 + 1..key.1, name);
            return Member::Accepted(Accepted::new(name, colon + 1..end, repairs));
        }
        let quiet = self.options.with_omit_messages(true);
        let repairs = match self.judge.judge_member(document.root(), &quiet) {
            None => Vec::new(),
            Some((repairs, errors)) if errors.is_empty() => repairs,
            Some((repairs, errors)) => {
                let path = Path::ROOT.key(name).render();
                if !errors.iter().any(|error| is_under(&error.path, &path)) {
                    repairs
                } else {
                    // Certain: judged again, with the messages the model reads.
                    let (_, errors) = self
                        .judge
                        .judge_member(document.root(), &self.options)
                        .unwrap_or_default();
                    let certain: Vec<ArgumentError> = errors
                        .into_iter()
                        .filter(|error| is_under(&error.path, &path))
                        .collect();
                    if !certain.is_empty() {
                        return Member::Rejected(certain);
                    }
                    repairs
                }
            }
        };
        let name = Name::of(text, key.0 + 1..key.1, name);
        Member::Accepted(Accepted::new(name, colon + 1..end, repairs))
    }

    /// The payload object closed: the verdict `finish` gives is taken now (assembled from the
    /// members read into the judge's fields, or else by parsing the whole call), and the
    /// last member, when accepted, joins the partial view.
    fn close(
        &mut self,
        start: usize,
        at: usize,
        key: Option<(usize, usize)>,
        colon: Option<usize>,
    ) {
        if self.slots.is_some() && self.assemble(start, at, key, colon) {
            return;
        }
        self.judge_text();
        let Some((_, Ok(parsed))) = &self.verdict else {
            return;
        };
        // The last member, unless the object is empty.
        let (Some((key_start, key_end)), Some(colon)) = (key, colon) else {
            return;
        };
        debug_assert!(start <= key_start);
        let Received::Text { text, .. } = &self.received else {
            return;
        };
        let Ok(document) = read_text(&text[key_start..=key_end], &self.options.limits) else {
            return;
        };
        if let Node::String(name) = document.root() {
            let name = Name::of(text, key_start + 1..key_end, name);
            self.accepted
                .push(Accepted::new(name, colon + 1..at, Vec::new()));
        }
        // The repairs of the whole call: each member's own, from one source.
        partial::share_repairs(text, &mut self.accepted, &parsed.repairs);
    }
}

impl<J: Judge> ArgStream<J> {
    /// [`ArgStream::close`] for a judge whose fields are read one member at a time: the
    /// last member read, and the verdict assembled from every member, as the parse of the
    /// whole text gives it. False when it cannot be (the last member is not JSON, a comma
    /// stands before the `}`, or a `]` closes the object): the whole text is parsed then.
    fn assemble(
        &mut self,
        start: usize,
        at: usize,
        key: Option<(usize, usize)>,
        colon: Option<usize>,
    ) -> bool {
        // The scanner counts brackets without matching them; only the members are read.
        if self.text().as_bytes().get(at) != Some(&b'}') {
            return false;
        }
        let mut last = None;
        if is_blank(&self.text()[start..at]) {
            // `{}`, or a trailing comma, which is not JSON.
            if !self.keys.is_empty() {
                return false;
            }
        } else {
            match self.read_member(start, at, key, colon) {
                Member::Accepted(accepted) => last = Some(accepted),
                Member::Rejected(_) => {}
                Member::NotJson => return false,
            }
        }
        let Some(slots) = self.slots.take() else {
            return false;
        };
        // What the parse records: the undeclared keys first, then the fields in declaration
        // order.
        let mut cx = Cx::under(&self.options, slots.unknown, Vec::new());
        for member in slots.undeclared {
            cx.absorb(member);
        }
        let Some(value) = slots.fields.assemble(&mut cx) else {
            return false;
        };
        let verdict = cx.finish(value);
        self.rejected = verdict.as_ref().err().cloned();
        if let Ok(parsed) = &verdict {
            // The last member joins the partial view when the call is accepted.
            self.accepted.extend(last);
            if let Received::Text { text, .. } = &self.received {
                partial::share_repairs(text, &mut self.accepted, &parsed.repairs);
            }
        }
        self.verdict = Some((Upto::Object(at + 1), verdict));
        true
    }
}

/// Appends a piece of text; a piece of one byte (always ASCII in a `str`) without a call to
/// copy it, which costs more than the byte.
#[inline(always)]
fn push(text: &mut String, piece: &str) {
    match piece.as_bytes() {
        &[byte] => text.push(char::from(byte)),
        _ => text.push_str(piece),
    }
}

/// True when `text` is JSON whitespace alone (`trim_ascii` also takes a form feed).
fn is_blank(text: &str) -> bool {
    text.bytes().all(scan::is_whitespace)
}

/// True when `path` is `member` or a path below it.
fn is_under(path: &str, member: &str) -> bool {
    path.strip_prefix(member)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}
