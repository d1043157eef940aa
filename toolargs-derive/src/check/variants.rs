//! The variants of an enum, string or union: names that differ even ignoring ASCII case, and
//! the synonyms of string values.

use std::collections::HashMap;

use crate::ast;
use crate::ctxt::Ctxt;

pub(super) fn check_variants(cx: &Ctxt, c: &ast::Container, variants: &[ast::Variant]) {
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

/// Synonyms of enum values: not blank, not a value's own name, and one meaning each.
pub(super) fn check_synonyms(cx: &Ctxt, variants: &[ast::Variant]) {
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
