//! `minLength`, `maxLength`, `pattern` and `format`: what a string must be. A format the gate
//! does not check is an annotation, and says so.

use super::Keyword;
use crate::load::{LoadError, Loader};
use crate::shape::Rules;
use toolargs_core::coerce::format::Format;
use toolargs_core::node::Node;

impl Loader<'_, '_> {
    /// Reads `keyword` when it is of this family; `false` when it is not.
    pub(super) fn strings_keyword(
        &mut self,
        keyword: &Keyword<'_, '_, '_>,
        rules: &mut Rules,
    ) -> Result<bool, LoadError> {
        let (key, value, here) = (keyword.name, keyword.value, keyword.here.as_str());
        match key {
            "minLength" => rules.min_length = Some(self.count(value, here, key)?),
            "maxLength" => rules.max_length = Some(self.count(value, here, key)?),
            "pattern" => rules.pattern = Some(self.pattern(value, here)?),
            "format" => match value {
                Node::String(name) => match Format::named(name) {
                    Some(format) => rules.format = Some(format),
                    None => self.warn(
                        here,
                        format!(
                            "format `{name}` is an annotation here and is not checked (checked: {})",
                            Format::NAMES
                        ),
                    ),
                },
                _ => return Err(self.malformed(here, "`format` must be a string")),
            },
            _ => return Ok(false),
        }
        Ok(true)
    }
}
