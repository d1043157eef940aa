//! A fieldless enum: a string enum whose values are the variants' JSON names.

use proc_macro2::TokenStream;
use quote::quote;

use super::schema::describe;
use crate::model::{Tool, Variant};

pub(super) fn expand_enum(tool: &Tool, variants: &[Variant]) -> TokenStream {
    let ident = tool.ident;
    let names: Vec<&str> = variants.iter().map(|v| v.json_name.as_str()).collect();
    let idents: Vec<_> = variants.iter().map(|v| v.ident).collect();
    let description = describe(tool.description.as_deref());
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
