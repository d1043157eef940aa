//! Validates the model as a whole: every key against the field's type, bounds against the Rust
//! type's range, regexes in both Rust and JSON Schema dialects, and name collisions.

use std::collections::HashMap;

use syn::{Expr, ExprLit, Lit};

use crate::ast::{Body, Container, Field, Variant};
use crate::attr::{self, DefaultAttr, Number};
use crate::ctxt::Ctxt;
use crate::ecma;
use crate::ty::{self, Kind};

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
