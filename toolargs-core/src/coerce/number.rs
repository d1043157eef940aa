//! Numbers (`f64`, `f32`): an integer is already a number (no repair); `"19.99"` is repaired;
//! strings with exponents, separators or spaces are rejected. A JSON number no reader keeps
//! exactly (an integer beyond 64 bits, a literal beyond the range of a double) is
//! `lossy_number`, as in a value passed through (`serde_json::Value`).

use serde_json::{json, Value};

use super::any::lossy_number;
use super::{put, type_error, ArgType, Capabilities};
use crate::cx::Cx;
use crate::node::described;
use crate::node::{Node, Number};
use crate::path::Path;
use crate::report::{Code, Rule};
use crate::spec::FieldSpec;

/// Where a number field's value comes from: a JSON number, taken as it is, or a plain decimal
/// string, taken with the `numeric_string_to_number` repair.
pub(crate) enum NumberSource<'n, 'a> {
    /// A JSON number.
    Number(&'n Number<'a>),
    /// A string that is a plain decimal (`"19.99"`).
    DecimalString(&'n str),
}

/// Reads where a number comes from; anything else is recorded as `ambiguous_number` (other
/// strings) or `type`. Shared by every number type, so the string rule lives here once.
pub(crate) fn number_source<'n, 'a>(
    node: &'n Node<'a>,
    path: &Path<'_>,
    cx: &mut Cx,
) -> Option<NumberSource<'n, 'a>> {
    match node {
        Node::Number(n) => Some(NumberSource::Number(n)),
        Node::String(s) if is_plain_decimal(s) => Some(NumberSource::DecimalString(s)),
        Node::String(_) => {
            cx.error_with(path, Code::AmbiguousNumber, || {
                described(
                    &["expected a number, got "],
                    node,
                    ", which is not a plain decimal; send a JSON number such as 19.99",
                )
            });
            None
        }
        other => {
            type_error(cx, path, "a number", other);
            None
        }
    }
}

/// Records `out_of_range` for a number outside the field's bounds (or, with no bounds, beyond
/// `type_max` in magnitude).
pub(crate) fn range_error(
    node: &Node<'_>,
    spec: &FieldSpec<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
    type_max: f64,
) {
    let expected = match (spec.min, spec.max) {
        (Some(min), Some(max)) => format!("a number from {min} to {max}"),
        (Some(min), None) => format!("a number of at least {min}"),
        (None, Some(max)) => format!("a number of at most {max}"),
        (None, None) => format!("a number no larger than {type_max:e} in magnitude"),
    };
    cx.error_with(path, Code::OutOfRange, || {
        described(&["expected ", &expected, ", got "], node, "")
    });
}

/// Reads a finite number within the field's bounds and `type_max` in magnitude.
pub fn coerce_number(
    node: &Node<'_>,
    spec: &FieldSpec<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
    type_max: f64,
) -> Option<f64> {
    let (value, repaired, lossy) = match number_source(node, path, cx)? {
        // A number a loaded schema would refuse too, since it passes numbers on exactly: an
        // integer literal beyond 64 bits, or a literal beyond the range of a double, would
        // arrive as another number.
        NumberSource::Number(n) => {
            let value = n.as_f64();
            let integer = matches!(n, Number::Literal(text) if !text.contains(['.', 'e', 'E']));
            (
                value,
                false,
                !value.is_finite() || (integer && !n.is_exact()),
            )
        }
        NumberSource::DecimalString(s) => (s.parse::<f64>().unwrap_or(f64::NAN), true, false),
    };
    let below = spec.min.is_some_and(|m| value < m.as_f64());
    let above = spec.max.is_some_and(|m| value > m.as_f64());
    // The type's own range, which the schema states when narrower than a double's; a lossy
    // number past a double's has that error alone, as in the schema.
    let beyond = value.abs() > type_max && (type_max < f64::MAX || !lossy);
    let out_of_range = below || above || beyond || (value.is_nan() && !lossy);
    if out_of_range {
        range_error(node, spec, path, cx, type_max);
    }
    if lossy {
        lossy_number(node, path, cx);
    }
    if out_of_range || lossy {
        return None;
    }
    if repaired
        && !cx.repair(
            path,
            spec.strict,
            Rule::NumericStringToNumber,
            node.to_value(),
            Value::from(value),
        )
    {
        return None;
    }
    Some(value)
}

/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?` in ASCII: a decimal with exactly one reading.
pub(crate) fn is_plain_decimal(s: &str) -> bool {
    let body = s.strip_prefix('-').unwrap_or(s);
    let (int_part, frac_part) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    let int_ok = match int_part.as_bytes() {
        [] => false,
        [b'0'] => true,
        [b'0', ..] => false,
        digits => digits.iter().all(u8::is_ascii_digit),
    };
    let frac_ok = frac_part.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    int_ok && frac_ok
}

/// The JSON Schema of a number field; the type's range is stated when narrower than `f64`'s,
/// as for integers.
pub(crate) fn number_schema(spec: &FieldSpec<'_>, type_max: f64) -> Value {
    let narrow = type_max < f64::MAX;
    let low = match spec.min {
        Some(min) if !narrow || min.as_f64() > -type_max => Some(min.to_value()),
        _ => narrow.then(|| Value::from(-type_max)),
    };
    let high = match spec.max {
        Some(max) if !narrow || max.as_f64() < type_max => Some(max.to_value()),
        _ => narrow.then(|| Value::from(type_max)),
    };
    let mut schema = json!({"type": "number"});
    put(&mut schema, "minimum", low);
    put(&mut schema, "maximum", high);
    schema
}

impl ArgType for f64 {
    const HONOURS: Capabilities = Capabilities::NONE.with_bounds(true);
    fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        coerce_number(node, spec, path, cx, f64::MAX)
    }

    fn canonical(&self) -> Value {
        Value::from(*self)
    }

    fn schema(spec: &FieldSpec<'_>) -> Value {
        number_schema(spec, f64::MAX)
    }
}

impl ArgType for f32 {
    const HONOURS: Capabilities = Capabilities::NONE.with_bounds(true);
    fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        coerce_number(node, spec, path, cx, f64::from(f32::MAX)).map(|v| v as f32)
    }

    fn canonical(&self) -> Value {
        // Through the shortest decimal of the f32, so 0.1f32 is written 0.1, not 0.10000000149.
        self.to_string()
            .parse::<f64>()
            .map_or(Value::Null, Value::from)
    }

    fn schema(spec: &FieldSpec<'_>) -> Value {
        number_schema(spec, f64::from(f32::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::is_plain_decimal;

    #[test]
    fn plain_decimals_have_one_shape() {
        for ok in ["0", "19.99", "-0.5", "1999", "0.0"] {
            assert!(is_plain_decimal(ok), "{ok}");
        }
        for bad in [
            "", ".5", "5.", "1e3", "1,999.00", " 1.5", "01.5", "+1.5", "1.2.3", "NaN", "Infinity",
            "1_0",
        ] {
            assert!(!is_plain_decimal(bad), "{bad}");
        }
    }
}
