//! `serde_json::Value`: any JSON value, passed unchanged. Nothing is checked and nothing is
//! repaired; the derive accepts such a field only when it says so (`#[arg(any)]`).

use serde_json::{json, Value};

use super::ArgType;
use crate::cx::Cx;
use crate::node::Node;
use crate::path::Path;
use crate::spec::FieldSpec;

impl ArgType for Value {
    fn coerce(node: &Node<'_>, _: &FieldSpec<'_>, _: &Path<'_>, _: &mut Cx) -> Option<Self> {
        Some(node.to_value())
    }

    fn canonical(&self) -> Value {
        self.clone()
    }

    /// The schema that accepts every value.
    fn schema(_: &FieldSpec<'_>) -> Value {
        json!({})
    }
}
