//! Turns the parsed item into the checked model ([`crate::model`]): names become enums,
//! bounds are checked against the Rust type's range, patterns are compiled in both regex
//! dialects, semantic sources are resolved, and names are checked for collisions. Every
//! problem is recorded in the [`Ctxt`]; the model is only expanded when there are none.

use std::collections::HashMap;

use proc_macro2::Span;
use syn::{Expr, ExprLit, Lit, LitStr};

use crate::ast;
use crate::attr::{self, DefaultAttr, Number, Spanned};
use crate::ctxt::Ctxt;
use crate::ecma;
use crate::hint::did_you_mean;
use crate::model::{
    Body, Bound, BuiltinFamily, DefaultValue, EffectAttr, Family, Field, Pattern, Semantic,
    SemanticAttr, Source, Tool, TraitCheck, Union, UnionVariant, UnknownAttr, Variant, VariantData,
};
use crate::ty::{self, Kind};
use crate::vocabulary::{self, EFFECTS, FAMILIES, SEMANTIC_KINDS, UNKNOWN_POLICIES};

/// An undeclared effect is destructive, as MCP treats a tool without annotations and as
/// `toolargs_core::Effect::default()` is; a test compares the two.
pub const UNDECLARED_EFFECT: EffectAttr = EffectAttr::Destructive;

/// The checked model, or `None` when something was reported (possibly only part of it was
/// read; the caller emits the errors instead).
pub fn check<'a>(cx: &Ctxt, c: &ast::Container<'a>) -> Option<Tool<'a>> {
    let name = tool_name(cx, c);
    let unknown = unknown_policy(cx, c);
    let effect = effect(cx, c);
    let body = match &c.body {
        ast::Body::Struct(fields) => {
            let checked: Vec<Option<Field>> = fields.iter().map(|f| check_field(cx, f)).collect();
            check_field_names(cx, fields);
            // Semantic keys are checked after the fields' own keys, so their errors follow.
            let semantics: Vec<Option<Option<Semantic>>> = fields
                .iter()
                .map(|f| check_semantic(cx, c, fields, f))
                .collect();
            checked
                .into_iter()
                .zip(semantics)
                .map(|(field, semantic)| {
                    let mut field = field?;
                    field.semantic = semantic?;
                    Some(field)
                })
                .collect::<Option<Vec<_>>>()
                .map(Body::Struct)
        }
        ast::Body::Newtype(field) => {
            check_newtype(cx, c, field);
            check_field(cx, field).map(|f| Body::Newtype(Box::new(f)))
        }
        ast::Body::Enum(variants) if c.attrs.tag.is_some() || c.attrs.untagged.is_some() => {
            check_variants(cx, c, variants);
            check_union(cx, c, variants).map(Body::Union)
        }
        ast::Body::Enum(variants) => {
            check_variants(cx, c, variants);
            check_synonyms(cx, variants);
            Some(Body::Enum(
                variants
                    .iter()
                    .map(|v| Variant {
                        ident: v.ident,
                        json_name: v.json_name.value.clone(),
                        synonyms: v.synonyms.iter().map(LitStr::value).collect(),
                    })
                    .collect(),
            ))
        }
    };
    Some(Tool {
        ident: c.ident,
        name: name?,
        description: c.description.clone(),
        effect: effect?,
        unknown: unknown?,
        krate: c.attrs.krate.clone(),
        body: body?,
    })
}

/// What a newtype cannot take: keys of an object (`unknown`) and keys that name a field of
/// one (`rename`, `default`, the semantic keys). Its field's doc comment stays a comment; the
/// type's doc comment is the schema description.
fn check_newtype(cx: &Ctxt, c: &ast::Container, f: &ast::Field) {
    let ident = c.ident;
    if let Some(unknown) = &c.attrs.unknown {
        cx.error_at(
            unknown.span,
            format!("`unknown` applies to structs with named fields, and `{ident}` is a newtype with no keys of its own; remove it"),
        );
    }
    let a = &f.attrs;
    let default = match &a.default {
        Some(DefaultAttr::Trait(span)) => Some(*span),
        Some(DefaultAttr::Expr(expr)) => Some(syn::spanned::Spanned::span(expr.as_ref())),
        None => None,
    };
    let refused = [
        (
            "rename",
            a.rename.as_ref().map(LitStr::span),
            "a newtype has no JSON name of its own",
        ),
        (
            "description",
            a.description.as_ref().map(LitStr::span),
            "document the type instead",
        ),
        (
            "default",
            default,
            "put the default on the fields that use the type",
        ),
        (
            "semantic",
            a.semantic.as_ref().map(|s| s.span),
            "declare it on the fields that use the type",
        ),
        (
            "currency",
            a.currency.as_ref().map(LitStr::span),
            "declare it on the fields that use the type",
        ),
        (
            "minor_units",
            a.minor_units,
            "declare it on the fields that use the type",
        ),
        (
            "unit",
            a.unit.as_ref().map(LitStr::span),
            "declare it on the fields that use the type",
        ),
        (
            "family",
            a.family.as_ref().map(LitStr::span),
            "declare it on the fields that use the type",
        ),
        (
            "entity",
            a.entity.as_ref().map(LitStr::span),
            "declare it on the fields that use the type",
        ),
        (
            "critical",
            a.critical,
            "declare it on the fields that use the type",
        ),
    ];
    for (key, span, hint) in refused {
        if let Some(span) = span {
            cx.error_at(
                span,
                format!("`{key}` does not apply to the field of the newtype `{ident}`; {hint}"),
            );
        }
    }
}

fn tool_name(cx: &Ctxt, c: &ast::Container) -> Option<String> {
    if let Some(problem) = tool_name_problem(&c.name.value) {
        let fix = if c.attrs.name.is_some() {
            ""
        } else {
            " (the name comes from the type; set one with `#[toolargs(name = \"...\")]`)"
        };
        cx.error_at(c.name.span, format!("{problem}{fix}"));
        return None;
    }
    Some(c.name.value.clone())
}

/// `Some(None)` when no policy is declared; `None` after an error.
fn unknown_policy(cx: &Ctxt, c: &ast::Container) -> Option<Option<UnknownAttr>> {
    let Some(unknown) = &c.attrs.unknown else {
        return Some(None);
    };
    let policy = UNKNOWN_POLICIES.get(&unknown.value);
    if policy.is_none() {
        let choices: Vec<String> = UNKNOWN_POLICIES
            .names()
            .map(|n| format!("\"{n}\""))
            .collect();
        cx.error_at(
            unknown.span,
            format!(
                "unknown = \"{}\" is not a policy; write {}",
                unknown.value,
                choices.join(" or ")
            ),
        );
    }
    policy.map(Some)
}

fn effect(cx: &Ctxt, c: &ast::Container) -> Option<EffectAttr> {
    let Some(effect) = &c.attrs.effect else {
        return Some(UNDECLARED_EFFECT);
    };
    let value = EFFECTS.get(&effect.value);
    if value.is_none() {
        cx.error_at(
            effect.span,
            format!(
                "effect = \"{}\" is not an effect; write one of {}",
                effect.value,
                EFFECTS.list()
            ),
        );
    }
    value
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

/// A field's own keys against its type. The semantic kind is filled in afterwards.
fn check_field<'a>(cx: &Ctxt, f: &ast::Field<'a>) -> Option<Field<'a>> {
    let kind = f.kind.as_ref()?;
    let leaf = kind.leaf();
    let a = &f.attrs;
    let field = &f.json_name.value;
    let ty = ty::show(f.ty);
    let numeric = matches!(leaf, Kind::Int { .. } | Kind::Float);
    // A type not known by name says through `ArgType` which attributes it honours.
    let other = matches!(leaf, Kind::Other);
    let mut trait_checks = Vec::new();
    let mut honoured = |span: Span, key: &str, constant: &'static str| {
        trait_checks.push(TraitCheck {
            span,
            constant,
            message: format!(
                "`{key}` does not apply to `{field}`: the ArgType impl of `{ty}` does not honour it (ArgType::HONOURS.{constant} is false); remove it",
            )
            .replace('{', "{{")
            .replace('}', "}}"),
        });
    };

    let min = a.min.as_ref().map(|b| check_bound(cx, f, kind, "min", b));
    let max = a.max.as_ref().map(|b| check_bound(cx, f, kind, "max", b));
    if other {
        for (key, b) in [("min", &a.min), ("max", &a.max)] {
            if let Some(b) = b {
                honoured(b.span, key, "bounds");
            }
        }
    }
    if let (Some(min), Some(max), true) = (&a.min, &a.max, numeric || other) {
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

    let string = matches!(leaf, Kind::String);
    if other {
        if let Some(p) = &a.pattern {
            honoured(p.span(), "pattern", "pattern");
        }
        for (key, v) in [("min_len", &a.min_len), ("max_len", &a.max_len)] {
            if let Some(v) = v {
                honoured(v.span, key, "length");
            }
        }
    } else if !string {
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
    let pattern = a.pattern.as_ref().map(|lit| check_pattern(cx, lit));
    // An open value is a hole in the contract, so it must be asked for by name.
    let any = matches!(leaf, Kind::Any);
    match (any, a.any) {
        (true, None) => cx.error_spanned_by(
            f.ty,
            format!("`{field}` is `{ty}`, which accepts any JSON and checks nothing; if that is meant, write `#[arg(any)]` on the field, otherwise declare the shape as a type that derives ToolArgs"),
        ),
        (false, Some(span)) => cx.error_at(
            span,
            format!("`any` marks a `serde_json::Value` field, and `{field}` is `{ty}`; remove it"),
        ),
        _ => {}
    }
    if let Some(lit) = &a.key_pattern {
        if other && !kind.has_map() {
            honoured(lit.span(), "key_pattern", "key_pattern");
        } else if !kind.has_map() {
            cx.error_at(
                lit.span(),
                format!("`key_pattern` applies to maps (`HashMap<String, T>`, `BTreeMap<String, T>`), and `{field}` is `{ty}`; remove it"),
            );
        }
    }
    let key_pattern = a.key_pattern.as_ref().map(|lit| check_pattern(cx, lit));

    let list = kind.has_list();
    if other && !list {
        for (key, v) in [("min_items", &a.min_items), ("max_items", &a.max_items)] {
            if let Some(v) = v {
                honoured(v.span, key, "items");
            }
        }
    } else if !list {
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
                format!("`{key}` applies to Vec and map fields, and `{field}` is `{ty}`; {hint}"),
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

    let default = match &a.default {
        None => Some(None),
        Some(DefaultAttr::Trait(span)) if kind.is_optional() => {
            cx.error_at(
                *span,
                format!("`default` on an Option field does nothing: `{field}` is already None when absent; remove it"),
            );
            None
        }
        Some(DefaultAttr::Expr(expr)) if kind.is_optional() => {
            cx.error_spanned_by(
                expr,
                format!("`default = ...` on an Option field would make None impossible to send; make `{field}` a non-Option type with this default"),
            );
            None
        }
        Some(DefaultAttr::Trait(span)) => Some(Some(DefaultValue::Trait(*span))),
        Some(DefaultAttr::Expr(expr)) => {
            let regex = pattern.as_ref().and_then(Option::as_ref).map(|p| &p.regex);
            check_default_literal(cx, f, expr, regex);
            Some(Some(match (kind, expr.as_ref()) {
                (
                    Kind::String,
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(s), ..
                    }),
                ) => DefaultValue::Str(s.clone()),
                _ => DefaultValue::Expr(expr.clone()),
            }))
        }
    };

    let nested = other;
    let size = |key: &Option<Spanned<usize>>| key.as_ref().map(|v| v.value);
    Some(Field {
        ident: f.ident,
        ty: f.ty,
        json_name: field.clone(),
        description: f.description.clone(),
        optional: kind.is_optional(),
        strict: a.strict.is_some(),
        min: valid(min)?,
        max: valid(max)?,
        pattern: valid(pattern)?,
        key_pattern: valid(key_pattern)?,
        min_len: size(&a.min_len),
        max_len: size(&a.max_len),
        min_items: size(&a.min_items),
        max_items: size(&a.max_items),
        default: default?,
        semantic: None,
        critical: a.critical.is_some(),
        nested,
        trait_checks,
    })
}

/// An optional key after checking: absent is fine (`Some(None)`), present is fine when its
/// check gave a value, and `None` otherwise.
fn valid<T>(key: Option<Option<T>>) -> Option<Option<T>> {
    key.map_or(Some(None), |checked| checked.map(Some))
}

/// `min` or `max` against the field's type: a number field takes the literal as written, an
/// integer field takes an integer inside its own range.
fn check_bound(
    cx: &Ctxt,
    f: &ast::Field,
    kind: &Kind,
    key: &str,
    bound: &Spanned<Number>,
) -> Option<Bound> {
    let field = &f.json_name.value;
    let leaf = kind.leaf();
    match (leaf, bound.value) {
        (Kind::Int { min, max }, Number::Int(v)) if v < *min || v > *max => {
            cx.error_at(
                bound.span,
                format!(
                    "`{key} = {v}` is outside what `{field}` can hold ({min}..={max}); use a bound inside that range or a wider integer type"
                ),
            );
            None
        }
        (Kind::Int { .. }, Number::Float(v)) => {
            let whole = if key == "min" { v.ceil() } else { v.floor() };
            cx.error_at(
                bound.span,
                format!(
                    "`{field}` holds integers, so `{key}` must be an integer, not {v:?}; write `{key} = {}`",
                    whole as i128
                ),
            );
            None
        }
        (Kind::Int { .. } | Kind::Float, Number::Int(v)) => Some(Bound::Int(v)),
        (Kind::Float, Number::Float(v)) => Some(Bound::Float(v)),
        // Whether the type takes bounds at all is asserted against its `ArgType` impl.
        (Kind::Other, Number::Int(v)) => Some(Bound::Int(v)),
        (Kind::Other, Number::Float(v)) => Some(Bound::Float(v)),
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
                format!(
                    "`{key}` applies to numbers, and `{field}` is `{}`; {hint}",
                    ty::show(f.ty)
                ),
            );
            None
        }
    }
}

/// A pattern that compiles as a full match in Rust and reads the same in ECMA-262.
fn check_pattern(cx: &Ctxt, lit: &LitStr) -> Option<Pattern> {
    let source = lit.value();
    if let Some(message) = regex_error(&source) {
        cx.error_at(lit.span(), message);
        return None;
    }
    if let Some(problem) = ecma::incompatibility(&source) {
        cx.error_at(
            lit.span(),
            format!("pattern is read differently by JSON Schema validators: {problem}"),
        );
        return None;
    }
    let regex = regex::Regex::new(&format!("^(?:{source})$")).ok()?;
    Some(Pattern { source, regex })
}
/// A literal default is never parsed, so it must already pass the field's own constraints.
fn check_default_literal(cx: &Ctxt, f: &ast::Field, expr: &Expr, pattern: Option<&regex::Regex>) {
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

fn check_field_names(cx: &Ctxt, fields: &[ast::Field]) {
    let mut seen: HashMap<&str, &ast::Field> = HashMap::new();
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

/// The variants of a union: their fields checked as a struct's, a tag that names no field,
/// and data in every variant of an untagged union (a unit variant there has nothing to try).
fn check_union<'a>(
    cx: &Ctxt,
    c: &ast::Container<'a>,
    variants: &[ast::Variant<'a>],
) -> Option<Union<'a>> {
    let tag = c.attrs.tag.as_ref().map(|t| t.value.clone());
    if let Some(t) = &c.attrs.tag {
        if t.value.trim().is_empty() {
            cx.error_at(t.span, "`tag` needs a key name; write `tag = \"type\"`");
        }
    }
    let mut out = Vec::new();
    let mut ok = true;
    for v in variants {
        if !v.synonyms.is_empty() {
            cx.error_at(
                v.synonyms[0].span(),
                "`synonym` applies to the values of string enums, not to union variants; remove it",
            );
        }
        let data = match &v.data {
            ast::VariantData::Unit => {
                // An untagged enum of unit variants only is reported once, at `untagged`.
                let all_unit = variants
                    .iter()
                    .all(|v| matches!(v.data, ast::VariantData::Unit));
                if tag.is_none() && !all_unit {
                    cx.error_spanned_by(
                        v.ident,
                        format!("a unit variant of an untagged union has no value to recognise it by; give `{}` data, or make the union tagged", v.ident),
                    );
                }
                VariantData::Unit
            }
            ast::VariantData::Named(fields) => {
                check_field_names(cx, fields);
                for f in fields {
                    if tag.as_deref() == Some(f.json_name.value.as_str()) {
                        cx.error_at(
                            f.json_name.span,
                            format!(
                                "the field `{}` of `{}` is named \"{}\" in JSON, which is the union's tag; rename the field or the tag",
                                f.ident, v.ident, f.json_name.value
                            ),
                        );
                    }
                    refuse_semantic_in_variant(cx, f);
                }
                let checked: Option<Vec<Field>> =
                    fields.iter().map(|f| check_field(cx, f)).collect();
                match checked {
                    Some(fields) => VariantData::Named(fields),
                    None => {
                        ok = false;
                        continue;
                    }
                }
            }
            ast::VariantData::Newtype(field) => {
                refuse_semantic_in_variant(cx, field);
                match check_field(cx, field) {
                    Some(f) => VariantData::Newtype(Box::new(f)),
                    None => {
                        ok = false;
                        continue;
                    }
                }
            }
        };
        out.push(UnionVariant {
            ident: v.ident,
            json_name: v.json_name.value.clone(),
            description: v.description.clone(),
            data,
        });
    }
    if tag.is_none() {
        refuse_indistinct_variants(cx, &out);
    }
    ok.then_some(Union { tag, variants: out })
}

/// What an untagged variant reads, written out: its type, or its fields with their types and
/// constraints. Two variants with the same shape accept exactly the same values, so every call
/// would be `ambiguous_variant`.
fn variant_shape(v: &UnionVariant) -> Option<String> {
    // A newtype's one field has no JSON name of its own: only its type and constraints count.
    let field = |f: &Field, named: bool| {
        let ty = f.ty;
        format!(
            "{}:{}:{}:{:?}:{:?}:{:?}:{:?}:{:?}:{:?}:{:?}:{:?}:{}",
            if named { f.json_name.as_str() } else { "" },
            quote::quote!(#ty),
            f.optional,
            f.min,
            f.max,
            f.pattern.as_ref().map(|p| &p.source),
            f.key_pattern.as_ref().map(|p| &p.source),
            f.min_len,
            f.max_len,
            f.min_items,
            f.max_items,
            f.default.is_some(),
        )
    };
    match &v.data {
        VariantData::Unit => None,
        VariantData::Newtype(f) => Some(format!("newtype {}", field(f, false))),
        VariantData::Named(fields) => {
            let mut shapes: Vec<String> = fields.iter().map(|f| field(f, true)).collect();
            shapes.sort();
            Some(format!("fields {}", shapes.join(",")))
        }
    }
}

/// Refuses an untagged variant that reads exactly what an earlier one reads: no call could
/// ever be told apart, so the union would reject every value either accepts.
fn refuse_indistinct_variants(cx: &Ctxt, variants: &[UnionVariant]) {
    let mut seen: HashMap<String, &UnionVariant> = HashMap::new();
    for v in variants {
        let Some(shape) = variant_shape(v) else {
            continue;
        };
        if let Some(first) = seen.insert(shape, v) {
            cx.error_spanned_by(
                v.ident,
                format!(
                    "`{}` reads exactly the values `{}` reads, so no call could be told apart and every one would be rejected as ambiguous_variant; give them different shapes, or make the union tagged",
                    v.ident, first.ident
                ),
            );
        }
    }
}

/// The semantic gate does not read inside union variants yet: a declaration there would be
/// silently ignored, so it is refused.
fn refuse_semantic_in_variant(cx: &Ctxt, f: &ast::Field) {
    let a = &f.attrs;
    let spans = [
        ("semantic", a.semantic.as_ref().map(|s| s.span)),
        ("critical", a.critical),
    ];
    for (key, span) in spans {
        if let Some(span) = span {
            cx.error_at(
                span,
                format!("`{key}` is not read inside union variants; declare it on a struct field"),
            );
        }
    }
}

fn check_variants(cx: &Ctxt, c: &ast::Container, variants: &[ast::Variant]) {
    // Only an enum written without variants: one whose variants were all refused already
    // has its errors.
    if c.variant_count == 0 {
        cx.error_spanned_by(
            c.ident,
            "an enum without variants accepts no value; add a variant",
        );
    }
    let mut seen: HashMap<String, &ast::Variant> = HashMap::new();
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
fn check_semantic(
    cx: &Ctxt,
    c: &ast::Container,
    fields: &[ast::Field],
    f: &ast::Field,
) -> Option<Option<Semantic>> {
    let a = &f.attrs;
    let field = &f.json_name.value;
    let kind = match &a.semantic {
        None => None,
        Some(semantic) => match SEMANTIC_KINDS.get(&semantic.value) {
            Some(kind) => Some(kind),
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
                return None;
            }
        },
    };
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
    let (Some(kind), Some(semantic)) = (kind, &a.semantic) else {
        return (!misplaced).then_some(None);
    };
    let kind_name = SEMANTIC_KINDS.name(kind);
    match kind {
        SemanticAttr::Money if a.currency.is_none() => cx.error_at(
            semantic.span,
            format!("`semantic = \"money\"` on `{field}` needs its currency: `currency = \"<field>\"` names the field that holds it, `currency = \"USD\"` fixes it"),
        ),
        SemanticAttr::Quantity if a.family.is_none() => cx.error_at(
            semantic.span,
            format!("`semantic = \"quantity\"` on `{field}` needs `family = \"...\"`, the unit family (or use a built-in one: `semantic = \"duration\"`, \"length\", \"mass\", \"data_size\")"),
        ),
        _ => {}
    }
    if quantity && a.unit.is_none() {
        cx.error_at(
            semantic.span,
            format!("`semantic = \"{kind_name}\"` on `{field}` needs its unit: `unit = \"<field>\"` names the field that holds it, `unit = \"hours\"` fixes it"),
        );
    }
    let mut valid = !misplaced;
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

/// Synonyms of enum values: not blank, not a value's own name, and one meaning each.
fn check_synonyms(cx: &Ctxt, variants: &[ast::Variant]) {
    let mut seen: HashMap<String, &ast::Variant> = HashMap::new();
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
