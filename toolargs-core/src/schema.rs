//! What the dialects and the providers both ask of a JSON Schema, below both: whether a part
//! of it is open ([`has_open_parts`]), and one keyword a provider is not shown as written
//! ([`Change`]). [`dialect`](crate::dialect) re-exports both; the providers' modules use them
//! without depending on the dialects.

use serde_json::{Map, Value};

/// One keyword of the full schema that a dialect does not show as written.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Change {
    /// The JSON pointer of the schema that holds the keyword, in the full schema (`""` for
    /// the root, `/properties/amount`).
    pub path: String,
    /// The keyword (`minLength`, `oneOf`, `$ref`), or `strict` for the definition's strict
    /// flag.
    pub keyword: String,
    /// What the provider is shown instead, in words.
    pub instead: String,
    /// True when the keyword is a constraint the gate still enforces; false for an
    /// annotation (`title`, `examples`, a `format` the gate does not assert), which no one
    /// enforces.
    pub enforced: bool,
    /// True when the provider is told the same thing another way, so nothing is lost (an
    /// `allOf` merged, a `const` as a one-value `enum`, a reference written out, strict
    /// mode's `null` for an absent property); false when it is told less.
    pub exact: bool,
}

/// True when some part of `schema` is open, which OpenAI's strict mode cannot express: an
/// object that takes keys it does not declare (a map's `additionalProperties` schema), or a
/// value of any type (a `serde_json::Value` field, schema `{}`).
pub fn has_open_parts(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    let typed = [
        "type",
        "enum",
        "const",
        "properties",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
    ]
    .iter()
    .any(|key| map.contains_key(*key));
    !typed || has_open_members(map)
}

/// True when a member of a schema is open or holds an open part.
fn has_open_members(map: &Map<String, Value>) -> bool {
    let any_branch = |value: &Value, open: &dyn Fn(&Value) -> bool| {
        value
            .as_array()
            .is_some_and(|branches| branches.iter().any(open))
    };
    let any_member = |value: &Value| {
        value
            .as_object()
            .is_some_and(|members| members.values().any(has_open_parts))
    };
    map.iter().any(|(key, value)| match key.as_str() {
        "additionalProperties" => value.is_object() || value == &Value::Bool(true),
        "properties" | "$defs" | "definitions" => any_member(value),
        "items" => has_open_parts(value),
        "anyOf" | "oneOf" => any_branch(value, &has_open_parts),
        // A branch constrains what the other parts type: only its own open keys count.
        "allOf" => any_branch(value, &|b| {
            b.get("additionalProperties")
                .is_some_and(|v| v.is_object() || v == &Value::Bool(true))
        }),
        _ => false,
    })
}
