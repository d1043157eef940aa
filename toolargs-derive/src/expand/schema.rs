//! The schema parts shared by the item shapes: a field's `Property` in an object schema, and
//! the type's description set on a schema it takes from another type.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::Field;

/// One field's `Property` in an object schema.
pub(super) fn property(f: &Field, spec_fn: &syn::Ident, default_fn: &syn::Ident) -> TokenStream {
    let name = &f.json_name;
    let ty = f.ty;
    let mut property =
        quote!(__ta::Property::new(#name, <#ty as __ta::ArgType>::schema(&#spec_fn(spec))));
    if let Some(description) = &f.description {
        property.extend(quote!(.with_description(::core::option::Option::Some(#description))));
    }
    if f.default.is_none() && !f.optional {
        property.extend(quote!(.with_required(true)));
    }
    if f.default.is_some() {
        property.extend(
            quote!(.with_default(#default_fn().map(|make| __ta::ArgType::canonical(&make())))),
        );
    }
    property
}

/// Sets `description` on the `schema` in scope, which came from the runtime or an inner
/// type and may carry none; nothing when there is no description.
pub(super) fn describe(description: Option<&str>) -> Option<TokenStream> {
    description.map(|d| {
        quote! {
            if let ::core::option::Option::Some(map) = schema.as_object_mut() {
                map.insert(::std::string::String::from("description"), __ta::Value::from(#d));
            }
        }
    })
}
