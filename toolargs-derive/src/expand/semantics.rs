//! `ToolArgs::semantics`: the semantic kinds, critical fields and synonyms an item declares,
//! for the semantic gate. Nothing is written when there is nothing to declare, so the trait's
//! empty default stays.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Body, Family, Field, Semantic, Source, Variant};

/// The item's `semantics` function, by shape. A union declares nothing: the gate does not
/// read inside its variants (declarations there are refused when checking).
pub(super) fn tool_semantics(body: &Body) -> TokenStream {
    match body {
        Body::Struct(fields) => struct_semantics(fields),
        Body::Enum(variants) => enum_semantics(variants),
        Body::Union(_) => TokenStream::new(),
        Body::Newtype(field) => {
            let ty = field.ty;
            quote! {
                fn semantics() -> __ta::Semantics {
                    <#ty as __ta::ArgType>::declared_semantics()
                }
            }
        }
    }
}

fn source(source: &Source) -> TokenStream {
    match source {
        Source::Field(name) => quote!(__ta::Source::Field(::std::string::String::from(#name))),
        Source::Fixed(value) => quote!(__ta::Source::Fixed(::std::string::String::from(#value))),
    }
}

fn semantic_kind(semantic: &Semantic) -> TokenStream {
    match semantic {
        Semantic::Money {
            currency,
            minor_units,
        } => {
            let currency = source(currency);
            quote!(__ta::SemanticKind::money(#currency, #minor_units))
        }
        Semantic::Date => quote!(__ta::SemanticKind::Date),
        Semantic::DateTime => quote!(__ta::SemanticKind::DateTime),
        Semantic::Entity { kind } => {
            quote!(__ta::SemanticKind::entity(#kind))
        }
        Semantic::Quantity { family, unit } => {
            let family = match family {
                Family::Builtin(builtin) => builtin.name(),
                Family::Custom(name) => name.as_str(),
            };
            let unit = source(unit);
            quote!(__ta::SemanticKind::quantity(#family, #unit))
        }
    }
}

/// `ToolArgs::semantics` for a struct: the declared kinds, critical fields, and the
/// declarations of nested derived types. Nothing when there is nothing to declare.
fn struct_semantics(fields: &[Field]) -> TokenStream {
    let mut steps = Vec::new();
    for f in fields {
        let name = f.json_name.as_str();
        if let Some(semantic) = &f.semantic {
            let kind = semantic_kind(semantic);
            steps.push(quote!(let s = s.declare(#name, #kind);));
        }
        if f.critical {
            steps.push(quote!(let s = s.critical(#name);));
        }
        if f.nested {
            let ty = f.ty;
            steps.push(
                quote!(let s = s.nested(#name, <#ty as __ta::ArgType>::declared_semantics());),
            );
        }
    }
    if steps.is_empty() {
        return TokenStream::new();
    }
    quote! {
        fn semantics() -> __ta::Semantics {
            let s = __ta::Semantics::new();
            #(#steps)*
            s
        }
    }
}

/// `ToolArgs::semantics` for an enum: its synonyms.
fn enum_semantics(variants: &[Variant]) -> TokenStream {
    let pairs: Vec<TokenStream> = variants
        .iter()
        .flat_map(|v| {
            let value = v.json_name.as_str();
            v.synonyms
                .iter()
                .map(move |synonym| quote!(let s = s.alias(#synonym, #value);))
        })
        .collect();
    if pairs.is_empty() {
        return TokenStream::new();
    }
    quote! {
        fn semantics() -> __ta::Semantics {
            let s = __ta::Semantics::new();
            #(#pairs)*
            s
        }
    }
}
