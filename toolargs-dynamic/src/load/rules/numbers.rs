//! `minimum`, `maximum`, their exclusive forms (numbers, or draft-04's booleans beside the
//! bound) and `multipleOf`: the bounds of a number, read as exact decimals.

use super::{Draft, Keyword};
use crate::exact::Decimal;
use crate::load::{LoadError, LoadErrorKind, Loader};
use crate::shape::{Limit, Rules};
use toolargs_core::node::Node;

impl Loader<'_, '_> {
    /// Reads `keyword` when it is of this family; `false` when it is not.
    pub(super) fn numbers_keyword(
        &mut self,
        keyword: &Keyword<'_, '_, '_>,
        rules: &mut Rules,
        draft: &mut Draft<'_, '_>,
    ) -> Result<bool, LoadError> {
        let (key, value, here) = (keyword.name, keyword.value, keyword.here.as_str());
        match key {
            "minimum" | "exclusiveMinimum" | "maximum" | "exclusiveMaximum" => {
                let exclusive = key.starts_with("exclusive");
                let upper = key.ends_with("aximum");
                if let Node::Bool(flag) = value {
                    if !exclusive {
                        return Err(self.malformed(here, format!("`{key}` must be a number")));
                    }
                    *(if upper {
                        &mut draft.exclusive_max
                    } else {
                        &mut draft.exclusive_min
                    }) = *flag;
                    return Ok(true);
                }
                let value = self.number(value, here, key)?;
                let limit = Limit {
                    integer: value.to_i128(),
                    float: value.to_short_f64(),
                    value,
                    exclusive,
                };
                let slot = if upper {
                    &mut rules.maximum
                } else {
                    &mut rules.minimum
                };
                *slot = Some(tighter(slot.take(), limit, upper));
            }
            "multipleOf" => {
                let divisor = self.number(value, here, key)?;
                if divisor <= Decimal::parse("0").unwrap_or(divisor.clone()) {
                    return Err(self.malformed(here, "`multipleOf` must be greater than 0"));
                }
                if divisor.is_multiple_of(&divisor).is_none() {
                    return Err(self.error(LoadErrorKind::UnsupportedKeyword, here, "`multipleOf` with more than 18 significant digits cannot be checked exactly"));
                }
                rules.multiple_of = Some(divisor);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn number(&self, node: &Node<'_>, pointer: &str, keyword: &str) -> Result<Decimal, LoadError> {
        let text = match node {
            Node::Number(n) => n.to_value().to_string(),
            _ => String::new(),
        };
        let literal = match node {
            Node::Number(toolargs_core::node::Number::Literal(text)) => Some(*text),
            _ => None,
        };
        literal
            .and_then(Decimal::parse)
            .or_else(|| Decimal::parse(&text))
            .ok_or_else(|| self.malformed(pointer, format!("`{keyword}` must be a number")))
    }
}

/// The tighter of two bounds on the same side; on a tie the exclusive one.
fn tighter(old: Option<Limit>, new: Limit, upper: bool) -> Limit {
    match old {
        None => new,
        Some(old) => {
            let order = new.value.cmp(&old.value);
            let new_wins = match order {
                std::cmp::Ordering::Equal => new.exclusive,
                std::cmp::Ordering::Less => upper,
                std::cmp::Ordering::Greater => !upper,
            };
            if new_wins {
                new
            } else {
                old
            }
        }
    }
}
