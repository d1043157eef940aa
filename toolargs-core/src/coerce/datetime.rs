//! Date-times: RFC 3339 with an explicit offset (`Z` or `±HH:MM`). Without an offset the instant
//! depends on a time zone the model did not state, so it is rejected (`ambiguous_datetime`).
//! Converting an explicit offset to UTC keeps the instant, so it is not a repair.

use chrono::{DateTime, Datelike, FixedOffset, SecondsFormat, Timelike, Utc};
use serde_json::{json, Value};

use super::date::split_date;
use super::{type_error, ArgType, Capabilities};
use crate::cx::Cx;
use crate::node::described;
use crate::node::Node;
use crate::path::Path;
use crate::report::Code;
use crate::spec::FieldSpec;

/// How a string reads as an RFC 3339 date-time.
enum Shape {
    /// `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`
    WithOffset,
    /// The same without an offset: the zone is unknown.
    NoOffset,
    /// Anything else.
    Other,
}

fn shape(s: &str) -> Shape {
    let b = s.as_bytes();
    let two_digits = |at: usize| {
        b.get(at..at + 2)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let date_ok = s.get(..10).and_then(split_date).is_some();
    let time_ok = matches!(b.get(10), Some(b'T' | b't'))
        && two_digits(11)
        && b.get(13) == Some(&b':')
        && two_digits(14)
        && b.get(16) == Some(&b':')
        && two_digits(17);
    if !date_ok || !time_ok {
        return Shape::Other;
    }
    let mut at = 19;
    if b.get(at) == Some(&b'.') {
        at += 1;
        let start = at;
        while b.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        if at == start {
            return Shape::Other;
        }
    }
    match &b[at..] {
        [] => Shape::NoOffset,
        [b'Z' | b'z'] => Shape::WithOffset,
        [b'+' | b'-', rest @ ..]
            if rest.len() == 5 && two_digits(at + 1) && rest[2] == b':' && two_digits(at + 4) =>
        {
            Shape::WithOffset
        }
        _ => Shape::Other,
    }
}

/// Reads an RFC 3339 date-time with an explicit offset.
pub fn coerce_datetime(
    node: &Node<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
) -> Option<DateTime<FixedOffset>> {
    let Node::String(s) = node else {
        type_error(cx, path, "an RFC 3339 date-time string", node);
        return None;
    };
    match shape(s) {
        Shape::WithOffset => match DateTime::parse_from_rfc3339(s) {
            Ok(value) if is_real_second(&value) => Some(value),
            _ => {
                cx.error_with(path, Code::InvalidDatetime, || {
                    described(&["expected a date-time that exists, got "], node, "")
                });
                None
            }
        },
        Shape::NoOffset => {
            cx.error(
                path,
                Code::AmbiguousDatetime,
                described(&["expected an RFC 3339 date-time with an explicit offset such as Z or +02:00, got "], node, ", which has none"),
            );
            None
        }
        Shape::Other => {
            cx.error_with(path, Code::AmbiguousDatetime, || {
                described(
                    &["expected an RFC 3339 date-time such as 2026-03-04T10:00:00Z, got "],
                    node,
                    "",
                )
            });
            None
        }
    }
}

/// A leap second (`:60`) exists only at the end of a UTC day, as RFC 3339 and JSON Schema's
/// `date-time` have it; chrono accepts one at the end of any minute.
fn is_real_second(value: &DateTime<FixedOffset>) -> bool {
    let utc = value.naive_utc().time();
    utc.nanosecond() < 1_000_000_000 || (utc.hour(), utc.minute()) == (23, 59)
}

fn datetime_schema() -> Value {
    json!({"type": "string", "format": "date-time"})
}

impl ArgType for DateTime<FixedOffset> {
    const HONOURS: Capabilities = Capabilities::NONE.with_scalar_to_list(true);

    fn coerce(
        node: &Node<'_>,
        _spec: &FieldSpec<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Self> {
        coerce_datetime(node, path, cx)
    }

    fn canonical(&self) -> Value {
        Value::String(self.to_rfc3339_opts(SecondsFormat::AutoSi, true))
    }

    fn schema(_spec: &FieldSpec<'_>) -> Value {
        datetime_schema()
    }
}

impl ArgType for DateTime<Utc> {
    const HONOURS: Capabilities = Capabilities::NONE.with_scalar_to_list(true);

    fn coerce(
        node: &Node<'_>,
        _spec: &FieldSpec<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Self> {
        let value = coerce_datetime(node, path, cx)?.with_timezone(&Utc);
        // In UTC, `0000-01-01T00:30:00+01:00` falls in year -1, which RFC 3339 cannot write:
        // the canonical form would not read back.
        if !(0..=9999).contains(&value.year()) {
            cx.error_with(path, Code::InvalidDatetime, || {
                described(
                    &["expected a date-time within the years 0000 to 9999 in UTC, got "],
                    node,
                    "",
                )
            });
            return None;
        }
        Some(value)
    }

    fn canonical(&self) -> Value {
        Value::String(self.to_rfc3339_opts(SecondsFormat::AutoSi, true))
    }

    fn schema(_spec: &FieldSpec<'_>) -> Value {
        datetime_schema()
    }
}
