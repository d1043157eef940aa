//! Semantic declarations (`semantic`, `currency`, `unit`, `family`, `entity`, `critical`):
//! the kind exists, its keys belong to it, the field's type can hold it, and the currency or
//! unit it names is a sibling field or a fixed value.

use proc_macro2::Span;
use syn::LitStr;

use crate::ast;
use crate::ctxt::Ctxt;
use crate::hint::did_you_mean;
use crate::model::{BuiltinFamily, Family, Semantic, SemanticAttr, Source};
use crate::ty::{self, Kind};
use crate::vocabulary::{self, FAMILIES, SEMANTIC_KINDS};

/// What a `currency = "..."` or `unit = "..."` may name besides a sibling field.
#[derive(Clone, Copy)]
enum Fixed {
    /// An ISO 4217 code.
    Currency,
    /// A unit of a built-in family.
    Unit(BuiltinFamily),
    /// Anything: a unit of a family given at run time, checked when the gate runs.
    Any,
}

/// What a `currency = "..."` or `unit = "..."` names.
enum Named<'f> {
    Field(&'f ast::Field<'f>),
    Fixed,
    /// Both a field and a fixed value: the declaration cannot say which.
    Both(&'f ast::Field<'f>),
    Neither,
}

/// `#[arg(semantic = ..., currency = ..., unit = ..., critical)]`: the kind exists, its keys
/// belong to it, its field's type can hold it, and the currency or unit it names exists.
/// `Some(None)` for a field without a kind; `None` after an error.
pub(super) fn check_semantic(
    cx: &Ctxt,
    c: &ast::Container,
    fields: &[ast::Field],
    f: &ast::Field,
) -> Option<Option<Semantic>> {
    let a = &f.attrs;
    let field = &f.json_name.value;
    // The steps report in this order, which is the order the errors are shown in.
    let kind = semantic_kind(cx, f)?;
    let family = match kind {
        Some(SemanticAttr::Family(builtin)) => Some(Family::Builtin(builtin)),
        Some(SemanticAttr::Quantity) => a.family.as_ref().map(|lit| {
            let name = lit.value();
            FAMILIES
                .get(&name)
                .map_or(Family::Custom(name), Family::Builtin)
        }),
        _ => None,
    };
    let quantity = matches!(kind, Some(SemanticAttr::Family(_) | SemanticAttr::Quantity));
    let misplaced = misplaced_keys(cx, f, kind, quantity);
    let (Some(kind), Some(semantic)) = (kind, &a.semantic) else {
        return (!misplaced).then_some(None);
    };
    required_keys(cx, f, semantic.span, kind, quantity);
    let mut valid = !misplaced;
    valid &= names_given(cx, f);
    valid &= check_semantic_type(cx, f, semantic.span, kind);
    let fixed_unit = match &family {
        Some(Family::Builtin(builtin)) => Fixed::Unit(*builtin),
        _ => Fixed::Any,
    };
    let currency = a
        .currency
        .as_ref()
        .map(|lit| check_source(cx, c, fields, f, lit, "currency", Fixed::Currency));
    let unit = a
        .unit
        .as_ref()
        .map(|lit| check_source(cx, c, fields, f, lit, "unit", fixed_unit));
    let semantic = match kind {
        SemanticAttr::Money => Semantic::Money {
            currency: currency??,
            minor_units: a.minor_units.is_some(),
        },
        SemanticAttr::Date => Semantic::Date,
        SemanticAttr::DateTime => Semantic::DateTime,
        SemanticAttr::Entity => Semantic::Entity {
            kind: a
                .entity
                .as_ref()
                .map_or_else(|| field.clone(), LitStr::value),
        },
        SemanticAttr::Quantity | SemanticAttr::Family(_) => Semantic::Quantity {
            family: family?,
            unit: unit??,
        },
    };
    valid.then_some(Some(semantic))
}

/// The kind `semantic = "..."` names: `Some(None)` without the key, `None` after an error.
fn semantic_kind(cx: &Ctxt, f: &ast::Field) -> Option<Option<SemanticAttr>> {
    let Some(semantic) = &f.attrs.semantic else {
        return Some(None);
    };
    match SEMANTIC_KINDS.get(&semantic.value) {
        Some(kind) => Some(Some(kind)),
        None => {
            let hint = did_you_mean(&semantic.value, SEMANTIC_KINDS.names())
                .map(|k| format!("did you mean \"{k}\"? "))
                .unwrap_or_default();
            cx.error_at(
                semantic.span,
                format!(
                    "semantic = \"{}\" is not a kind; {hint}write one of {}",
                    semantic.value,
                    SEMANTIC_KINDS.list()
                ),
            );
            None
        }
    }
}

/// The keys that belong to a kind the field does not declare, each reported. True when
/// there was one.
fn misplaced_keys(cx: &Ctxt, f: &ast::Field, kind: Option<SemanticAttr>, quantity: bool) -> bool {
    let a = &f.attrs;
    let field = &f.json_name.value;
    let money = kind == Some(SemanticAttr::Money);
    let owners: [(&str, Option<Span>, bool, &str); 5] = [
        (
            "currency",
            a.currency.as_ref().map(LitStr::span),
            money,
            "`semantic = \"money\"`",
        ),
        (
            "minor_units",
            a.minor_units,
            money,
            "`semantic = \"money\"`",
        ),
        (
            "unit",
            a.unit.as_ref().map(LitStr::span),
            quantity,
            "a quantity kind (`duration`, `length`, `mass`, `data_size`, `quantity`)",
        ),
        (
            "family",
            a.family.as_ref().map(LitStr::span),
            kind == Some(SemanticAttr::Quantity),
            "`semantic = \"quantity\"`",
        ),
        (
            "entity",
            a.entity.as_ref().map(LitStr::span),
            kind == Some(SemanticAttr::Entity),
            "`semantic = \"entity\"`",
        ),
    ];
    let mut misplaced = false;
    for (key, span, fits, owner) in owners {
        let Some(span) = span else { continue };
        if fits {
            continue;
        }
        misplaced = true;
        let message = match kind {
            Some(builtin @ SemanticAttr::Family(_)) if key == "family" => format!(
                "`semantic = \"{}\"` already names the unit family; remove `family`",
                SEMANTIC_KINDS.name(builtin)
            ),
            Some(other) => format!(
                "`{key}` does not apply to `semantic = \"{}\"` on `{field}`; it belongs to {owner}",
                SEMANTIC_KINDS.name(other)
            ),
            None => format!(
                "`{key}` belongs to {owner}, and `{field}` declares no `semantic` kind; add one or remove `{key}`"
            ),
        };
        cx.error_at(span, message);
    }
    misplaced
}

/// The keys a declared kind cannot do without: the currency of money, the family of a
/// custom quantity, the unit of any quantity.
fn required_keys(cx: &Ctxt, f: &ast::Field, span: Span, kind: SemanticAttr, quantity: bool) {
    let a = &f.attrs;
    let field = &f.json_name.value;
    let kind_name = SEMANTIC_KINDS.name(kind);
    match kind {
        SemanticAttr::Money if a.currency.is_none() => cx.error_at(
            span,
            format!("`semantic = \"money\"` on `{field}` needs its currency: `currency = \"<field>\"` names the field that holds it, `currency = \"USD\"` fixes it"),
        ),
        SemanticAttr::Quantity if a.family.is_none() => cx.error_at(
            span,
            format!("`semantic = \"quantity\"` on `{field}` needs `family = \"...\"`, the unit family (or use a built-in one: `semantic = \"duration\"`, \"length\", \"mass\", \"data_size\")"),
        ),
        _ => {}
    }
    if quantity && a.unit.is_none() {
        cx.error_at(
            span,
            format!("`semantic = \"{kind_name}\"` on `{field}` needs its unit: `unit = \"<field>\"` names the field that holds it, `unit = \"hours\"` fixes it"),
        );
    }
}

/// The names `family` and `entity` give: a family name, and an entity that is not blank.
/// False after an error.
fn names_given(cx: &Ctxt, f: &ast::Field) -> bool {
    let a = &f.attrs;
    let mut valid = true;
    if let Some(family) = &a.family {
        let name = family.value();
        let ok = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !ok {
            valid = false;
            cx.error_at(
                family.span(),
                format!("family = \"{name}\" is not a family name; write lower-case letters, digits and `_`"),
            );
        }
    }
    if let Some(entity) = &a.entity {
        if entity.value().trim().is_empty() {
            valid = false;
            cx.error_at(
                entity.span(),
                "`entity` is blank; name the kind of entity, e.g. `entity = \"person\"`",
            );
        }
    }
    valid
}

/// The field's type against what the kind needs. False after an error.
fn check_semantic_type(cx: &Ctxt, f: &ast::Field, span: Span, kind: SemanticAttr) -> bool {
    let Some(field_kind) = &f.kind else {
        return false;
    };
    let leaf = field_kind.leaf();
    let field = &f.json_name.value;
    let ty = ty::show(f.ty);
    let (fits, needs) = match kind {
        SemanticAttr::Money => (
            matches!(leaf, Kind::Int { .. } | Kind::Float | Kind::String),
            "a number or a decimal string",
        ),
        SemanticAttr::Date => (
            matches!(leaf, Kind::Date | Kind::String),
            "a NaiveDate or a String",
        ),
        SemanticAttr::DateTime => (
            matches!(leaf, Kind::DateTime | Kind::String),
            "a DateTime or a String",
        ),
        SemanticAttr::Entity => (
            matches!(leaf, Kind::String | Kind::Int { .. }),
            "a String or an integer id",
        ),
        SemanticAttr::Quantity | SemanticAttr::Family(_) => (
            matches!(leaf, Kind::Int { .. } | Kind::Float | Kind::String),
            "a number or a string",
        ),
    };
    if !fits {
        cx.error_at(
            span,
            format!(
                "`semantic = \"{}\"` needs {needs}, and `{field}` is `{ty}`",
                SEMANTIC_KINDS.name(kind)
            ),
        );
    }
    let minor_on_float = matches!((f.attrs.minor_units, leaf), (Some(_), Kind::Float));
    if let (Some(minor), true) = (f.attrs.minor_units, minor_on_float) {
        cx.error_at(
            minor,
            format!("minor units are whole numbers, and `{field}` is `{ty}`; use an integer type, or remove `minor_units` for an amount in major units"),
        );
    }
    fits && !minor_on_float
}

/// Reads `currency = "v"` or `unit = "v"` on `f`: a sibling (by JSON or Rust name) or a fixed
/// value. `None` after an error.
fn check_source(
    cx: &Ctxt,
    c: &ast::Container,
    fields: &[ast::Field],
    f: &ast::Field,
    lit: &LitStr,
    key: &str,
    fixed: Fixed,
) -> Option<Source> {
    let value = lit.value();
    let field = &f.json_name.value;
    if f.json_name.value == value || f.ident == value.as_str() {
        cx.error_at(
            lit.span(),
            format!("`{key} = \"{value}\"` names `{field}` itself; name the field that holds the {key}, or a fixed {key}"),
        );
        return None;
    }
    match named(fields, f, &value, fixed) {
        Named::Field(sibling) => {
            let ok = sibling
                .kind
                .as_ref()
                .is_none_or(|k| matches!(k.leaf(), Kind::String | Kind::Other));
            if !ok {
                cx.error_at(
                    lit.span(),
                    format!(
                        "the {key} field `{}` is `{}`; it must hold text (a String or a derived enum)",
                        sibling.json_name.value,
                        ty::show(sibling.ty)
                    ),
                );
                return None;
            }
            Some(Source::Field(sibling.json_name.value.clone()))
        }
        Named::Fixed => Some(Source::Fixed(value)),
        Named::Both(sibling) => {
            cx.error_at(
                lit.span(),
                format!(
                    "`{key} = \"{value}\"` names both the field `{}` and a {key}; rename the field so the declaration has one reading",
                    sibling.ident
                ),
            );
            None
        }
        Named::Neither => {
            let siblings = fields
                .iter()
                .filter(|s| !std::ptr::eq(*s, f))
                .map(|s| s.json_name.value.as_str());
            let hint = did_you_mean(&value, siblings)
                .map(|s| format!("; did you mean the field \"{s}\"?"))
                .unwrap_or_default();
            let (what, note) = match fixed {
                Fixed::Currency => {
                    let upper = value.to_ascii_uppercase();
                    let note = if vocabulary::is_currency(&upper) {
                        format!("; ISO 4217 codes are upper case: \"{upper}\"")
                    } else {
                        String::new()
                    };
                    ("no ISO 4217 currency".to_owned(), note)
                }
                Fixed::Unit(family) => {
                    let units: Vec<&str> = family.units().iter().map(|u| u.name).collect();
                    let what =
                        format!("no unit of {} (units: {})", family.name(), units.join(", "));
                    (what, String::new())
                }
                Fixed::Any => (format!("no {key}"), String::new()),
            };
            cx.error_at(
                lit.span(),
                format!(
                    "`{key} = \"{value}\"` names no field of `{}` and {what}{hint}{note}",
                    c.ident
                ),
            );
            None
        }
    }
}

/// What `value` names, given what a fixed value may be.
fn named<'f>(fields: &'f [ast::Field<'f>], f: &ast::Field, value: &str, fixed: Fixed) -> Named<'f> {
    let sibling = fields
        .iter()
        .find(|s| !std::ptr::eq(*s, f) && (s.json_name.value == value || s.ident == value));
    let is_fixed = match fixed {
        Fixed::Currency => vocabulary::is_currency(value),
        Fixed::Unit(family) => family.knows(value),
        Fixed::Any => sibling.is_none(),
    };
    match (sibling, is_fixed) {
        (Some(s), false) => Named::Field(s),
        (Some(s), true) => Named::Both(s),
        (None, true) => Named::Fixed,
        (None, false) => Named::Neither,
    }
}
