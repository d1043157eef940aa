//! Unions (`tag` or `untagged` enums): their variants' fields checked as a struct's, a tag
//! that names no field, and untagged variants that can be told apart.

use std::collections::HashMap;

use super::field::{check_field, check_field_names};
use crate::ast;
use crate::ctxt::Ctxt;
use crate::model::{Field, Union, UnionVariant, VariantData};

/// The variants of a union: their fields checked as a struct's, a tag that names no field,
/// and data in every variant of an untagged union (a unit variant there has nothing to try).
pub(super) fn check_union<'a>(
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
