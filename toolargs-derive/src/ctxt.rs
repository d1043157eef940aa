//! Collects every error found while reading a derive input, so all are reported in one build.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// The error collector, threaded through parsing and checking.
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Vec::new()),
        }
    }

    /// Records an error spanning `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records an error at a span.
    pub fn error_at<M: Display>(&self, span: proc_macro2::Span, message: M) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new(span, message));
    }

    /// Records a parse error as it is.
    pub fn syn_error(&self, err: syn::Error) {
        self.errors.borrow_mut().push(err);
    }

    /// Every error recorded, or `Ok` when there were none.
    pub fn check(self) -> Result<(), Vec<syn::Error>> {
        let errors = self.errors.into_inner();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}
