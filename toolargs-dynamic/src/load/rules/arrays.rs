//! The keywords of arrays: `items` (draft-07's tuple form too, with its `additionalItems`),
//! `prefixItems`, `contains` with its counts, `minItems`, `maxItems`, `uniqueItems` and
//! `unevaluatedItems`.

use super::{Draft, Keyword};
use crate::load::{LoadError, Loader};
use crate::shape::Rules;
use toolargs_core::node::Node;

impl Loader<'_, '_> {
    /// Reads `keyword` when it is of this family; `false` when it is not.
    pub(super) fn arrays_keyword<'n, 'a>(
        &mut self,
        keyword: &Keyword<'_, 'n, 'a>,
        rules: &mut Rules,
        draft: &mut Draft<'n, 'a>,
    ) -> Result<bool, LoadError> {
        let (key, value, here, base) = keyword.parts();
        match key {
            "items" => match value {
                // Draft-07's tuple form: the items by position.
                Node::Array(_) => {
                    rules.prefix_items = self.schema_list(value, here, base, key)?;
                }
                _ => rules.items = Some(self.compile(value, here, base)?),
            },
            "additionalItems" => draft.additional_items = Some((value, keyword.here.clone())),
            "prefixItems" => rules.prefix_items = self.schema_list(value, here, base, key)?,
            "contains" => rules.contains = Some(self.compile(value, here, base)?),
            "minContains" => rules.min_contains = Some(self.count(value, here, key)?),
            "maxContains" => rules.max_contains = Some(self.count(value, here, key)?),
            "minItems" => rules.min_items = Some(self.count(value, here, key)?),
            "maxItems" => rules.max_items = Some(self.count(value, here, key)?),
            "uniqueItems" => match value {
                Node::Bool(b) => rules.unique_items = *b,
                _ => return Err(self.malformed(here, "`uniqueItems` must be a boolean")),
            },
            "unevaluatedItems" => rules.unevaluated_items = Some(self.compile(value, here, base)?),
            _ => return Ok(false),
        }
        Ok(true)
    }
}
