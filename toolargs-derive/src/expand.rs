//! Writes the `ArgType` and `ToolArgs` impls from the checked model. The generated code only
//! wires the runtime's coercers together; it contains no policy of its own.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned, ToTokens};

use crate::model::{
    Body, Bound, DefaultValue, EffectAttr, Family, Field, Semantic, Source, Tool, Union,
    UnknownAttr, Variant, VariantData,
};

/// The facade's hidden module the generated code goes through. Versioned, so code generated
/// by one version of the macro never links against another version's helpers.
pub fn private_path() -> TokenStream {
    quote!(::toolargs::__private_0_1)
}

pub fn expand(tool: &Tool) -> TokenStream {
    let private = private_path();
    let body = match &tool.body {
        Body::Struct(fields) => expand_struct(tool, fields),
        Body::Enum(variants) => expand_enum(tool, variants),
        Body::Newtype(field) => expand_newtype(tool, field),
        Body::Union(union) => expand_union(tool, union),
    };
    let ident = tool.ident;
    let name = &tool.name;
    let description = option_str(tool.description.as_deref());
    let effect = match tool.effect {
        EffectAttr::ReadOnly => quote!(__ta::Effect::ReadOnly),
        EffectAttr::Additive => quote!(__ta::Effect::Additive),
        EffectAttr::Destructive => quote!(__ta::Effect::Destructive),
        EffectAttr::External => quote!(__ta::Effect::External),
    };
    let unknown = match tool.unknown {
        Some(UnknownAttr::Reject) => quote!(__ta::UnknownPolicy::Reject),
        Some(UnknownAttr::Strip) => quote!(__ta::UnknownPolicy::Strip),
        None => quote!(__ta::Effect::default_unknown_policy(#effect)),
    };
    let object = matches!(tool.body, Body::Struct(_));
    let semantics = match &tool.body {
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
    };
    quote! {
        const _: () = {
            use #private as __ta;
            #body
            #[automatically_derived]
            impl __ta::ToolArgs for #ident {
                const NAME: &'static str = #name;
                const DESCRIPTION: ::core::option::Option<&'static str> = #description;
                const EFFECT: __ta::Effect = #effect;
                const UNKNOWN: __ta::UnknownPolicy = #unknown;
                const OBJECT: bool = #object;
                #semantics
            }
            // `Deserialize` and `JsonSchema`, when the facade's `serde` and `schemars` features
            // are on; nothing otherwise.
            __ta::impl_serde!(#ident);
            __ta::impl_schemars!(#ident);
        };
    }
}

fn option_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

/// `Some(v)` tokens for a value that is present.
fn some(value: impl quote::ToTokens) -> TokenStream {
    quote!(::core::option::Option::Some(#value))
}

fn bound(bound: Option<Bound>) -> TokenStream {
    match bound {
        Some(Bound::Int(v)) => some(quote!(__ta::Bound::Int(#v))),
        Some(Bound::Float(v)) => some(quote!(__ta::Bound::Float(#v))),
        None => quote!(::core::option::Option::None),
    }
}

fn size(n: Option<usize>) -> TokenStream {
    match n {
        Some(v) => some(v),
        None => quote!(::core::option::Option::None),
    }
}

/// The field's `FieldSpec` and default, as two functions next to the impl. Only the
/// constraints the field declares are written.
fn field_helpers(
    f: &Field,
    owner: &syn::Ident,
    spec_fn: &syn::Ident,
    default_fn: Option<&syn::Ident>,
) -> TokenStream {
    let strict = if f.strict {
        quote!(true)
    } else {
        quote!(parent.strict)
    };
    let mut spec = quote!(__ta::FieldSpec::new().with_strict(#strict));
    if f.min.is_some() || f.max.is_some() {
        let (min, max) = (bound(f.min), bound(f.max));
        spec.extend(quote!(.with_bounds(#min, #max)));
    }
    if let Some(pattern) = &f.pattern {
        let source = &pattern.source;
        spec.extend(quote!(.with_pattern({
            static PATTERN: __ta::LazyLock<__ta::Pattern> =
                __ta::LazyLock::new(|| __ta::pattern(#source));
            ::core::option::Option::Some(&*PATTERN)
        })));
    }
    if let Some(pattern) = &f.key_pattern {
        let source = &pattern.source;
        spec.extend(quote!(.with_key_pattern({
            static KEY_PATTERN: __ta::LazyLock<__ta::Pattern> =
                __ta::LazyLock::new(|| __ta::pattern(#source));
            ::core::option::Option::Some(&*KEY_PATTERN)
        })));
    }
    if f.min_len.is_some() || f.max_len.is_some() {
        let (min, max) = (size(f.min_len), size(f.max_len));
        spec.extend(quote!(.with_length(#min, #max)));
    }
    if f.min_items.is_some() || f.max_items.is_some() {
        let (min, max) = (size(f.min_items), size(f.max_items));
        spec.extend(quote!(.with_items(#min, #max)));
    }
    // The helpers sit outside the impl, where a field written `Vec<Self>` must name the type.
    let ty = without_self(f.ty.to_token_stream(), owner);
    let default = match &f.default {
        None => quote!(::core::option::Option::None),
        // The call carries the key's span and takes its type from the `fn() -> #ty` it is
        // coerced to, so a missing `Default` impl is reported at `default`.
        Some(DefaultValue::Trait(span)) => {
            let call = quote_spanned!(*span=> ::core::default::Default::default());
            some(quote!(|| #call))
        }
        Some(DefaultValue::Str(s)) => some(quote!(|| ::std::string::String::from(#s))),
        Some(DefaultValue::Expr(expr)) => some(quote!(|| #expr)),
    };
    let checks = f.trait_checks.iter().map(|check| {
        let constant = format_ident!("{}", check.constant);
        let message = &check.message;
        quote_spanned! {check.span=>
            const _: () = ::core::assert!(<#ty as __ta::ArgType>::HONOURS.#constant, #message);
        }
    });
    let default_fn = default_fn.map(|default_fn| {
        quote! {
            fn #default_fn() -> ::core::option::Option<fn() -> #ty> {
                #default
            }
        }
    });
    quote! {
        #(#checks)*
        fn #spec_fn(parent: &__ta::FieldSpec<'_>) -> __ta::FieldSpec<'static> {
            #spec
        }
        #default_fn
    }
}

fn expand_struct(tool: &Tool, fields: &[Field]) -> TokenStream {
    let ident = tool.ident;
    let count = fields.len();
    let json_names: Vec<&str> = fields.iter().map(|f| f.json_name.as_str()).collect();
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

    let helpers = fields
        .iter()
        .zip(spec_fns.iter().zip(&default_fns))
        .map(|(f, (spec_fn, default_fn))| field_helpers(f, ident, spec_fn, Some(default_fn)));

    let canonical_inserts = fields.iter().map(|f| {
        let (fi, name) = (f.ident, &f.json_name);
        if f.optional {
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

    let properties = fields
        .iter()
        .enumerate()
        .map(|(i, f)| property(f, &spec_fns[i], &default_fns[i]));
    let struct_description = option_str(tool.description.as_deref());
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
                __ta::defined::<Self>(#ident_name, || {
                    __ta::object_schema(#struct_description, ::std::vec![#(#properties),*])
                })
            }

            fn declared_semantics() -> __ta::Semantics {
                __ta::declared::<Self>(<Self as __ta::ToolArgs>::semantics)
            }
        }
    }
}

/// A one-field tuple struct: the inner type's impl under the field's constraints, and the
/// inner schema with them (plus the type's description). Constraints written where the
/// newtype is used are not honoured (only `scalar_to_list` is forwarded), since the newtype
/// states its own.
fn expand_newtype(tool: &Tool, f: &Field) -> TokenStream {
    let ident = tool.ident;
    let ty = f.ty;
    let spec_fn = format_ident!("__spec_inner");
    let ident_name = ident.to_string();
    let helpers = field_helpers(f, ident, &spec_fn, None);
    let describe = tool.description.as_deref().map(|d| {
        quote! {
            if let ::core::option::Option::Some(map) = schema.as_object_mut() {
                map.insert(::std::string::String::from("description"), __ta::Value::from(#d));
            }
        }
    });
    quote! {
        #helpers

        #[automatically_derived]
        impl __ta::ArgType for #ident {
            const HONOURS: __ta::Capabilities = __ta::Capabilities::NONE
                .with_scalar_to_list(<#ty as __ta::ArgType>::HONOURS.scalar_to_list);

            fn coerce(
                node: &__ta::Node<'_>,
                spec: &__ta::FieldSpec<'_>,
                path: &__ta::Path<'_>,
                cx: &mut __ta::Cx,
            ) -> ::core::option::Option<Self> {
                <#ty as __ta::ArgType>::coerce(node, &#spec_fn(spec), path, cx).map(Self)
            }

            fn canonical(&self) -> __ta::Value {
                <#ty as __ta::ArgType>::canonical(&self.0)
            }

            fn schema(spec: &__ta::FieldSpec<'_>) -> __ta::Value {
                __ta::defined::<Self>(#ident_name, || {
                    #[allow(unused_mut)]
                    let mut schema = <#ty as __ta::ArgType>::schema(&#spec_fn(spec));
                    #describe
                    schema
                })
            }

            fn item_schema(spec: &__ta::FieldSpec<'_>) -> __ta::Value {
                let mut schema = <#ty as __ta::ArgType>::item_schema(&#spec_fn(spec));
                #describe
                schema
            }

            fn when_absent() -> ::core::option::Option<Self> {
                <#ty as __ta::ArgType>::when_absent().map(Self)
            }

            fn declared_semantics() -> __ta::Semantics {
                __ta::declared::<Self>(<#ty as __ta::ArgType>::declared_semantics)
            }
        }
    }
}

fn expand_enum(tool: &Tool, variants: &[Variant]) -> TokenStream {
    let ident = tool.ident;
    let names: Vec<&str> = variants.iter().map(|v| v.json_name.as_str()).collect();
    let idents: Vec<_> = variants.iter().map(|v| v.ident).collect();
    let description = tool.description.as_deref().map(|d| {
        quote! {
            if let ::core::option::Option::Some(map) = schema.as_object_mut() {
                map.insert(::std::string::String::from("description"), __ta::Value::from(#d));
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl __ta::ArgType for #ident {
            const HONOURS: __ta::Capabilities = __ta::Capabilities::NONE.with_scalar_to_list(true);

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

            fn declared_semantics() -> __ta::Semantics {
                <Self as __ta::ToolArgs>::semantics()
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

/// An enum with data. The tag and the choice of variant are the runtime's (`tagged`,
/// `untagged`); each variant is read here as a newtype or as a struct's fields.
fn expand_union(tool: &Tool, union: &Union) -> TokenStream {
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
        let vident = v.ident;
        let name = v.json_name.as_str();
        let variant_description = option_str(v.description.as_deref());
        let tag_insert = tag.map(|tag| {
            quote! {
                map.insert(::std::string::String::from(#tag), __ta::Value::from(#name));
            }
        });
        let tag_property = tag.map(
            |tag| quote!(__ta::Property::new(#tag, __ta::tag_schema(#name)).with_required(true),),
        );
        match &v.data {
            VariantData::Unit => {
                readers.push(read_named(tag, &[], &[], &[], quote!(Self::#vident)));
                canonicals.push(quote! {
                    Self::#vident => {
                        let mut map = __ta::Map::new();
                        #tag_insert
                        __ta::Value::Object(map)
                    }
                });
                schemas.push(quote!(__ta::object_schema(
                    #variant_description,
                    ::std::vec![#tag_property]
                )));
            }
            VariantData::Newtype(f) => {
                let ty = f.ty;
                let spec_fn = format_ident!("__spec_v{}", vi);
                helpers.push(field_helpers(f, ident, &spec_fn, None));
                readers.push(quote! {
                    <#ty as __ta::ArgType>::coerce(node, &#spec_fn(spec), path, cx).map(Self::#vident)
                });
                canonicals.push(quote!(Self::#vident(inner) => __ta::ArgType::canonical(inner)));
                let describe = v.description.as_deref().map(|d| {
                    quote! {
                        if let ::core::option::Option::Some(map) = schema.as_object_mut() {
                            map.insert(::std::string::String::from("description"), __ta::Value::from(#d));
                        }
                    }
                });
                schemas.push(quote!({
                    #[allow(unused_mut)]
                    let mut schema = <#ty as __ta::ArgType>::schema(&#spec_fn(spec));
                    #describe
                    schema
                }));
            }
            VariantData::Named(fields) => {
                let spec_fns: Vec<_> = fields
                    .iter()
                    .map(|f| format_ident!("__spec_v{}_{}", vi, f.ident))
                    .collect();
                let default_fns: Vec<_> = fields
                    .iter()
                    .map(|f| format_ident!("__default_v{}_{}", vi, f.ident))
                    .collect();
                for (f, (s, d)) in fields.iter().zip(spec_fns.iter().zip(&default_fns)) {
                    helpers.push(field_helpers(f, ident, s, Some(d)));
                }
                let idents: Vec<_> = fields.iter().map(|f| f.ident).collect();
                let locals: Vec<_> = fields
                    .iter()
                    .map(|f| format_ident!("__f_{}", f.ident))
                    .collect();
                readers.push(read_named(
                    tag,
                    fields,
                    &spec_fns,
                    &default_fns,
                    quote!(Self::#vident { #(#idents: #locals?,)* }),
                ));
                let inserts = fields.iter().zip(&locals).map(|(f, local)| {
                    let name = &f.json_name;
                    if f.optional {
                        quote! {
                            if let ::core::option::Option::Some(value) = #local {
                                map.insert(::std::string::String::from(#name), __ta::ArgType::canonical(value));
                            }
                        }
                    } else {
                        quote! {
                            map.insert(::std::string::String::from(#name), __ta::ArgType::canonical(#local));
                        }
                    }
                });
                canonicals.push(quote! {
                    Self::#vident { #(#idents: #locals,)* } => {
                        let mut map = __ta::Map::new();
                        #tag_insert
                        #(#inserts)*
                        __ta::Value::Object(map)
                    }
                });
                let properties = fields
                    .iter()
                    .zip(spec_fns.iter().zip(&default_fns))
                    .map(|(f, (s, d))| property(f, s, d));
                schemas.push(quote!(__ta::object_schema(
                    #variant_description,
                    ::std::vec![#tag_property #(#properties),*]
                )));
            }
        }
    }
    let indexes = 0..union.variants.len();
    let choose = match tag {
        Some(tag) => quote! {
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

/// Reads a variant's fields from an object, as a struct reads its own; the tag key, when
/// there is one, was read already and is skipped. Untagged variants find their members here.
fn read_named(
    tag: Option<&str>,
    fields: &[Field],
    spec_fns: &[syn::Ident],
    default_fns: &[syn::Ident],
    build: TokenStream,
) -> TokenStream {
    let count = fields.len();
    let json_names: Vec<&str> = fields.iter().map(|f| f.json_name.as_str()).collect();
    let known = tag.into_iter().chain(json_names.iter().copied());
    let tys: Vec<_> = fields.iter().map(|f| f.ty).collect();
    let locals: Vec<_> = fields
        .iter()
        .map(|f| format_ident!("__f_{}", f.ident))
        .collect();
    let indexes: Vec<usize> = (0..count).collect();
    let members = match tag {
        Some(_) => quote!(members),
        None => quote!(__ta::object_members(node, path, cx)?),
    };
    let skip_tag = tag.map(|tag| quote!(#tag => {}));
    if count == 0 {
        return quote! {{
            const KNOWN: &[&str] = &[#(#known),*];
            for (key, value) in #members {
                match ::core::convert::AsRef::<str>::as_ref(key) {
                    #skip_tag
                    other => __ta::unknown_member(other, value, KNOWN, path, cx),
                }
            }
            ::core::option::Option::Some(#build)
        }};
    }
    quote! {{
        const KNOWN: &[&str] = &[#(#known),*];
        let mut slots: [::core::option::Option<&__ta::Node<'_>>; #count] = [::core::option::Option::None; #count];
        for (key, value) in #members {
            match ::core::convert::AsRef::<str>::as_ref(key) {
                #skip_tag
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
        ::core::option::Option::Some(#build)
    }}
}

/// One field's `Property` in an object schema.
fn property(f: &Field, spec_fn: &syn::Ident, default_fn: &syn::Ident) -> TokenStream {
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

/// `tokens` with every `Self` replaced by `owner`.
fn without_self(tokens: TokenStream, owner: &syn::Ident) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    tokens
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Ident(i) if i == "Self" => {
                let mut named = owner.clone();
                named.set_span(i.span());
                TokenTree::Ident(named)
            }
            TokenTree::Group(g) => {
                let mut inner = Group::new(g.delimiter(), without_self(g.stream(), owner));
                inner.set_span(g.span());
                TokenTree::Group(inner)
            }
            other => other,
        })
        .collect()
}
