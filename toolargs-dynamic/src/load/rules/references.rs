//! `$ref`, an edge to the schema it points to; the dynamic references of draft 2019-09 and
//! 2020-12 are refused, since the gate would not resolve them as the specification does.

use super::Keyword;
use crate::load::{LoadError, LoadErrorKind, Loader};
use crate::shape::Rules;

impl Loader<'_, '_> {
    /// Reads `keyword` when it is of this family; `false` when it is not.
    pub(super) fn references_keyword(
        &mut self,
        keyword: &Keyword<'_, '_, '_>,
        rules: &mut Rules,
    ) -> Result<bool, LoadError> {
        let (key, here) = (keyword.name, keyword.here.as_str());
        match key {
            "$ref" => rules.reference = Some(self.reference(keyword.value, here, keyword.base)?),
            "$dynamicRef" | "$recursiveRef" => {
                return Err(self.error(
                    LoadErrorKind::UnsupportedKeyword,
                    here,
                    format!("`{key}` (dynamic scope) is not supported; use `$ref`"),
                ))
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
