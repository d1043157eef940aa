//! Turns the parsed item into the checked model ([`crate::model`]): names become enums,
//! bounds are checked against the Rust type's range, patterns are compiled in both regex
//! dialects, semantic sources are resolved, and names are checked for collisions. Every
//! problem is recorded in the [`Ctxt`]; the model is only expanded when there are none.
//!
//! This module walks the item; the checks live by concern in its submodules: the container's
//! keys, a field's keys (its bounds, patterns and default), union and enum variants, and
//! semantic declarations.

mod bounds;
mod container;
mod default;
mod field;
mod pattern;
mod semantic;
mod union;
mod variants;

use syn::LitStr;

use crate::ast;
use crate::ctxt::Ctxt;
use crate::model::{Body, EffectAttr, Field, Semantic, Tool, Variant};
use container::{check_newtype, effect, tool_name, unknown_policy};
use field::{check_field, check_field_names};
use semantic::check_semantic;
use union::check_union;
use variants::{check_synonyms, check_variants};

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
