//! `#[derive(ToolArgs)]`: the struct (or fieldless enum) is the tool's contract.
//!
//! The macro works in three steps, in the shape of serde_derive and thiserror:
//!
//! 1. parse: `ast` (with `attr`) reads the item and its attributes as written, collecting every
//!    error in a `Ctxt` instead of stopping at the first;
//! 2. check: `check` turns that into the typed `model` (effects and policies as enums, bounds
//!    fitted to their types, compiled patterns, resolved semantic sources), reporting whatever
//!    does not fit;
//! 3. expand: `expand` maps a model with no errors to code, without looking at any attribute.
//!
//! On any error the errors are emitted together with `fallback` impls, so the user sees the
//! real problem instead of a cascade of "trait not implemented". The names checked at compile
//! time (effects, currencies, units) live in `vocabulary`.

mod ast;
mod attr;
mod check;
mod ctxt;
mod ecma;
mod expand;
mod fallback;
mod hint;
mod model;
mod ty;
mod vocabulary;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `toolargs::ToolArgs` and `toolargs::ArgType`. See the `toolargs` crate for the
/// attribute reference.
#[proc_macro_derive(ToolArgs, attributes(arg, toolargs))]
pub fn derive_tool_args(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input).into()
}

/// Parse, check, expand; or the errors with stub impls.
fn derive(input: &DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::new();
    let model = ast::Container::from_ast(&cx, input).and_then(|c| check::check(&cx, &c));
    match (cx.check(), model) {
        (Ok(()), Some(model)) => expand::expand(&model),
        (Err(errors), _) => fallback::with_errors(input, errors),
        // Checking gave up without saying why: a bug here, reported at the item rather than
        // hidden behind stubs that would compile.
        (Ok(()), None) => fallback::with_errors(
            input,
            vec![syn::Error::new_spanned(
                &input.ident,
                "toolargs-derive could not expand this item and found no error to report; \
                 this is a bug in toolargs-derive",
            )],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::derive;

    fn errors(source: &str) -> Vec<String> {
        let input = syn::parse_str(source).unwrap();
        let output = derive(&input).to_string();
        output
            .split("compile_error !")
            .skip(1)
            .map(|e| e.split('"').nth(1).unwrap_or_default().to_owned())
            .collect()
    }

    #[test]
    fn every_error_is_reported() {
        let found = errors(
            r#"#[arg(name = "x")] #[toolargs(effect = "sends", unknown = "drop")]
            struct T { #[arg(min = 1.5)] a: i64, #[arg(pattern = "[")] b: String }"#,
        );
        assert_eq!(found.len(), 5, "{found:?}");
        assert!(found[0].contains("is for fields"), "{found:?}");
    }

    #[test]
    fn a_valid_item_expands_without_errors() {
        let source = r#"#[toolargs(effect = read_only)] struct T { #[arg(min = 1)] a: i64 }"#;
        assert_eq!(errors(source), Vec::<String>::new());
        let input = syn::parse_str(source).unwrap();
        let output = derive(&input).to_string();
        assert!(output.contains(":: toolargs :: __private_0_1"), "{output}");
        assert!(output.contains("__ta :: Effect :: ReadOnly"), "{output}");
        // `ToolArgs`, `ArgType` (a struct is also a field type) and the slots a stream reads into.
        assert_eq!(
            output.matches("automatically_derived").count(),
            3,
            "{output}"
        );
        assert!(output.contains("MemberSlots"), "{output}");
    }

    #[test]
    fn stubs_never_come_without_an_error() {
        let input: syn::DeriveInput = syn::parse_str("struct T { a: i64 }").unwrap();
        let one =
            crate::fallback::with_errors(&input, vec![syn::Error::new_spanned(&input.ident, "x")]);
        assert!(one.to_string().contains("compile_error"), "{one}");
        let none = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::fallback::with_errors(&input, Vec::new())
        }));
        assert!(none.is_err(), "stub impls were emitted without an error");
    }

    #[test]
    fn an_unchecked_collector_is_a_bug() {
        let dropped = std::panic::catch_unwind(|| drop(crate::ctxt::Ctxt::new()));
        assert!(
            dropped.is_err(),
            "a Ctxt dropped without check went unnoticed"
        );
        assert!(crate::ctxt::Ctxt::new().check().is_ok());
    }
}
