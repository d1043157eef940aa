//! The container's own keys: the tool name providers accept, the `unknown` policy, the
//! declared effect, and the keys a newtype cannot take.

use syn::LitStr;

use super::UNDECLARED_EFFECT;
use crate::ast;
use crate::attr::DefaultAttr;
use crate::ctxt::Ctxt;
use crate::model::{EffectAttr, UnknownAttr};
use crate::vocabulary::{EFFECTS, UNKNOWN_POLICIES};

/// What a newtype cannot take: keys of an object (`unknown`) and keys that name a field of
/// one (`rename`, `default`, the semantic keys). Its field's doc comment stays a comment; the
/// type's doc comment is the schema description.
pub(super) fn check_newtype(cx: &Ctxt, c: &ast::Container, f: &ast::Field) {
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

pub(super) fn tool_name(cx: &Ctxt, c: &ast::Container) -> Option<String> {
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
pub(super) fn unknown_policy(cx: &Ctxt, c: &ast::Container) -> Option<Option<UnknownAttr>> {
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

pub(super) fn effect(cx: &Ctxt, c: &ast::Container) -> Option<EffectAttr> {
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

#[cfg(test)]
mod tests {
    use super::tool_name_problem;

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
}
