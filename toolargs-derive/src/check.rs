//! Validates the model as a whole: every key against the field's type, bounds against the Rust
//! type's range, regexes in both Rust and JSON Schema dialects, and name collisions.

use std::collections::HashMap;

use syn::{Expr, ExprLit, Lit};

use crate::ast::{Body, Container, Field, Variant};
use crate::attr::{self, DefaultAttr, Number};
use crate::ctxt::Ctxt;
use crate::ecma;
use crate::ty::{self, Kind};
use toolargs_semantic::units::builtin_family;
use toolargs_semantic::Currency;

pub const EFFECTS: &[&str] = &["read_only", "additive", "destructive", "external"];
pub const UNKNOWN_POLICIES: &[&str] = &["reject", "strip"];

pub fn check(cx: &Ctxt, c: &Container) {
    check_container(cx, c);
    match &c.body {
        Body::Struct(fields) => {
            for field in fields {
                check_field(cx, field);
            }
            check_field_names(cx, fields);
            check_semantics(cx, c, fields);
        }
        Body::Enum(variants) => {
            check_variants(cx, c, variants);
            check_synonyms(cx, variants);
        }
    }
}

fn check_container(cx: &Ctxt, c: &Container) {
    if let Some(problem) = tool_name_problem(&c.name.value) {
        let fix = if c.attrs.name.is_some() {
            ""
        } else {
            " (the name comes from the type; set one with `#[toolargs(name = \"...\")]`)"
        };
        cx.error_at(c.name.span, format!("{problem}{fix}"));
    }
    if let Some(unknown) = &c.attrs.unknown {
        if !UNKNOWN_POLICIES.contains(&unknown.value.as_str()) {
            cx.error_at(
                unknown.span,
                format!(
                    "unknown = \"{}\" is not a policy; write \"reject\" or \"strip\"",
                    unknown.value
                ),
            );
        }
    }
    if let Some(effect) = &c.attrs.effect {
        if !EFFECTS.contains(&effect.value.as_str()) {
            cx.error_at(
                effect.span,
                format!(
                    "effect = \"{}\" is not an effect; write one of {}",
                    effect.value,
                    EFFECTS.join(", ")
                ),
            );
        }
    }
}

/// Why providers would reject `name` as a tool name, with what to write instead.
fn tool_name_problem(name: &str) -> Option<String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if name.is_empty() {
        return Some(
            "the tool name is empty; providers need 1 to 64 characters of [a-zA-Z0-9_-]".to_owned(),
        );
    }
    let mut bad: Vec<String> = Vec::new();
    for c in name.chars().filter(|&c| !allowed(c)) {
        let shown = format!("{c:?}");
        if !bad.contains(&shown) {
            bad.push(shown);
        }
    }
    if !bad.is_empty() {
        let mut suggestion = String::new();
        for c in name.chars() {
            let c = if allowed(c) { c } else { '_' };
            if !(c == '_' && (suggestion.is_empty() || suggestion.ends_with('_'))) {
                suggestion.push(c);
            }
        }
        let suggestion = suggestion.trim_end_matches('_');
        let example = if suggestion.is_empty() || suggestion.len() > 64 {
            String::new()
        } else {
            format!(", e.g. \"{suggestion}\"")
        };
        return Some(format!(
            "tool name \"{name}\" has characters providers reject ({}); use only [a-zA-Z0-9_-]{example}",
            bad.join(", ")
        ));
    }
    let len = name.len();
    (len > 64).then(|| {
        format!("tool name \"{name}\" is {len} characters long, and providers accept at most 64; shorten it")
    })
}

/// The message of a regex that does not compile, with the part it points at.
fn regex_error(source: &str) -> Option<String> {
    let err = match regex::Regex::new(source) {
        Ok(_) => regex::Regex::new(&format!("^(?:{source})$")).err()?,
        Err(err) => err,
    };
    let text = err.to_string();
    let lines: Vec<&str> = text.lines().collect();
    let message = lines
        .last()
        .map(|l| l.trim().trim_start_matches("error:").trim())
        .unwrap_or_default();
    // The parse error's shape: a header, the pattern, carets under the offending part, and
    // the message. Patterns spanning lines are printed otherwise; show the message alone.
    let at = match lines.as_slice() {
        [_, pattern, carets, _] if pattern.strip_prefix("    ") == Some(source) => {
            let carets = carets.strip_prefix("    ").unwrap_or_default();
            let start = carets.find('^')?;
            let end = carets.rfind('^')? + 1;
            let part: String = source.chars().skip(start).take(end - start).collect();
            (!part.is_empty()).then(|| format!(" at `{part}` (character {})", start + 1))
        }
        _ => None,
    };
    Some(format!(
        "invalid regular expression: {message}{}",
        at.unwrap_or_default()
    ))
}

fn check_field(cx: &Ctxt, f: &Field) {
    let Some(kind) = &f.kind else { return };
    let leaf = kind.leaf();
    let a = &f.attrs;
    let field = &f.json_name.value;
    let ty = ty::show(f.ty);
    let numeric = matches!(leaf, Kind::Int { .. } | Kind::Float);

    for (key, bound) in [("min", &a.min), ("max", &a.max)] {
        let Some(bound) = bound else { continue };
        match leaf {
            Kind::Int { min, max } => match bound.value {
                Number::Float(v) => {
                    let whole = if key == "min" { v.ceil() } else { v.floor() };
                    cx.error_at(
                        bound.span,
                        format!(
                            "`{field}` holds integers, so `{key}` must be an integer, not {v:?}; write `{key} = {}`",
                            whole as i128
                        ),
                    );
                }
                Number::Int(v) if v < *min || v > *max => cx.error_at(
                    bound.span,
                    format!(
                        "`{key} = {v}` is outside what `{field}` can hold ({min}..={max}); use a bound inside that range or a wider integer type"
                    ),
                ),
                Number::Int(_) => {}
            },
            Kind::Float => {}
            _ => {
                let hint = match (leaf, kind.has_list()) {
                    (Kind::String, true) => format!(
                        "use `{key}_len` for the length of each item or `{key}_items` for the number of items"
                    ),
                    (Kind::String, false) => format!("use `{key}_len` for its length"),
                    (_, true) => format!("use `{key}_items` for the number of items"),
                    _ => "remove it".to_owned(),
                };
                cx.error_at(
                    bound.span,
                    format!("`{key}` applies to numbers, and `{field}` is `{ty}`; {hint}"),
                );
            }
        }
    }
    if let (Some(min), Some(max), true) = (&a.min, &a.max, numeric) {
        if min.value.as_f64() > max.value.as_f64() {
            cx.error_at(
                max.span,
                format!(
                    "`max = {}` is below `min = {}` on `{field}`: no value could pass; swap them",
                    max.value, min.value
                ),
            );
        }
    }

    if !matches!(leaf, Kind::String) {
        let string_keys = [
            a.pattern.as_ref().map(|p| ("pattern", p.span())),
            a.min_len.as_ref().map(|v| ("min_len", v.span)),
            a.max_len.as_ref().map(|v| ("max_len", v.span)),
        ];
        for (key, span) in string_keys.into_iter().flatten() {
            let bound = key.trim_end_matches("_len");
            let hint = if key == "pattern" {
                "remove it".to_owned()
            } else if kind.has_list() {
                format!("use `{bound}_items` for the number of items")
            } else if numeric {
                format!("use `{bound}` to bound the value")
            } else {
                "remove it".to_owned()
            };
            cx.error_at(
                span,
                format!("`{key}` applies to strings, and `{field}` is `{ty}`; {hint}"),
            );
        }
    }
    if let (Some(min), Some(max)) = (&a.min_len, &a.max_len) {
        if min.value > max.value {
            cx.error_at(
                max.span,
                format!(
                    "`max_len = {}` is below `min_len = {}` on `{field}`: no string could pass; swap them",
                    max.value, min.value
                ),
            );
        }
    }
    let mut pattern_regex = None;
    if let Some(pattern) = &a.pattern {
        let source = pattern.value();
        if let Some(message) = regex_error(&source) {
            cx.error_at(pattern.span(), message);
        } else if let Some(problem) = ecma::incompatibility(&source) {
            cx.error_at(
                pattern.span(),
                format!("pattern is read differently by JSON Schema validators: {problem}"),
            );
        } else {
            pattern_regex = regex::Regex::new(&format!("^(?:{source})$")).ok();
        }
    }

    if !kind.has_list() {
        for item_key in [
            a.min_items.as_ref().map(|v| ("min_items", v.span)),
            a.max_items.as_ref().map(|v| ("max_items", v.span)),
        ]
        .into_iter()
        .flatten()
        {
            let (key, span) = item_key;
            let bound = key.trim_end_matches("_items");
            let hint = match leaf {
                Kind::String => format!("use `{bound}_len` for its length"),
                Kind::Int { .. } | Kind::Float => format!("use `{bound}` to bound the value"),
                _ => "remove it".to_owned(),
            };
            cx.error_at(
                span,
                format!("`{key}` applies to Vec fields, and `{field}` is `{ty}`; {hint}"),
            );
        }
    }
    if let (Some(min), Some(max)) = (&a.min_items, &a.max_items) {
        if min.value > max.value {
            cx.error_at(
                max.span,
                format!(
                    "`max_items = {}` is below `min_items = {}` on `{field}`: no list could pass; swap them",
                    max.value, min.value
                ),
            );
        }
    }

    if let Some(span) = a.strict {
        if !kind.has_repairs() {
            cx.error_at(
                span,
                format!(
                    "`strict` has no effect on `{field}`: {} value is never repaired, so there is nothing to forbid; remove it",
                    leaf.describe()
                ),
            );
        }
    }

    if kind.is_optional() {
        match &a.default {
            Some(DefaultAttr::Trait(span)) => cx.error_at(
                *span,
                format!("`default` on an Option field does nothing: `{field}` is already None when absent; remove it"),
            ),
            Some(DefaultAttr::Expr(expr)) => cx.error_spanned_by(
                expr,
                format!("`default = ...` on an Option field would make None impossible to send; make `{field}` a non-Option type with this default"),
            ),
            None => {}
        }
    } else if let Some(DefaultAttr::Expr(expr)) = &a.default {
        check_default_literal(cx, f, expr, pattern_regex.as_ref());
    }
}

/// A literal default is never parsed, so it must already pass the field's own constraints.
fn check_default_literal(cx: &Ctxt, f: &Field, expr: &Expr, pattern: Option<&regex::Regex>) {
    let a = &f.attrs;
    let field = &f.json_name.value;
    match &f.kind {
        Some(Kind::Int { .. } | Kind::Float) => {
            let Some(value) = attr::number(expr) else {
                return;
            };
            if let Some(min) = a.min.as_ref().filter(|m| value.as_f64() < m.value.as_f64()) {
                cx.error_spanned_by(
                    expr,
                    format!(
                        "`default = {value}` is below `min = {}` on `{field}`; a default must pass the field's own bounds",
                        min.value
                    ),
                );
            }
            if let Some(max) = a.max.as_ref().filter(|m| value.as_f64() > m.value.as_f64()) {
                cx.error_spanned_by(
                    expr,
                    format!(
                        "`default = {value}` is above `max = {}` on `{field}`; a default must pass the field's own bounds",
                        max.value
                    ),
                );
            }
        }
        Some(Kind::String) => {
            let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = expr
            else {
                return;
            };
            let value = s.value();
            let len = value.chars().count();
            let problem = if pattern.is_some_and(|p| !p.is_match(&value)) {
                Some("does not match the field's `pattern`".to_owned())
            } else if let Some(min) = a.min_len.as_ref().filter(|m| len < m.value) {
                Some(format!("is shorter than `min_len = {}`", min.value))
            } else {
                a.max_len
                    .as_ref()
                    .filter(|m| len > m.value)
                    .map(|max| format!("is longer than `max_len = {}`", max.value))
            };
            if let Some(problem) = problem {
                cx.error_spanned_by(
                    expr,
                    format!("the default of `{field}` {problem}; a default must pass the field's own constraints"),
                );
            }
        }
        _ => {}
    }
}

fn check_field_names(cx: &Ctxt, fields: &[Field]) {
    let mut seen: HashMap<&str, &Field> = HashMap::new();
    for f in fields {
        if f.json_name.value.trim().is_empty() {
            cx.error_at(
                f.json_name.span,
                format!(
                    "`rename` gives `{}` a blank JSON name; write a name",
                    f.ident
                ),
            );
        }
        if let Some(first) = seen.insert(&f.json_name.value, f) {
            cx.error_at(
                f.json_name.span,
                format!(
                    "two fields are named \"{}\" in JSON (`{}` and `{}`); rename one",
                    f.json_name.value, first.ident, f.ident
                ),
            );
        }
    }
}

fn check_variants(cx: &Ctxt, c: &Container, variants: &[Variant]) {
    if variants.is_empty() {
        cx.error_spanned_by(
            c.ident,
            "an enum without variants accepts no value; add a variant",
        );
    }
    let mut seen: HashMap<String, &Variant> = HashMap::new();
    for v in variants {
        if v.json_name.value.trim().is_empty() {
            cx.error_at(
                v.json_name.span,
                format!("`rename` gives `{}` a blank name; write a name", v.ident),
            );
        }
        if let Some(first) = seen.insert(v.json_name.value.to_ascii_lowercase(), v) {
            let message = if first.json_name.value == v.json_name.value {
                format!(
                    "variant `{}` is named \"{}\", the same as `{}`; rename one",
                    v.ident, v.json_name.value, first.ident
                )
            } else {
                format!(
                    "variant `{}` is named \"{}\", which differs from \"{}\" (`{}`) only in ASCII case; values are matched case-insensitively, so rename one",
                    v.ident, v.json_name.value, first.json_name.value, first.ident
                )
            };
            cx.error_at(v.json_name.span, message);
        }
    }
}

/// Canonical kinds, then the built-in unit families (each a quantity kind of its own).
pub const SEMANTIC_KINDS: &[&str] = &[
    "money",
    "date",
    "datetime",
    "entity",
    "quantity",
    "duration",
    "length",
    "mass",
    "data_size",
];

/// What a `currency = "..."` or `unit = "..."` names.
pub enum Named<'f> {
    /// A sibling field, by JSON name.
    Field(&'f Field<'f>),
    /// A fixed currency code or unit.
    Fixed,
    /// Both a field and a value: the declaration cannot say which.
    Both(&'f Field<'f>),
    Neither,
}

/// The unit family of a quantity kind: the kind itself for a built-in family, the `family`
/// key for `quantity`.
pub fn family_of(f: &Field) -> Option<String> {
    match f.attrs.semantic.as_ref()?.value.as_str() {
        "quantity" => f.attrs.family.as_ref().map(|l| l.value()),
        builtin @ ("duration" | "length" | "mass" | "data_size") => Some(builtin.to_owned()),
        _ => None,
    }
}

/// Reads `currency = "v"` or `unit = "v"` on `f`: a sibling (by JSON or Rust name) or a value.
pub fn named<'f>(fields: &'f [Field<'f>], f: &Field, value: &str, key: &str) -> Named<'f> {
    let sibling = fields
        .iter()
        .find(|s| !std::ptr::eq(*s, f) && (s.json_name.value == value || s.ident == value));
    let fixed = match key {
        "currency" => Currency::from_code(value).is_some(),
        _ => match family_of(f).and_then(|name| builtin_family(&name)) {
            Some(family) => !family.units_named(value).is_empty(),
            // A family added at run time: its units are checked when the gate runs.
            None => sibling.is_none(),
        },
    };
    match (sibling, fixed) {
        (Some(s), false) => Named::Field(s),
        (Some(s), true) => Named::Both(s),
        (None, true) => Named::Fixed,
        (None, false) => Named::Neither,
    }
}

/// `#[arg(semantic = ..., currency = ..., unit = ..., critical)]`: the kind exists, its keys
/// belong to it, its field's type can hold it, and the currency or unit it names exists.
pub fn check_semantics(cx: &Ctxt, c: &Container, fields: &[Field]) {
    for f in fields {
        let a = &f.attrs;
        let field = &f.json_name.value;
        let kind = a.semantic.as_ref().map(|s| s.value.as_str());
        if let Some(semantic) = &a.semantic {
            if !SEMANTIC_KINDS.contains(&semantic.value.as_str()) {
                let hint = SEMANTIC_KINDS
                    .iter()
                    .map(|k| (strsim::jaro_winkler(&semantic.value, k), *k))
                    .filter(|(score, _)| *score >= 0.8)
                    .max_by(|x, y| x.0.total_cmp(&y.0))
                    .map(|(_, k)| format!("did you mean \"{k}\"? "))
                    .unwrap_or_default();
                cx.error_at(
                    semantic.span,
                    format!(
                        "semantic = \"{}\" is not a kind; {hint}write one of {}",
                        semantic.value,
                        SEMANTIC_KINDS.join(", ")
                    ),
                );
                continue;
            }
        }
        let quantity = family_of(f).is_some() || kind == Some("quantity");
        let owners: [(&str, Option<proc_macro2::Span>, bool, &str); 5] = [
            (
                "currency",
                a.currency.as_ref().map(|l| l.span()),
                kind == Some("money"),
                "`semantic = \"money\"`",
            ),
            (
                "minor_units",
                a.minor_units,
                kind == Some("money"),
                "`semantic = \"money\"`",
            ),
            (
                "unit",
                a.unit.as_ref().map(|l| l.span()),
                quantity,
                "a quantity kind (`duration`, `length`, `mass`, `data_size`, `quantity`)",
            ),
            (
                "family",
                a.family.as_ref().map(|l| l.span()),
                kind == Some("quantity"),
                "`semantic = \"quantity\"`",
            ),
            (
                "entity",
                a.entity.as_ref().map(|l| l.span()),
                kind == Some("entity"),
                "`semantic = \"entity\"`",
            ),
        ];
        for (key, span, fits, owner) in owners {
            let Some(span) = span else { continue };
            if fits {
                continue;
            }
            let message = match (kind, key) {
                (Some(builtin), "family") if quantity => format!(
                    "`semantic = \"{builtin}\"` already names the unit family; remove `family`"
                ),
                (Some(other), _) => format!(
                    "`{key}` does not apply to `semantic = \"{other}\"` on `{field}`; it belongs to {owner}"
                ),
                (None, _) => format!(
                    "`{key}` belongs to {owner}, and `{field}` declares no `semantic` kind; add one or remove `{key}`"
                ),
            };
            cx.error_at(span, message);
        }
        let Some(semantic) = &a.semantic else {
            continue;
        };
        match kind {
            Some("money") if a.currency.is_none() => cx.error_at(
                semantic.span,
                format!("`semantic = \"money\"` on `{field}` needs its currency: `currency = \"<field>\"` names the field that holds it, `currency = \"USD\"` fixes it"),
            ),
            Some("quantity") if a.family.is_none() => cx.error_at(
                semantic.span,
                format!("`semantic = \"quantity\"` on `{field}` needs `family = \"...\"`, the unit family (or use a built-in one: `semantic = \"duration\"`, \"length\", \"mass\", \"data_size\")"),
            ),
            _ => {}
        }
        if quantity && a.unit.is_none() {
            cx.error_at(
                semantic.span,
                format!("`semantic = \"{}\"` on `{field}` needs its unit: `unit = \"<field>\"` names the field that holds it, `unit = \"hours\"` fixes it", semantic.value),
            );
        }
        if let Some(family) = &a.family {
            let name = family.value();
            let ok = !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
            if !ok {
                cx.error_at(
                    family.span(),
                    format!("family = \"{name}\" is not a family name; write lower-case letters, digits and `_`"),
                );
            }
        }
        if let Some(entity) = &a.entity {
            if entity.value().trim().is_empty() {
                cx.error_at(
                    entity.span(),
                    "`entity` is blank; name the kind of entity, e.g. `entity = \"person\"`",
                );
            }
        }
        check_semantic_type(cx, f, semantic.span, kind.unwrap_or_default(), quantity);
        for (key, lit) in [("currency", &a.currency), ("unit", &a.unit)] {
            let Some(lit) = lit else { continue };
            check_source(cx, c, fields, f, lit, key);
        }
    }
}

fn check_semantic_type(cx: &Ctxt, f: &Field, span: proc_macro2::Span, kind: &str, quantity: bool) {
    let Some(field_kind) = &f.kind else { return };
    let leaf = field_kind.leaf();
    let field = &f.json_name.value;
    let ty = ty::show(f.ty);
    let (fits, needs) = match kind {
        "money" => (
            matches!(leaf, Kind::Int { .. } | Kind::Float | Kind::String),
            "a number or a decimal string",
        ),
        "date" => (
            matches!(leaf, Kind::Date | Kind::String),
            "a NaiveDate or a String",
        ),
        "datetime" => (
            matches!(leaf, Kind::DateTime | Kind::String),
            "a DateTime or a String",
        ),
        "entity" => (
            matches!(leaf, Kind::String | Kind::Int { .. }),
            "a String or an integer id",
        ),
        _ if quantity => (
            matches!(leaf, Kind::Int { .. } | Kind::Float | Kind::String),
            "a number or a string",
        ),
        _ => (true, ""),
    };
    if !fits {
        cx.error_at(
            span,
            format!("`semantic = \"{kind}\"` needs {needs}, and `{field}` is `{ty}`"),
        );
    }
    if let (Some(minor), Kind::Float) = (f.attrs.minor_units, leaf) {
        cx.error_at(
            minor,
            format!("minor units are whole numbers, and `{field}` is `{ty}`; use an integer type, or remove `minor_units` for an amount in major units"),
        );
    }
}

fn check_source(
    cx: &Ctxt,
    c: &Container,
    fields: &[Field],
    f: &Field,
    lit: &syn::LitStr,
    key: &str,
) {
    let value = lit.value();
    let field = &f.json_name.value;
    if f.json_name.value == value || f.ident == value.as_str() {
        cx.error_at(
            lit.span(),
            format!("`{key} = \"{value}\"` names `{field}` itself; name the field that holds the {key}, or a fixed {key}"),
        );
        return;
    }
    match named(fields, f, &value, key) {
        Named::Field(sibling) => {
            let ok = sibling
                .kind
                .as_ref()
                .is_none_or(|k| matches!(k.leaf(), Kind::String | Kind::Derived));
            if !ok {
                cx.error_at(
                    lit.span(),
                    format!(
                        "the {key} field `{}` is `{}`; it must hold text (a String or a derived enum)",
                        sibling.json_name.value,
                        ty::show(sibling.ty)
                    ),
                );
            }
        }
        Named::Fixed => {}
        Named::Both(sibling) => cx.error_at(
            lit.span(),
            format!(
                "`{key} = \"{value}\"` names both the field `{}` and a {key}; rename the field so the declaration has one reading",
                sibling.ident
            ),
        ),
        Named::Neither => {
            let siblings: Vec<&str> = fields
                .iter()
                .filter(|s| !std::ptr::eq(*s, f))
                .map(|s| s.json_name.value.as_str())
                .collect();
            let hint = siblings
                .iter()
                .map(|s| (strsim::jaro_winkler(&value, s), *s))
                .filter(|(score, _)| *score >= 0.8)
                .max_by(|x, y| x.0.total_cmp(&y.0))
                .map(|(_, s)| format!("; did you mean the field \"{s}\"?"))
                .unwrap_or_default();
            let message = if key == "currency" {
                let upper = value.to_ascii_uppercase();
                let code_hint = if Currency::from_code(&upper).is_some() {
                    format!("; ISO 4217 codes are upper case: \"{upper}\"")
                } else {
                    String::new()
                };
                format!(
                    "`currency = \"{value}\"` names no field of `{}` and no ISO 4217 currency{hint}{code_hint}",
                    c.ident
                )
            } else {
                let family = family_of(f).unwrap_or_default();
                let units = builtin_family(&family)
                    .map(|fam| {
                        fam.units()
                            .iter()
                            .map(|u| u.name().to_owned())
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .unwrap_or_default();
                format!(
                    "`unit = \"{value}\"` names no field of `{}` and no unit of {family} (units: {units}){hint}",
                    c.ident
                )
            };
            cx.error_at(lit.span(), message);
        }
    }
}

/// Synonyms of enum values: not blank, not a value's own name, and one meaning each.
pub fn check_synonyms(cx: &Ctxt, variants: &[Variant]) {
    let mut seen: HashMap<String, &Variant> = HashMap::new();
    for v in variants {
        for synonym in &v.synonyms {
            let text = synonym.value();
            if text.trim().is_empty() {
                cx.error_at(
                    synonym.span(),
                    format!("a blank synonym for `{}`; write a name", v.ident),
                );
                continue;
            }
            if let Some(named) = variants
                .iter()
                .find(|w| w.json_name.value.eq_ignore_ascii_case(&text))
            {
                cx.error_at(
                    synonym.span(),
                    format!(
                        "synonym \"{text}\" is the name of `{}` (values match case-insensitively); remove it",
                        named.ident
                    ),
                );
                continue;
            }
            if let Some(first) = seen.insert(text.to_ascii_lowercase(), v) {
                let message = if std::ptr::eq(first, v) {
                    format!(
                        "synonym \"{text}\" is given twice to `{}`; give it once",
                        v.ident
                    )
                } else {
                    format!(
                        "synonym \"{text}\" is given to both `{}` and `{}`; a synonym must have one meaning",
                        first.ident, v.ident
                    )
                };
                cx.error_at(synonym.span(), message);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{regex_error, tool_name_problem};

    #[test]
    fn tool_names_providers_accept() {
        assert_eq!(tool_name_problem("issue_refund"), None);
        assert_eq!(tool_name_problem("get-weather2"), None);
        assert_eq!(tool_name_problem(&"a".repeat(64)), None);
    }

    #[test]
    fn tool_names_providers_reject() {
        let chars = tool_name_problem("issue refund!").unwrap();
        assert!(chars.contains("' ', '!'"), "{chars}");
        assert!(chars.contains("e.g. \"issue_refund\""), "{chars}");
        let long = tool_name_problem(&"a".repeat(65)).unwrap();
        assert!(long.contains("65 characters long"), "{long}");
        assert!(tool_name_problem("").unwrap().contains("empty"));
        assert!(!tool_name_problem("!!").unwrap().contains("e.g."));
    }

    #[test]
    fn regex_errors_name_the_offending_part() {
        assert_eq!(regex_error("ord_[A-Z]{8}"), None);
        let err = regex_error("ord_[A-Z").unwrap();
        assert_eq!(
            err,
            "invalid regular expression: unclosed character class at `[` (character 5)"
        );
        let err = regex_error("a{2,1}").unwrap();
        assert!(err.starts_with("invalid regular expression: "), "{err}");
        assert!(!err.contains("error:"), "{err}");
    }
}
