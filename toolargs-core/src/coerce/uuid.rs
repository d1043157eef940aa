//! UUIDs (feature `uuid`): the hyphenated form `8-4-4-4-12` of hexadecimal digits, in either
//! case, which is what JSON Schema's `format: uuid` means. The other forms the `uuid` crate
//! reads (32 bare digits, braces, a `urn:uuid:` prefix) are not in the schema the model was
//! shown, so they are a `format` error rather than a silent rewrite. The string is judged by
//! [`Format::check`], as a loaded schema's `format: uuid` is.

use serde_json::{json, Value};
use uuid::Uuid;

use super::format::Format;
use super::{type_error, ArgType, Capabilities};
use crate::cx::Cx;
use crate::node::Node;
use crate::path::Path;
use crate::spec::FieldSpec;

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
        // The format check has refused every string the parser would.
        if !Format::Uuid.check(s, node, path, cx) {
            return None;
        }
        Uuid::try_parse(s).ok()
    }

    /// Lower case, hyphenated.
    fn canonical(&self) -> Value {
        Value::String(self.hyphenated().to_string())
    }

    fn schema(_spec: &FieldSpec<'_>) -> Value {
        json!({"type": "string", "format": "uuid"})
    }
}
