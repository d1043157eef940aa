//! UUIDs (feature `uuid`): the hyphenated form `8-4-4-4-12` of hexadecimal digits, in either
//! case, which is what JSON Schema's `format: uuid` means. The other forms the `uuid` crate
//! reads (32 bare digits, braces, a `urn:uuid:` prefix) are not in the schema the model was
//! shown, so they are a `format` error rather than a silent rewrite.

use serde_json::{json, Value};
use uuid::Uuid;

use super::{type_error, ArgType, Capabilities};
use crate::cx::Cx;
use crate::node::described;
use crate::node::Node;
use crate::path::Path;
use crate::report::Code;
use crate::spec::FieldSpec;

/// True for `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with ASCII hex digits.
fn is_hyphenated(s: &str) -> bool {
    s.len() == 36
        && s.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

impl ArgType for Uuid {
    const HONOURS: Capabilities = Capabilities::NONE.with_scalar_to_list(true);

    fn coerce(
        node: &Node<'_>,
        _spec: &FieldSpec<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Self> {
        let Node::String(s) = node else {
            type_error(cx, path, "a UUID string", node);
            return None;
        };
        match Uuid::try_parse(s) {
            Ok(uuid) if is_hyphenated(s) => Some(uuid),
            _ => {
                cx.error_with(path, Code::InvalidUuid, || {
                    described(
                        &[
                            "expected a UUID written 8-4-4-4-12 hexadecimal digits, such as \
                         123e4567-e89b-12d3-a456-426614174000, got ",
                        ],
                        node,
                        "",
                    )
                });
                None
            }
        }
    }

    /// Lower case, hyphenated.
    fn canonical(&self) -> Value {
        Value::String(self.hyphenated().to_string())
    }

    fn schema(_spec: &FieldSpec<'_>) -> Value {
        json!({"type": "string", "format": "uuid"})
    }
}

#[cfg(test)]
mod tests {
    use super::is_hyphenated;

    #[test]
    fn only_the_hyphenated_form_is_a_uuid_here() {
        assert!(is_hyphenated("123e4567-e89b-12d3-a456-426614174000"));
        assert!(is_hyphenated("123E4567-E89B-12D3-A456-426614174000"));
        assert!(!is_hyphenated("123e4567e89b12d3a456426614174000"));
        assert!(!is_hyphenated("{123e4567-e89b-12d3-a456-426614174000}"));
        assert!(!is_hyphenated("123e4567-e89b-12d3-a456-42661417400g"));
        assert!(!is_hyphenated("123e4567-e89b-12d3-a456-4266141740000"));
    }
}
