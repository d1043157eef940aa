//! Booleans: `"true"`/`"false"` in any ASCII case are repaired; `"yes"`, `1` and the rest are not,
//! because each has more than one reading (and often triggers a side effect).

use serde_json::{json, Value};

use super::{type_error, ArgType};
use crate::cx::Cx;
use crate::node::described;
use crate::node::Node;
use crate::path::Path;
use crate::report::{Code, Rule};
use crate::spec::FieldSpec;

impl ArgType for bool {
    fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        match node {
            Node::Bool(b) => Some(*b),
            Node::String(s) => {
                let value = if s.eq_ignore_ascii_case("true") {
                    true
                } else if s.eq_ignore_ascii_case("false") {
                    false
                } else {
                    cx.error_with(path, Code::AmbiguousBoolean, || {
                        described(&["expected a boolean (true or false), got "], node, "")
                    });
                    return None;
                };
                cx.repair(
                    path,
                    spec.strict,
                    Rule::StringToBool,
                    node.to_value(),
                    Value::Bool(value),
                )
                .then_some(value)
            }
            other => {
                type_error(cx, path, "a boolean (true or false)", other);
                None
            }
        }
    }

    fn canonical(&self) -> Value {
        Value::Bool(*self)
    }

    fn schema(_spec: &FieldSpec<'_>) -> Value {
        json!({"type": "boolean"})
    }
}
