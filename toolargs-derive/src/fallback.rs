//! Minimal impls emitted next to compile errors, so the only errors a user sees are ours.
//!
//! The stubs are only ever emitted beside at least one `compile_error!`, so they never end up
//! in a program that builds: [`with_errors`] is the only way to get them.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

/// The errors as `compile_error!` invocations, with stub impls beside them.
///
/// # Panics
/// When `errors` is empty: stubs without an error would compile (a bug in the macro).
pub fn with_errors(input: &DeriveInput, errors: Vec<syn::Error>) -> TokenStream {
    assert!(!errors.is_empty(), "stub impls need an error beside them");
    let compile_errors = errors.iter().map(syn::Error::to_compile_error);
    let stubs = stubs(input);
    quote! { #(#compile_errors)* #stubs }
}

fn stubs(input: &DeriveInput) -> TokenStream {
    let private = crate::expand::private_path(crate::attr::crate_path(&input.attrs).as_ref());
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        const _: () = {
            use #private as __ta;
            #[automatically_derived]
            impl #impl_generics __ta::ArgType for #ident #ty_generics #where_clause {
                fn coerce(
                    _: &__ta::Node<'_>,
                    _: &__ta::FieldSpec<'_>,
                    _: &__ta::Path<'_>,
                    _: &mut __ta::Cx,
                ) -> ::core::option::Option<Self> {
                    ::core::unimplemented!()
                }
                fn canonical(&self) -> __ta::Value {
                    ::core::unimplemented!()
                }
                fn schema(_: &__ta::FieldSpec<'_>) -> __ta::Value {
                    ::core::unimplemented!()
                }
            }
            #[automatically_derived]
            impl #impl_generics __ta::ToolArgs for #ident #ty_generics #where_clause {
                const NAME: &'static str = "";
                const DESCRIPTION: ::core::option::Option<&'static str> = ::core::option::Option::None;
                const EFFECT: __ta::Effect = __ta::Effect::Destructive;
                const UNKNOWN: __ta::UnknownPolicy = __ta::UnknownPolicy::Reject;
                const OBJECT: bool = true;
            }
        };
    }
}
