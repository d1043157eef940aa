//! Fields: each field's `FieldSpec` and default as functions beside the impl, and the one
//! matcher that reads named fields from an object's members, for structs and union variants
//! alike, so both read, report and write back their fields the same way.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::Ident;

use super::{some, without_self};
use crate::model::{Bound, DefaultValue, Field};

/// Named fields with the names of what is generated for them: `__spec_<prefix><field>` and
/// `__default_<prefix><field>` beside the impl, the local `__f_<field>` each is read into.
pub(super) struct NamedFields<'m, 'a> {
    pub fields: &'m [Field<'a>],
    pub spec_fns: Vec<Ident>,
    pub default_fns: Vec<Ident>,
    pub locals: Vec<Ident>,
}

impl<'m, 'a> NamedFields<'m, 'a> {
    /// `prefix` keeps one union variant's helpers apart from another's (`v0_`); a struct
    /// has none.
    pub fn new(fields: &'m [Field<'a>], prefix: &str) -> Self {
        NamedFields {
            fields,
            spec_fns: fields
                .iter()
                .map(|f| format_ident!("__spec_{}{}", prefix, f.ident))
                .collect(),
            default_fns: fields
                .iter()
                .map(|f| format_ident!("__default_{}{}", prefix, f.ident))
                .collect(),
            locals: fields
                .iter()
                .map(|f| format_ident!("__f_{}", f.ident))
                .collect(),
        }
    }

    pub fn json_names(&self) -> Vec<&'m str> {
        self.fields.iter().map(|f| f.json_name.as_str()).collect()
    }

    pub fn idents(&self) -> Vec<&'a Ident> {
        self.fields.iter().map(|f| f.ident).collect()
    }

    /// Every field's spec and default functions; `owner` names the type where a field's type
    /// says `Self`.
    pub fn helpers<'s>(&'s self, owner: &'s Ident) -> impl Iterator<Item = TokenStream> + 's {
        self.fields
            .iter()
            .zip(self.spec_fns.iter().zip(&self.default_fns))
            .map(move |(f, (spec_fn, default_fn))| {
                field_helpers(f, owner, spec_fn, Some(default_fn))
            })
    }

    /// `const KNOWN`: the keys an unknown member is compared with for a did-you-mean, the
    /// tag first when there is one.
    pub fn known(&self, tag: Option<&str>) -> TokenStream {
        let known = tag.into_iter().chain(self.json_names());
        quote!(const KNOWN: &[&str] = &[#(#known),*];)
    }

    /// Matches each of `members` to its field by JSON name (unknown keys go to the unknown
    /// policy; the tag key, when there is one, was read already and is skipped), then reads
    /// every field into its local: `None` when it failed, its error recorded in `cx`.
    pub fn read(&self, tag: Option<&str>, members: TokenStream) -> TokenStream {
        let count = self.fields.len();
        let json_names = self.json_names();
        let tys = self.fields.iter().map(|f| f.ty);
        let (locals, spec_fns, default_fns) = (&self.locals, &self.spec_fns, &self.default_fns);
        let indexes: Vec<usize> = (0..count).collect();
        let skip_tag = tag.map(|tag| quote!(#tag => {}));
        // With no fields there is nothing to hold a member for.
        let slots = (count > 0).then(|| {
            quote! {
                let mut slots: [::core::option::Option<&__ta::Node<'_>>; #count] = [::core::option::Option::None; #count];
            }
        });
        quote! {
            #slots
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
        }
    }

    /// Each field written into `map` for `canonical`, read through `value_of` (a reference
    /// to the field's value); an optional field that is `None` is left out.
    pub fn canonical_inserts<'s>(
        &'s self,
        value_of: impl Fn(usize) -> TokenStream + 's,
    ) -> impl Iterator<Item = TokenStream> + 's {
        self.fields.iter().enumerate().map(move |(i, f)| {
            let (name, value) = (&f.json_name, value_of(i));
            if f.optional {
                quote! {
                    if let ::core::option::Option::Some(value) = #value {
                        map.insert(::std::string::String::from(#name), __ta::ArgType::canonical(value));
                    }
                }
            } else {
                quote! {
                    map.insert(::std::string::String::from(#name), __ta::ArgType::canonical(#value));
                }
            }
        })
    }

    /// Every field's `Property` in the object schema.
    pub fn properties(&self) -> impl Iterator<Item = TokenStream> + '_ {
        self.fields
            .iter()
            .zip(self.spec_fns.iter().zip(&self.default_fns))
            .map(|(f, (spec_fn, default_fn))| super::schema::property(f, spec_fn, default_fn))
    }
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
pub(super) fn field_helpers(
    f: &Field,
    owner: &Ident,
    spec_fn: &Ident,
    default_fn: Option<&Ident>,
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
