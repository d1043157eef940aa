//! `#[derive(ToolArgs)]`: the struct (or fieldless enum) is the tool's contract.
//!
//! The macro works in three steps, each its own module, in the shape of serde_derive and
//! thiserror: `ast` reads the item and its attributes into a model while collecting every
//! error, `check` validates the model as a whole (bounds against types, regexes, name
//! collisions), and `expand` writes code for a valid model only. On any error the errors are
//! emitted together with `fallback` impls, so the user sees the real problem instead of a
//! cascade of "trait not implemented".

mod ast;
mod attr;
mod check;
mod ctxt;
mod ecma;
mod expand;
mod fallback;
mod ty;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `toolargs::ToolArgs` and `toolargs::ArgType`. See the `toolargs` crate for the
/// attribute reference.
#[proc_macro_derive(ToolArgs, attributes(arg, toolargs))]
pub fn derive_tool_args(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let cx = ctxt::Ctxt::new();
    let model = ast::Container::from_ast(&cx, &input);
    if let Some(model) = &model {
        check::check(&cx, model);
    }
    let output = match (cx.check(), model) {
        (Ok(()), Some(model)) => expand::expand(&model),
        (Err(errors), _) => {
            let compile_errors = errors.iter().map(syn::Error::to_compile_error);
            let fallback = fallback::fallback(&input);
            quote::quote! { #(#compile_errors)* #fallback }
        }
        (Ok(()), None) => fallback::fallback(&input),
    };
    output.into()
}
