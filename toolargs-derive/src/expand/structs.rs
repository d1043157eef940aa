//! A struct with named fields: an object read at once (`ArgType::coerce`) or one member at a
//! time as a stream delivers them (`ToolArgs::member_slots`), both through the same field
//! helpers.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};

use super::fields::NamedFields;
use super::{option_str, reread_object, without_self};
use crate::model::{Field, Tool};

pub(super) fn expand_struct(tool: &Tool, fields: &[Field]) -> TokenStream {
    let named = NamedFields::new(fields, "");
    let helpers = named.helpers(tool.ident);
    let slots = member_slots(tool, &named);
    let arg_type = arg_type(tool, &named);
    quote! {
        #(#helpers)*

        #slots

        #arg_type
    }
}

/// `ToolArgs::member_slots`, in the `ToolArgs` impl: the `__Slots` written beside it.
pub(super) fn member_slots_fn() -> TokenStream {
    quote! {
        fn member_slots() -> ::core::option::Option<
            ::std::boxed::Box<dyn __ta::MemberSlots<Self>>,
        > {
            ::core::option::Option::Some(::std::boxed::Box::new(
                <__Slots as ::core::default::Default>::default(),
            ))
        }
    }
}

/// `__Slots` and its `MemberSlots` impl: each member is read as it arrives, with a collector
/// of its own; the fields never sent are read as absent when the object is assembled.
fn member_slots(tool: &Tool, named: &NamedFields) -> TokenStream {
    let ident = tool.ident;
    let json_names = named.json_names();
    let field_idents = named.idents();
    let (locals, spec_fns, default_fns) = (&named.locals, &named.spec_fns, &named.default_fns);
    // In the slots' own struct `Self` is not the tool's type.
    let slot_tys: Vec<TokenStream> = named
        .fields
        .iter()
        .map(|f| without_self(f.ty.to_token_stream(), ident))
        .collect();
    quote! {
        /// The fields read one member at a time (`ToolArgs::member_slots`): each member's
        /// result with the collector it was read into.
        #[derive(Default)]
        struct __Slots {
            #(#locals: ::core::option::Option<(::core::option::Option<#slot_tys>, __ta::Cx)>,)*
        }

        #[automatically_derived]
        impl __ta::MemberSlots<#ident> for __Slots {
            fn known(&self) -> &'static [&'static str] {
                &[#(#json_names),*]
            }

            fn unknown_policy(&self) -> __ta::UnknownPolicy {
                <#ident as __ta::ToolArgs>::UNKNOWN
            }

            fn read(
                &mut self,
                key: &str,
                value: &__ta::Node<'_>,
                mut cx: __ta::Cx,
            ) -> ::core::result::Result<&[__ta::Cx], __ta::Cx> {
                match key {
                    #(#json_names => {
                        let read = __ta::field::<#slot_tys>(
                            ::core::option::Option::Some(value),
                            &#spec_fns(&__ta::FieldSpec::NONE),
                            &__ta::Path::ROOT.key(#json_names),
                            &mut cx,
                            #default_fns(),
                        );
                        let (_, cx) = self.#locals.insert((read, cx));
                        ::core::result::Result::Ok(::core::slice::from_ref(cx))
                    })*
                    _ => ::core::result::Result::Err(cx),
                }
            }

            fn assemble(
                self: ::std::boxed::Box<Self>,
                cx: &mut __ta::Cx,
            ) -> ::core::option::Option<::core::option::Option<#ident>> {
                let __Slots { #(#locals),* } = *self;
                #(
                    let #locals = match #locals {
                        ::core::option::Option::Some((read, member)) => {
                            cx.absorb(member);
                            read
                        }
                        ::core::option::Option::None => __ta::field::<#slot_tys>(
                            ::core::option::Option::None,
                            &#spec_fns(&__ta::FieldSpec::NONE),
                            &__ta::Path::ROOT.key(#json_names),
                            cx,
                            #default_fns(),
                        ),
                    };
                )*
                ::core::option::Option::Some('__assemble: {
                    #(
                        let ::core::option::Option::Some(#locals) = #locals else {
                            break '__assemble ::core::option::Option::None;
                        };
                    )*
                    ::core::option::Option::Some(#ident {
                        #(#field_idents: #locals,)*
                    })
                })
            }
        }
    }
}

/// The struct's `ArgType` impl: its members matched to its fields, its canonical object and
/// its object schema.
fn arg_type(tool: &Tool, named: &NamedFields) -> TokenStream {
    let ident = tool.ident;
    let field_idents = named.idents();
    let locals = &named.locals;
    let known = named.known(None);
    let reread = reread_object();
    let read = named.read(None, quote!(members));
    let canonical_inserts = named.canonical_inserts(|i| {
        let field = field_idents[i];
        quote!(&self.#field)
    });
    let properties = named.properties();
    let struct_description = option_str(tool.description.as_deref());
    let ident_name = ident.to_string();
    quote! {
        #[automatically_derived]
        impl __ta::ArgType for #ident {
            fn coerce(
                node: &__ta::Node<'_>,
                spec: &__ta::FieldSpec<'_>,
                path: &__ta::Path<'_>,
                cx: &mut __ta::Cx,
            ) -> ::core::option::Option<Self> {
                #known
                #reread
                let members = __ta::object_members(node, path, cx)?;
                #read
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
