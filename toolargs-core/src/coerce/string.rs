//! Strings: never repaired. Length is counted in characters; a pattern must match the whole string.

use serde_json::{json, Value};

use super::{put, type_error, ArgType, Capabilities};
use crate::cx::Cx;
use crate::node::described;
use crate::node::Node;
use crate::path::Path;
use crate::report::Code;
use crate::spec::FieldSpec;

impl ArgType for String {
    const HONOURS: Capabilities = Capabilities::NONE
        .with_scalar_to_list(true)
        .with_pattern(true)
        .with_length(true);

    fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        let Node::String(s) = node else {
            type_error(cx, path, "a string", node);
            return None;
        };
        check_string(s, spec, path, cx).then(|| s.as_ref().to_owned())
    }

    fn canonical(&self) -> Value {
        Value::String(self.clone())
    }

    fn schema(spec: &FieldSpec<'_>) -> Value {
        let mut schema = json!({"type": "string"});
        put(&mut schema, "minLength", spec.min_len.map(Value::from));
        put(&mut schema, "maxLength", spec.max_len.map(Value::from));
        put(
            &mut schema,
            "pattern",
            spec.pattern.map(|p| Value::from(p.schema_source())),
        );
        schema
    }
}

/// Checks length bounds (in characters) and then the pattern; records at most one error.
pub fn check_string(s: &str, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> bool {
    if spec.min_len.is_some() || spec.max_len.is_some() {
        // Count no further than needed: a 10 MB string against `max_len = 64` stops early.
        let limit = spec.max_len.map_or(usize::MAX, |m| m.saturating_add(1));
        let chars = s.chars().take(limit).count();
        let too_short = spec.min_len.is_some_and(|min| chars < min);
        let too_long = spec.max_len.is_some_and(|max| chars > max);
        if too_short || too_long {
            cx.error_with(path, Code::Length, || {
                let expected = match (spec.min_len, spec.max_len) {
                    (Some(min), Some(max)) => format!("from {min} to {max} characters"),
                    (Some(min), None) => format!("at least {min} characters"),
                    (None, Some(max)) => format!("at most {max} characters"),
                    (None, None) => "any number of characters".to_owned(),
                };
                let got = if too_long {
                    format!("more than {}", chars - 1)
                } else {
                    chars.to_string()
                };
                format!("expected a string of {expected}, got {got} characters")
            });
            return false;
        }
    }
    if let Some(pattern) = spec.pattern {
        if !pattern.is_match(s) {
            let how = if pattern.is_whole() {
                "matching the whole pattern"
            } else {
                "containing a match for"
            };
            cx.error_with(path, Code::Pattern, || {
                described(
                    &[
                        "expected a string ",
                        how,
                        " ",
                        pattern.schema_source(),
                        ", got ",
                    ],
                    &Node::String(s.into()),
                    "",
                )
            });
            return false;
        }
    }
    true
}
