//! A one-field tuple struct, read as its field.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::fields::field_helpers;
use super::schema::describe;
use crate::model::{Field, Tool};

/// The inner type's impl under the field's constraints, and the inner schema with them (plus
/// the type's description). Constraints written where the newtype is used are not honoured
/// (only `scalar_to_list` is forwarded), since the newtype states its own.
pub(super) fn expand_newtype(tool: &Tool, f: &Field) -> TokenStream {
    let ident = tool.ident;
    let ty = f.ty;
    let spec_fn = format_ident!("__spec_inner");
    let ident_name = ident.to_string();
    let helpers = field_helpers(f, ident, &spec_fn, None);
    let describe = describe(tool.description.as_deref());
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
