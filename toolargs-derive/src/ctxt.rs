//! Collects every error found while reading a derive input, so all are reported in one build.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// The error collector, threaded through parsing and checking.
///
/// It must be consumed by [`Ctxt::check`]: dropping it unchecked would lose errors, so it
/// panics in `Drop` (a bug in the macro, caught by its own tests), as serde_derive's does.
pub struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    fn push(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt::check was already called")
            .push(error);
    }

    /// Records an error spanning `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records an error at a span.
    pub fn error_at<M: Display>(&self, span: proc_macro2::Span, message: M) {
        self.push(syn::Error::new(span, message));
    }

    /// Records a parse error as it is.
    pub fn syn_error(&self, err: syn::Error) {
        self.push(err);
    }

    /// Every error recorded, or `Ok` when there were none.
    pub fn check(self) -> Result<(), Vec<syn::Error>> {
        let errors = self.errors.take().unwrap_or_default();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.get_mut().is_some() {
            panic!("toolargs-derive: a Ctxt was dropped without `check`");
        }
    }
}
