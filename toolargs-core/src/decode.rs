//! Payload decoding: from what the SDK handed over to one JSON value.
//!
//! Reads the payload under the limits; what its envelope means (a Markdown code fence around
//! the whole payload, one level of double JSON encoding, no arguments at all, a root that is not
//! an object) is the policy's, asked of `coerce::envelope`.

use std::borrow::Cow;

use serde_json::Value;

use crate::coerce::envelope;
use crate::json::{
    read_leading, read_logged as read_logged_document, read_text, read_value, Document,
};
use crate::node::Node;
use crate::options::{Limits, ParseOptions};
use crate::path::Path;
use crate::report::{ArgumentError, Code, Rejection, Repair};

/// Parses one JSON document (with optional surrounding whitespace) into a node, with the
/// default limits except for the nesting depth.
pub fn parse_document(text: &str, max_depth: usize) -> Result<Node<'_>, ArgumentError> {
    let limits = Limits {
        max_depth,
        ..Limits::DEFAULT
    };
    read_text(text, &limits).map(Document::into_root)
}

/// Tool-call arguments as they arrive: JSON text, raw bytes, or an already-decoded value.
///
/// A [`Value::String`] is taken as JSON text, since that is how many SDKs log arguments.
/// Duplicate keys can only be detected in text: a decoded value has already lost them.
#[derive(Clone, Debug)]
pub enum RawArgs<'a> {
    /// JSON text (possibly fenced or double-encoded).
    Text(Cow<'a, str>),
    /// JSON text as bytes; invalid UTF-8 is rejected as `invalid_json`.
    Bytes(Cow<'a, [u8]>),
    /// An already-decoded value.
    Value(Cow<'a, Value>),
}

impl<'a> From<&'a str> for RawArgs<'a> {
    fn from(text: &'a str) -> Self {
        RawArgs::Text(Cow::Borrowed(text))
    }
}

impl<'a> From<&'a String> for RawArgs<'a> {
    fn from(text: &'a String) -> Self {
        RawArgs::Text(Cow::Borrowed(text))
    }
}

impl From<String> for RawArgs<'_> {
    fn from(text: String) -> Self {
        RawArgs::Text(Cow::Owned(text))
    }
}

impl<'a> From<&'a [u8]> for RawArgs<'a> {
    fn from(bytes: &'a [u8]) -> Self {
        RawArgs::Bytes(Cow::Borrowed(bytes))
    }
}

impl From<Vec<u8>> for RawArgs<'_> {
    fn from(bytes: Vec<u8>) -> Self {
        RawArgs::Bytes(Cow::Owned(bytes))
    }
}

impl<'a> From<&'a Value> for RawArgs<'a> {
    fn from(value: &'a Value) -> Self {
        RawArgs::Value(Cow::Borrowed(value))
    }
}

impl From<Value> for RawArgs<'_> {
    fn from(value: Value) -> Self {
        RawArgs::Value(Cow::Owned(value))
    }
}

impl<'a> From<&'a RawArgs<'a>> for RawArgs<'a> {
    fn from(raw: &'a RawArgs<'a>) -> Self {
        match raw {
            RawArgs::Text(t) => RawArgs::Text(Cow::Borrowed(t)),
            RawArgs::Bytes(b) => RawArgs::Bytes(Cow::Borrowed(b)),
            RawArgs::Value(v) => RawArgs::Value(Cow::Borrowed(v)),
        }
    }
}

/// Decodes the payload and hands the root node to `then`.
///
/// With `expect_object`, the root must be a JSON object (after the repairs above); otherwise any
/// JSON value is passed on. Repairs of the envelope are appended to `repairs`.
#[inline]
pub(crate) fn with_payload<R>(
    raw: &RawArgs<'_>,
    limits: &Limits,
    expect_object: bool,
    repairs: &mut Vec<Repair>,
    then: impl FnOnce(&Node<'_>, &mut Vec<Repair>) -> R,
) -> Result<R, ArgumentError> {
    match raw {
        RawArgs::Text(text) => with_text(text, limits, expect_object, repairs, then),
        RawArgs::Bytes(bytes) => match check_size(limits, bytes.len())
            .and_then(|()| std::str::from_utf8(bytes).map_err(|err| invalid_utf8(&err)))
        {
            Ok(text) => with_text(text, limits, expect_object, repairs, then),
            Err(err) => Err(err),
        },
        RawArgs::Value(value) => match value.as_ref() {
            Value::String(text) => with_text(text, limits, expect_object, repairs, then),
            value => finish(
                read_value(value, limits)?.root(),
                expect_object,
                repairs,
                then,
            ),
        },
    }
}

/// Arguments read straight from a log's own text: held as JSON text inside a JSON string
/// ([`read_logged`]) or as a JSON object ([`read_embedded`]). One JSON object, with no envelope
/// to settle. Judge it with [`parse_logged_payload`](crate::tool::parse_logged_payload).
pub struct LoggedPayload<'a> {
    document: Document<'a>,
}

impl std::fmt::Debug for LoggedPayload<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("LoggedPayload")
            .field(self.document.root())
            .finish()
    }
}

/// Reads arguments a log holds as JSON text inside a JSON string (`"arguments": "{\"n\": 1}"`)
/// from the log's own text, without unescaping them first. `text` goes on right after the
/// string's opening quote; it may go on past the closing quote (the rest of the record).
/// Returns the payload and the bytes read, the closing quote included.
///
/// `None` when the string is not read this way: it does not hold one object, it holds an
/// escape besides its quotes' (a string of the arguments' own with an escape, whitespace
/// written as `\n`), it is past `max_payload_bytes`, or it is not valid. Unescape it then and
/// give the text to [`parse_payload`](crate::tool::parse_payload), which gives the same
/// verdict as a payload read here and says what is wrong.
///
/// ```
/// use toolargs_core::decode::read_logged;
/// use toolargs_core::Limits;
///
/// let record = r#"{"arguments": "{\"n\": 1}", "id": 7}"#;
/// let start = record.find(": \"").unwrap() + 3;
/// let (_payload, read) = read_logged(&record[start..], &Limits::DEFAULT).unwrap();
/// assert_eq!(&record[start + read..], r#", "id": 7}"#);
/// // A string of the arguments' own with an escape in it: unescape the arguments first.
/// assert!(read_logged(r#"{\"s\": \"a\\\"b\"}""#, &Limits::DEFAULT).is_none());
/// ```
pub fn read_logged<'a>(text: &'a str, limits: &Limits) -> Option<(LoggedPayload<'a>, usize)> {
    if text.as_bytes().first() != Some(&b'{') {
        return None;
    }
    let (document, read) = read_logged_document(text, limits)?;
    // Unescaped, the arguments are shorter still: within the limit whenever this is.
    (read - 1 <= limits.max_payload_bytes).then_some((LoggedPayload { document }, read))
}

/// Reads arguments a log holds as a JSON object (`"arguments": {"n": 1}`) from the log's own
/// text: `text` starts at the object's `{` and may go on past its `}` (the rest of the record).
/// Returns the payload and the bytes of the object's text.
///
/// `None` when the text does not start with one object that
/// [`parse_payload`](crate::tool::parse_payload) would read: it is not valid, it breaks a
/// limit, or it is past `max_payload_bytes`. Give the object's text to `parse_payload` then,
/// which says what is wrong. A payload read here gets the same verdict as its text there.
///
/// ```
/// use toolargs_core::decode::read_embedded;
/// use toolargs_core::Limits;
///
/// let record = r#"{"arguments": {"n": 1}, "id": 7}"#;
/// let start = record.find('{').unwrap() + 1;
/// let start = start + record[start..].find('{').unwrap();
/// let (_payload, read) = read_embedded(&record[start..], &Limits::DEFAULT).unwrap();
/// assert_eq!(&record[start..start + read], r#"{"n": 1}"#);
/// // A key given twice: the text says so, and is judged as text.
/// assert!(read_embedded(r#"{"n": 1, "n": 2}"#, &Limits::DEFAULT).is_none());
/// ```
pub fn read_embedded<'a>(text: &'a str, limits: &Limits) -> Option<(LoggedPayload<'a>, usize)> {
    if text.as_bytes().first() != Some(&b'{') {
        return None;
    }
    let (document, read) = read_leading(text, limits)?;
    (read <= limits.max_payload_bytes).then_some((LoggedPayload { document }, read))
}

/// Hands a payload read by [`read_logged`] or [`read_embedded`] to `then`, as [`with_payload`] does a decoded one.
#[inline]
pub(crate) fn with_logged_payload<R>(
    payload: &LoggedPayload<'_>,
    expect_object: bool,
    repairs: &mut Vec<Repair>,
    then: impl FnOnce(&Node<'_>, &mut Vec<Repair>) -> R,
) -> Result<R, ArgumentError> {
    finish(payload.document.root(), expect_object, repairs, then)
}

#[inline]
fn with_text<R>(
    text: &str,
    limits: &Limits,
    expect_object: bool,
    repairs: &mut Vec<Repair>,
    then: impl FnOnce(&Node<'_>, &mut Vec<Repair>) -> R,
) -> Result<R, ArgumentError> {
    check_size(limits, text.len())?;
    if expect_object && envelope::is_blank(text) {
        return no_arguments(Value::String(text.to_owned()), repairs, then);
    }
    let body = envelope::unfenced(text, repairs);
    let document = read_text(body, limits)?;
    let Node::String(inner_text) = document.root() else {
        return finish(document.root(), expect_object, repairs, then);
    };
    if !expect_object {
        return finish(document.root(), expect_object, repairs, then);
    }
    let inner = envelope::unwrap_double_encoded(document.root(), inner_text, limits, repairs)?;
    Ok(then(inner.root(), repairs))
}

/// Hands the decoded root to `then`, once it is an object when one is expected.
#[inline]
fn finish<R>(
    node: &Node<'_>,
    expect_object: bool,
    repairs: &mut Vec<Repair>,
    then: impl FnOnce(&Node<'_>, &mut Vec<Repair>) -> R,
) -> Result<R, ArgumentError> {
    if expect_object && envelope::is_null(node) {
        return no_arguments(Value::Null, repairs, then);
    }
    if expect_object && !matches!(node, Node::Object(_)) {
        return Err(envelope::not_object(node));
    }
    Ok(then(node, repairs))
}

/// No arguments (`before`): `then` reads the object the envelope's policy reads instead.
#[cold]
fn no_arguments<R>(
    before: Value,
    repairs: &mut Vec<Repair>,
    then: impl FnOnce(&Node<'_>, &mut Vec<Repair>) -> R,
) -> Result<R, ArgumentError> {
    let empty = envelope::no_arguments(before, repairs);
    Ok(then(&empty, repairs))
}

#[inline]
fn check_size(limits: &Limits, len: usize) -> Result<(), ArgumentError> {
    if len > limits.max_payload_bytes {
        return Err(too_large(limits, len));
    }
    Ok(())
}

/// The rejection of a payload that could not be decoded, as `options` say errors are written.
pub(crate) fn decoding_rejection(mut error: ArgumentError, options: &ParseOptions) -> Rejection {
    if options.omit_messages {
        error.message.clear();
    }
    Rejection::single(error)
}

/// The error of a payload of `len` bytes, past `max_payload_bytes`.
#[cold]
pub(crate) fn too_large(limits: &Limits, len: usize) -> ArgumentError {
    root_error(
        Code::TooLarge,
        format!(
            "the payload is {len} bytes, more than the limit of {} bytes; send less",
            limits.max_payload_bytes
        ),
    )
}

fn invalid_utf8(err: &std::str::Utf8Error) -> ArgumentError {
    root_error(
        Code::InvalidJson,
        format!(
            "the payload is not valid UTF-8 (bad byte at offset {})",
            err.valid_up_to()
        ),
    )
}

fn root_error(code: Code, message: String) -> ArgumentError {
    ArgumentError {
        path: Path::ROOT.render(),
        code,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::read_embedded;
    use crate::options::Limits;

    #[test]
    fn an_embedded_object_is_read_within_the_payload_limit_only() {
        let limits = Limits {
            max_payload_bytes: 8,
            ..Limits::DEFAULT
        };
        let (_, read) = read_embedded(r#"{"n": 1}, "id": 7}"#, &limits).expect("8 bytes");
        assert_eq!(read, 8);
        assert!(read_embedded(r#"{"n": 12}, "id": 7}"#, &limits).is_none());
        // Only an object, and only a valid one, is read.
        for text in [r#"[1]"#, r#""{}""#, r#"{"n": 1"#, r#"{"n": 01}"#, r#" {}"#] {
            assert!(read_embedded(text, &Limits::DEFAULT).is_none(), "{text}");
        }
    }
}
