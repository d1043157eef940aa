//! `type` (with OpenAPI 3.0's `nullable`), `enum` and `const`: which values a schema allows by
//! kind and by value.

use serde_json::Value;

use super::{Draft, Keyword};
use crate::load::{LoadError, Loader};
use crate::shape::{Rules, Types};
use toolargs_core::coerce::enumeration::casefold_allowed;
use toolargs_core::node::Node;

impl Loader<'_, '_> {
    /// Reads `keyword` when it is of this family; `false` when it is not.
    pub(super) fn types_keyword(
        &mut self,
        keyword: &Keyword<'_, '_, '_>,
        rules: &mut Rules,
        draft: &mut Draft<'_, '_>,
    ) -> Result<bool, LoadError> {
        let (value, here) = (keyword.value, keyword.here.as_str());
        match keyword.name {
            "type" => rules.types = Some(self.types(value, here)?),
            "nullable" => {
                draft.nullable = matches!(value, Node::Bool(true));
                if draft.nullable {
                    // Not a JSON Schema keyword: say that it was honoured, and how.
                    self.warn(
                        here,
                        "`nullable` is not JSON Schema; it is read as OpenAPI 3.0 defines it: null is allowed besides the `type`",
                    );
                }
            }
            "enum" => match value {
                Node::Array(values) => {
                    rules.allowed = Some(values.iter().map(Node::to_value).collect());
                }
                _ => return Err(self.malformed(here, "`enum` must be an array")),
            },
            "const" => rules.constant = Some(value.to_value()),
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn types(&self, node: &Node<'_>, pointer: &str) -> Result<Types, LoadError> {
        let one = |name: &str| {
            Types::named(name)
                .ok_or_else(|| self.malformed(pointer, format!("unknown type `{name}`")))
        };
        match node {
            Node::String(name) => one(name),
            Node::Array(names) => names.iter().try_fold(Types::NONE, |set, name| match name {
                Node::String(name) => Ok(set.with(one(name)?)),
                _ => Err(self.malformed(pointer, "`type` entries must be strings")),
            }),
            _ => Err(self.malformed(pointer, "`type` must be a string or an array of strings")),
        }
    }

    /// Whether the `enum`'s strings allow a case repair is the enum coercer's call; the loader
    /// keeps the answer and says when it is no.
    pub(super) fn enum_case(&mut self, rules: &mut Rules, pointer: &str) {
        let Some(values) = &rules.allowed else {
            return;
        };
        if !casefold_allowed(values.iter().filter_map(Value::as_str)) {
            rules.casefold = false;
            self.warn(
                &format!("{pointer}/enum"),
                "two values differ only in ASCII case, so a value in the wrong case is not repaired",
            );
        }
    }
}
