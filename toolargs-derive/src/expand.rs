//! Writes the `ArgType` and `ToolArgs` impls for a checked model. The generated code only
//! wires the runtime's coercers together; it contains no policy of its own.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::{Expr, ExprLit, Lit};

use crate::ast::{Body, Container, Field, Variant};
use crate::attr::{DefaultAttr, Number};
use crate::check::{family_of, named, Named};
use crate::ty::{self, Kind};

pub fn expand(c: &Container) -> TokenStream {
    let body = match &c.body {
        Body::Struct(fields) => expand_struct(c, fields),
        Body::Enum(variants) => expand_enum(c, variants),
    };
    let ident = c.ident;
    let name = &c.name.value;
    let description = option_str(c.description.as_deref());
    let effect = match c.attrs.effect.as_ref().map(|e| e.value.as_str()) {
        Some("read_only") => quote!(__ta::Effect::ReadOnly),
        Some("additive") => quote!(__ta::Effect::Additive),
        Some("external") => quote!(__ta::Effect::External),
        _ => quote!(__ta::Effect::Destructive),
    };
    let unknown = match c.attrs.unknown.as_ref().map(|u| u.value.as_str()) {
        Some("strip") => quote!(__ta::UnknownPolicy::Strip),
        Some(_) => quote!(__ta::UnknownPolicy::Reject),
        None => quote!(__ta::Effect::default_unknown_policy(#effect)),
    };
    let object = matches!(c.body, Body::Struct(_));
    let semantics = match &c.body {
        Body::Struct(fields) => struct_semantics(fields),
        Body::Enum(variants) => enum_semantics(variants),
    };
    quote! {
        const _: () = {
            use ::toolargs::__private as __ta;
            #body
            impl __ta::ToolArgs for #ident {
                const NAME: &'static str = #name;
                const DESCRIPTION: ::core::option::Option<&'static str> = #description;
                const EFFECT: __ta::Effect = #effect;
                const UNKNOWN: __ta::UnknownPolicy = #unknown;
                const OBJECT: bool = #object;
                #semantics
            }
        };
    }
}

fn option_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

fn bound(n: &Option<crate::attr::Spanned<Number>>) -> TokenStream {
    match n.as_ref().map(|n| n.value) {
        Some(Number::Int(v)) => quote!(::core::option::Option::Some(__ta::Bound::Int(#v))),
        Some(Number::Float(v)) => quote!(::core::option::Option::Some(__ta::Bound::Float(#v))),
        None => quote!(::core::option::Option::None),
    }
}

fn size(n: &Option<crate::attr::Spanned<usize>>) -> TokenStream {
    match n.as_ref().map(|n| n.value) {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

fn expand_struct(c: &Container, fields: &[Field]) -> TokenStream {
    let ident = c.ident;
    let count = fields.len();
    let json_names: Vec<&str> = fields.iter().map(|f| f.json_name.value.as_str()).collect();
    let locals: Vec<_> = fields
        .iter()
        .map(|f| format_ident!("__f_{}", f.ident))
        .collect();
    let spec_fns: Vec<_> = fields
        .iter()
        .map(|f| format_ident!("__spec_{}", f.ident))
        .collect();
    let default_fns: Vec<_> = fields
        .iter()
        .map(|f| format_ident!("__default_{}", f.ident))
        .collect();
    let field_idents: Vec<_> = fields.iter().map(|f| f.ident).collect();
    let tys: Vec<_> = fields.iter().map(|f| f.ty).collect();
    let indexes: Vec<usize> = (0..count).collect();

    let mut helpers = TokenStream::new();
    for (i, f) in fields.iter().enumerate() {
        let a = &f.attrs;
        let spec_fn = &spec_fns[i];
        let strict = a.strict.is_some();
        let (min, max) = (bound(&a.min), bound(&a.max));
        let (min_len, max_len) = (size(&a.min_len), size(&a.max_len));
        let (min_items, max_items) = (size(&a.min_items), size(&a.max_items));
        let pattern = match &a.pattern {
            Some(lit) => {
                let source = lit.value();
                quote! {{
                    static PATTERN: __ta::LazyLock<__ta::Pattern> =
                        __ta::LazyLock::new(|| __ta::pattern(#source));
                    ::core::option::Option::Some(&*PATTERN)
                }}
            }
            None => quote!(::core::option::Option::None),
        };
        helpers.extend(quote! {
            fn #spec_fn(parent: &__ta::FieldSpec<'_>) -> __ta::FieldSpec<'static> {
                __ta::FieldSpec {
                    strict: parent.strict || #strict,
                    min: #min,
                    max: #max,
                    pattern: #pattern,
                    min_len: #min_len,
                    max_len: #max_len,
                    min_items: #min_items,
                    max_items: #max_items,
                }
            }
        });
        let ty = f.ty;
        let default_fn = &default_fns[i];
        let default_body = match &a.default {
            None => None,
            // The call carries the key's span and takes its type from the `fn() -> #ty` it is
            // coerced to, so a missing `Default` impl is reported at `default`.
            Some(DefaultAttr::Trait(span)) => {
                Some(quote_spanned!(*span=> ::core::default::Default::default()))
            }
            Some(DefaultAttr::Expr(expr)) => Some(default_expr(expr, f)),
        };
        helpers.extend(match default_body {
            Some(body) => quote! {
                fn #default_fn() -> ::core::option::Option<fn() -> #ty> {
                    ::core::option::Option::Some(|| #body)
                }
            },
            None => quote! {
                fn #default_fn() -> ::core::option::Option<fn() -> #ty> {
                    ::core::option::Option::None
                }
            },
        });
    }

    let canonical_inserts = fields.iter().zip(&json_names).map(|(f, name)| {
        let fi = f.ident;
        if f.kind.as_ref().is_some_and(Kind::is_optional) {
            quote! {
                if let ::core::option::Option::Some(value) = &self.#fi {
                    map.insert(::std::string::String::from(#name), __ta::ArgType::canonical(value));
                }
            }
        } else {
            quote! {
                map.insert(::std::string::String::from(#name), __ta::ArgType::canonical(&self.#fi));
            }
        }
    });

    let properties = fields.iter().enumerate().map(|(i, f)| {
        let name = &json_names[i];
        let ty = f.ty;
        let spec_fn = &spec_fns[i];
        let default_fn = &default_fns[i];
        let description = option_str(f.description.as_deref());
        let required = f.attrs.default.is_none() && !f.kind.as_ref().is_some_and(Kind::is_optional);
        quote! {
            __ta::Property {
                name: #name,
                schema: <#ty as __ta::ArgType>::schema(&#spec_fn(spec)),
                description: #description,
                required: #required,
                default: #default_fn().map(|make| __ta::ArgType::canonical(&make())),
            }
        }
    });
    let struct_description = option_str(c.description.as_deref());

    quote! {
        #helpers

        impl __ta::ArgType for #ident {
            fn coerce(
                node: &__ta::Node<'_>,
                spec: &__ta::FieldSpec<'_>,
                path: &__ta::Path<'_>,
                cx: &mut __ta::Cx,
            ) -> ::core::option::Option<Self> {
                const KNOWN: &[&str] = &[#(#json_names),*];
                let members = __ta::object_members(node, path, cx)?;
                let mut slots: [::core::option::Option<&__ta::Node<'_>>; #count] = [::core::option::Option::None; #count];
                for (key, value) in members {
                    match ::core::convert::AsRef::<str>::as_ref(key) {
                        #(#json_names => slots[#indexes] = ::core::option::Option::Some(value),)*
                        other => __ta::unknown_member(other, value, KNOWN, path, cx),
                    }
                }
                #(
                    let #locals = __ta::field::<#tys>(
                        slots[#indexes],
                        &#spec_fns(spec),
                        &path.key(#json_names),
                        cx,
                        #default_fns(),
                    );
                )*
                ::core::option::Option::Some(Self {
                    #(#field_idents: #locals?,)*
                })
            }

            fn canonical(&self) -> __ta::Value {
                let mut map = __ta::Map::new();
                #(#canonical_inserts)*
                __ta::Value::Object(map)
            }

            fn schema(spec: &__ta::FieldSpec<'_>) -> __ta::Value {
                __ta::object_schema(#struct_description, ::std::vec![#(#properties),*])
            }
        }
    }
}

/// `default = "text"` on a String field is written as `String::from("text")`; any other
/// expression is used as written.
fn default_expr(expr: &Expr, f: &Field) -> TokenStream {
    let is_string = matches!(f.kind, Some(Kind::String));
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) if is_string => {
            quote!(::std::string::String::from(#s))
        }
        other => quote!(#other),
    }
}

fn expand_enum(c: &Container, variants: &[Variant]) -> TokenStream {
    let ident = c.ident;
    let names: Vec<&str> = variants
        .iter()
        .map(|v| v.json_name.value.as_str())
        .collect();
    let idents: Vec<_> = variants.iter().map(|v| v.ident).collect();
    let description = c.description.as_deref().map(|d| {
        quote! {
            if let ::core::option::Option::Some(map) = schema.as_object_mut() {
                map.insert(::std::string::String::from("description"), __ta::Value::from(#d));
            }
        }
    });
    quote! {
        impl __ta::ArgType for #ident {
            const SCALAR_TO_LIST: bool = true;

            fn coerce(
                node: &__ta::Node<'_>,
                spec: &__ta::FieldSpec<'_>,
                path: &__ta::Path<'_>,
                cx: &mut __ta::Cx,
            ) -> ::core::option::Option<Self> {
                const NAMES: &[&str] = &[#(#names),*];
                let index = __ta::coerce_enum(node, NAMES, spec, path, cx)?;
                [#(Self::#idents),*].into_iter().nth(index)
            }

            fn canonical(&self) -> __ta::Value {
                __ta::Value::from(match self {
                    #(Self::#idents => #names,)*
                })
            }

            fn schema(_spec: &__ta::FieldSpec<'_>) -> __ta::Value {
                let mut schema = __ta::enum_schema(&[#(#names),*]);
                #description
                schema
            }
        }
    }
}

/// `ToolArgs::semantics` for a struct: the declared kinds, critical fields, and the
/// declarations of nested derived types. Nothing when there is nothing to declare.
fn struct_semantics(fields: &[Field]) -> TokenStream {
    let mut steps = Vec::new();
    for f in fields {
        let name = f.json_name.value.as_str();
        let a = &f.attrs;
        let source = |lit: &Option<syn::LitStr>, key: &str| {
            let value = lit.as_ref().map(syn::LitStr::value).unwrap_or_default();
            match named(fields, f, &value, key) {
                Named::Field(sibling) => {
                    let sibling = sibling.json_name.value.as_str();
                    quote!(__ta::Source::Field(::std::string::String::from(#sibling)))
                }
                _ => quote!(__ta::Source::Fixed(::std::string::String::from(#value))),
            }
        };
        if let Some(semantic) = &a.semantic {
            let kind = match semantic.value.as_str() {
                "money" => {
                    let currency = source(&a.currency, "currency");
                    let minor = a.minor_units.is_some();
                    quote!(__ta::SemanticKind::Money { currency: #currency, minor_units: #minor })
                }
                "date" => quote!(__ta::SemanticKind::Date),
                "datetime" => quote!(__ta::SemanticKind::DateTime),
                "entity" => {
                    let entity = a
                        .entity
                        .as_ref()
                        .map_or_else(|| name.to_owned(), |e| e.value());
                    quote!(__ta::SemanticKind::Entity { kind: ::std::string::String::from(#entity) })
                }
                _ => {
                    let family = family_of(f).unwrap_or_default();
                    let unit = source(&a.unit, "unit");
                    quote!(__ta::SemanticKind::Quantity {
                        family: ::std::string::String::from(#family),
                        unit: #unit,
                    })
                }
            };
            steps.push(quote!(let s = s.declare(#name, #kind);));
        }
        if a.critical.is_some() {
            steps.push(quote!(let s = s.critical(#name);));
        }
        if matches!(f.kind.as_ref().map(Kind::leaf), Some(Kind::Derived)) {
            let leaf = ty::leaf_type(f.ty);
            steps.push(quote!(let s = s.nested(#name, <#leaf as __ta::ToolArgs>::semantics());));
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
            let value = v.json_name.value.as_str();
            v.synonyms.iter().map(move |synonym| {
                let synonym = synonym.value();
                quote!(let s = s.alias(#synonym, #value);)
            })
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
