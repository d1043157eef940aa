//! Validates the model as a whole: every key against the field's type, bounds against the Rust
//! type's range, regexes in both Rust and JSON Schema dialects, and name collisions.

use std::collections::HashMap;

use crate::ast::{Body, Container, Field, Variant};
use crate::attr::{DefaultAttr, Number};
use crate::ctxt::Ctxt;
use crate::ecma;
use crate::ty::Kind;

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
        }
        Body::Enum(variants) => check_variants(cx, c, variants),
    }
}

fn check_container(cx: &Ctxt, c: &Container) {
    let name = &c.name.value;
    let valid = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !valid {
        cx.error_at(
            c.name.span,
            format!(
                "tool name \"{name}\" is rejected by providers: OpenAI and Anthropic accept 1 to 64 characters of [a-zA-Z0-9_-]"
            ),
        );
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

fn check_field(cx: &Ctxt, f: &Field) {
    let Some(kind) = &f.kind else { return };
    let leaf = kind.leaf();
    let a = &f.attrs;
    let field = &f.json_name.value;

    for bound in [&a.min, &a.max].into_iter().flatten() {
        match leaf {
            Kind::Int { min, max } => match bound.value {
                Number::Float(v) => cx.error_at(
                    bound.span,
                    format!("`{field}` is an integer field, so its bound must be an integer, not {v}"),
                ),
                Number::Int(v) if v < *min || v > *max => cx.error_at(
                    bound.span,
                    format!(
                        "bound {v} does not fit the type of `{field}` ({min}..={max}); use a wider integer type or a bound inside its range"
                    ),
                ),
                Number::Int(_) => {}
            },
            Kind::Float => {}
            other => cx.error_at(
                bound.span,
                format!(
                    "`min`/`max` apply to numbers, and `{field}` holds {}; use `min_len`/`max_len` for strings or `min_items`/`max_items` for lists",
                    other.describe()
                ),
            ),
        }
    }
    if let (Some(min), Some(max)) = (&a.min, &a.max) {
        if min.value.as_f64() > max.value.as_f64() {
            cx.error_at(
                max.span,
                format!("`max` is below `min` on `{field}`: no value could pass"),
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
            cx.error_at(
                span,
                format!(
                    "`{key}` applies to String fields, and `{field}` holds {}",
                    leaf.describe()
                ),
            );
        }
    }
    if let (Some(min), Some(max)) = (&a.min_len, &a.max_len) {
        if min.value > max.value {
            cx.error_at(
                max.span,
                format!("`max_len` is below `min_len` on `{field}`: no string could pass"),
            );
        }
    }
    if let Some(pattern) = &a.pattern {
        let source = pattern.value();
        match regex::Regex::new(&format!("^(?:{source})$")) {
            Err(err) => cx.error_at(
                pattern.span(),
                format!(
                    "invalid regular expression: {}",
                    err.to_string().lines().last().unwrap_or_default().trim()
                ),
            ),
            Ok(_) => {
                if let Some(problem) = ecma::incompatibility(&source) {
                    cx.error_at(
                        pattern.span(),
                        format!("pattern is read differently by JSON Schema validators: {problem}"),
                    );
                }
            }
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
            cx.error_at(
                span,
                format!(
                    "`{key}` applies to Vec fields, and `{field}` holds {}",
                    kind.describe()
                ),
            );
        }
    }
    if let (Some(min), Some(max)) = (&a.min_items, &a.max_items) {
        if min.value > max.value {
            cx.error_at(
                max.span,
                format!("`max_items` is below `min_items` on `{field}`: no list could pass"),
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
    }
}

fn check_field_names(cx: &Ctxt, fields: &[Field]) {
    let mut seen: HashMap<&str, &Field> = HashMap::new();
    for f in fields {
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
        if let Some(first) = seen.insert(v.json_name.value.to_ascii_lowercase(), v) {
            let how = if first.json_name.value == v.json_name.value {
                "is also"
            } else {
                "differs only in ASCII case from"
            };
            cx.error_at(
                v.json_name.span,
                format!(
                    "variant `{}` is named \"{}\", which {how} \"{}\" (`{}`); case-insensitive matching could not tell them apart, so rename one",
                    v.ident, v.json_name.value, first.json_name.value, first.ident
                ),
            );
        }
    }
}
