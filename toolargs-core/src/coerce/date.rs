//! Calendar dates: only `YYYY-MM-DD`. `03/04/2026` has two readings and is rejected;
//! `2026-02-30` has the right shape but is not a day (`invalid_date`).

use chrono::{Datelike, NaiveDate};
use serde_json::{json, Value};

use super::{type_error, ArgType, Capabilities};
use crate::cx::Cx;
use crate::node::described;
use crate::node::Node;
use crate::path::Path;
use crate::report::Code;
use crate::spec::FieldSpec;

/// Parses `YYYY-MM-DD` (ASCII digits only) into year, month and day without judging validity.
pub(crate) fn split_date(s: &str) -> Option<(i32, u32, u32)> {
    let b = s.as_bytes();
    let digits = |range: std::ops::Range<usize>| -> Option<u32> {
        b.get(range)?.iter().try_fold(0u32, |acc, d| {
            d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0'))
        })
    };
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    Some((digits(0..4)? as i32, digits(5..7)?, digits(8..10)?))
}

impl ArgType for NaiveDate {
    const HONOURS: Capabilities = Capabilities::NONE.with_scalar_to_list(true);

    fn coerce(
        node: &Node<'_>,
        _spec: &FieldSpec<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Self> {
        let Node::String(s) = node else {
            type_error(cx, path, "a date string YYYY-MM-DD", node);
            return None;
        };
        let Some((year, month, day)) = split_date(s) else {
            cx.error_with(path, Code::AmbiguousDate, || {
                described(&["expected a date written YYYY-MM-DD, got "], node, "")
            });
            return None;
        };
        let date = NaiveDate::from_ymd_opt(year, month, day);
        if date.is_none() {
            cx.error_with(path, Code::InvalidDate, || {
                described(&["expected a real calendar date, got "], node, "")
            });
        }
        date
    }

    fn canonical(&self) -> Value {
        Value::String(format!(
            "{:04}-{:02}-{:02}",
            self.year(),
            self.month(),
            self.day()
        ))
    }

    fn schema(_spec: &FieldSpec<'_>) -> Value {
        json!({"type": "string", "format": "date"})
    }
}
