//! `allOf`, `anyOf`, `oneOf`, `not`, and `if` with `then` and `else`: schemas applied to the
//! same value.

use super::{Draft, Keyword};
use crate::load::{LoadError, Loader};
use crate::shape::Rules;

impl Loader<'_, '_> {
    /// Reads `keyword` when it is of this family; `false` when it is not.
    pub(super) fn composition_keyword(
        &mut self,
        keyword: &Keyword<'_, '_, '_>,
        rules: &mut Rules,
        draft: &mut Draft<'_, '_>,
    ) -> Result<bool, LoadError> {
        let (key, value, here, base) = keyword.parts();
        match key {
            "allOf" => rules.all_of = self.schema_list(value, here, base, key)?,
            "anyOf" => rules.any_of = self.schema_list(value, here, base, key)?,
            "oneOf" => rules.one_of = self.schema_list(value, here, base, key)?,
            "not" => rules.not = Some(self.compile(value, here, base)?),
            "if" => draft.condition.0 = Some(self.compile(value, here, base)?),
            "then" => draft.condition.1 = Some(self.compile(value, here, base)?),
            "else" => draft.condition.2 = Some(self.compile(value, here, base)?),
            _ => return Ok(false),
        }
        Ok(true)
    }
}
