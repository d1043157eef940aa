//! An enum with data. The tag and the choice of variant are the runtime's (`tagged`,
//! `untagged`); each variant is read here as a newtype, or as its named fields with the
//! matcher a struct uses.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use super::fields::{field_helpers, NamedFields};
use super::schema::describe;
use super::{option_str, reread_object};
use crate::model::{Field, Tool, Union, UnionVariant, VariantData};

/// What one variant adds to the union's impl: the helpers beside it, its arm in `coerce`, in
/// `canonical` and its schema among the union's.
struct VariantParts {
    helpers: Vec<TokenStream>,
    reader: TokenStream,
    canonical: TokenStream,
    schema: TokenStream,
}

pub(super) fn expand_union(tool: &Tool, union: &Union) -> TokenStream {
    let ident = tool.ident;
    let tag = union.tag.as_deref();
    let names: Vec<&str> = union
        .variants
        .iter()
        .map(|v| v.json_name.as_str())
        .collect();
    let mut helpers = Vec::new();
    let mut readers = Vec::new();
    let mut canonicals = Vec::new();
    let mut schemas = Vec::new();
    for (vi, v) in union.variants.iter().enumerate() {
        let parts = match &v.data {
            VariantData::Unit => unit_variant(tag, v),
            VariantData::Newtype(f) => newtype_variant(ident, vi, v, f),
            VariantData::Named(fields) => named_variant(ident, tag, vi, v, fields),
        };
        helpers.extend(parts.helpers);
        readers.push(parts.reader);
        canonicals.push(parts.canonical);
        schemas.push(parts.schema);
    }
    let indexes = 0..union.variants.len();
    let reread = reread_object();
    let choose = match tag {
        Some(tag) => quote! {
            #reread
            let (index, members) = __ta::tagged(node, #tag, NAMES, spec, path, cx)?;
            match index {
                #(#indexes => #readers,)*
                _ => ::core::option::Option::None,
            }
        },
        None => quote! {
            __ta::untagged(NAMES, path, cx, |index, cx| match index {
                #(#indexes => #readers,)*
                _ => ::core::option::Option::None,
            })
        },
    };
    let description = option_str(tool.description.as_deref());
    let ident_name = ident.to_string();
    quote! {
        #(#helpers)*

        #[automatically_derived]
        impl __ta::ArgType for #ident {
            fn coerce(
                node: &__ta::Node<'_>,
                spec: &__ta::FieldSpec<'_>,
                path: &__ta::Path<'_>,
                cx: &mut __ta::Cx,
            ) -> ::core::option::Option<Self> {
                const NAMES: &[&str] = &[#(#names),*];
                #choose
            }

            fn canonical(&self) -> __ta::Value {
                match self {
                    #(#canonicals,)*
                }
            }

            fn schema(spec: &__ta::FieldSpec<'_>) -> __ta::Value {
                __ta::defined::<Self>(#ident_name, || {
                    __ta::union_schema(#description, ::std::vec![#(#schemas),*])
                })
            }
        }
    }
}

/// `map.insert(tag, name)`: a tagged variant's canonical object names it.
fn tag_insert(tag: Option<&str>, name: &str) -> Option<TokenStream> {
    tag.map(|tag| {
        quote! {
            map.insert(::std::string::String::from(#tag), __ta::Value::from(#name));
        }
    })
}

/// The tag's required property in a tagged variant's object schema, its one value the name.
fn tag_property(tag: Option<&str>, name: &str) -> Option<TokenStream> {
    tag.map(|tag| quote!(__ta::Property::new(#tag, __ta::tag_schema(#name)).with_required(true),))
}

/// The variant's members read as a struct reads its own, then `build` from the fields' locals.
/// A tagged union's members were found by `tagged`; an untagged variant finds them here.
fn read_object(named: &NamedFields, tag: Option<&str>, build: TokenStream) -> TokenStream {
    let members = match tag {
        Some(_) => quote!(members),
        None => quote!(__ta::object_members(node, path, cx)?),
    };
    let known = named.known(tag);
    let read = named.read(tag, members);
    quote! {{
        #known
        #read
        ::core::option::Option::Some(#build)
    }}
}

/// A unit variant (tagged unions only): an object of the tag alone.
fn unit_variant(tag: Option<&str>, v: &UnionVariant) -> VariantParts {
    let vident = v.ident;
    let name = v.json_name.as_str();
    let variant_description = option_str(v.description.as_deref());
    let tag_insert = tag_insert(tag, name);
    let tag_property = tag_property(tag, name);
    VariantParts {
        helpers: Vec::new(),
        reader: read_object(&NamedFields::new(&[], ""), tag, quote!(Self::#vident)),
        canonical: quote! {
            Self::#vident => {
                let mut map = __ta::Map::new();
                #tag_insert
                __ta::Value::Object(map)
            }
        },
        schema: quote!(__ta::object_schema(
            #variant_description,
            ::std::vec![#tag_property]
        )),
    }
}

/// `Variant(T)` (untagged unions only): read as `T` under the field's constraints.
fn newtype_variant(owner: &Ident, vi: usize, v: &UnionVariant, f: &Field) -> VariantParts {
    let vident = v.ident;
    let ty = f.ty;
    let spec_fn = format_ident!("__spec_v{}", vi);
    let describe = describe(v.description.as_deref());
    VariantParts {
        helpers: vec![field_helpers(f, owner, &spec_fn, None)],
        reader: quote! {
            <#ty as __ta::ArgType>::coerce(node, &#spec_fn(spec), path, cx).map(Self::#vident)
        },
        canonical: quote!(Self::#vident(inner) => __ta::ArgType::canonical(inner)),
        schema: quote!({
            #[allow(unused_mut)]
            let mut schema = <#ty as __ta::ArgType>::schema(&#spec_fn(spec));
            #describe
            schema
        }),
    }
}

/// `Variant { field: T, ... }`: an object of its fields, beside the tag when there is one.
fn named_variant(
    owner: &Ident,
    tag: Option<&str>,
    vi: usize,
    v: &UnionVariant,
    fields: &[Field],
) -> VariantParts {
    let vident = v.ident;
    let name = v.json_name.as_str();
    let variant_description = option_str(v.description.as_deref());
    let tag_insert = tag_insert(tag, name);
    let tag_property = tag_property(tag, name);
    let named = NamedFields::new(fields, &format!("v{vi}_"));
    let idents = named.idents();
    let locals = &named.locals;
    // The pattern binds each field to its local, a reference to the field's value.
    let inserts = named.canonical_inserts(|i| {
        let local = &locals[i];
        quote!(#local)
    });
    let properties = named.properties();
    VariantParts {
        helpers: named.helpers(owner).collect(),
        reader: read_object(
            &named,
            tag,
            quote!(Self::#vident { #(#idents: #locals?,)* }),
        ),
        canonical: quote! {
            Self::#vident { #(#idents: #locals,)* } => {
                let mut map = __ta::Map::new();
                #tag_insert
                #(#inserts)*
                __ta::Value::Object(map)
            }
        },
        schema: quote!(__ta::object_schema(
            #variant_description,
            ::std::vec![#tag_property #(#properties),*]
        )),
    }
}
