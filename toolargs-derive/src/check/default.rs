//! A field's `default`: none on an `Option` field, and a literal that passes the field's own
//! constraints, since it is never parsed.

use syn::{Expr, ExprLit, Lit};

use super::field::FieldCheck;
use crate::ast;
use crate::attr::{self, DefaultAttr};
use crate::ctxt::Ctxt;
use crate::model::DefaultValue;
use crate::ty::Kind;

impl FieldCheck<'_, '_> {
    /// The default, checked against the field's `pattern` (`regex`, when it compiled) and
    /// its other constraints. `Some(None)` without one; `None` after an error.
    pub(super) fn default(&self, regex: Option<&regex::Regex>) -> Option<Option<DefaultValue>> {
        let (cx, f, kind, field) = (self.cx, self.f, self.kind, self.field);
        match &f.attrs.default {
            None => Some(None),
            Some(DefaultAttr::Trait(span)) if kind.is_optional() => {
                cx.error_at(
                    *span,
                    format!("`default` on an Option field does nothing: `{field}` is already None when absent; remove it"),
                );
                None
            }
            Some(DefaultAttr::Expr(expr)) if kind.is_optional() => {
                cx.error_spanned_by(
                    expr,
                    format!("`default = ...` on an Option field would make None impossible to send; make `{field}` a non-Option type with this default"),
                );
                None
            }
            Some(DefaultAttr::Trait(span)) => Some(Some(DefaultValue::Trait(*span))),
            Some(DefaultAttr::Expr(expr)) => {
                check_default_literal(cx, f, expr, regex);
                Some(Some(match (kind, expr.as_ref()) {
                    (
                        Kind::String,
                        Expr::Lit(ExprLit {
                            lit: Lit::Str(s), ..
                        }),
                    ) => DefaultValue::Str(s.clone()),
                    _ => DefaultValue::Expr(expr.clone()),
                }))
            }
        }
    }
}

/// A literal default is never parsed, so it must already pass the field's own constraints.
fn check_default_literal(cx: &Ctxt, f: &ast::Field, expr: &Expr, pattern: Option<&regex::Regex>) {
    let a = &f.attrs;
    let field = &f.json_name.value;
    match &f.kind {
        Some(Kind::Int { .. } | Kind::Float) => {
            let Some(value) = attr::number(expr) else {
                return;
            };
            if let Some(min) = a.min.as_ref().filter(|m| value.as_f64() < m.value.as_f64()) {
                cx.error_spanned_by(
                    expr,
                    format!(
                        "`default = {value}` is below `min = {}` on `{field}`; a default must pass the field's own bounds",
                        min.value
                    ),
                );
            }
            if let Some(max) = a.max.as_ref().filter(|m| value.as_f64() > m.value.as_f64()) {
                cx.error_spanned_by(
                    expr,
                    format!(
                        "`default = {value}` is above `max = {}` on `{field}`; a default must pass the field's own bounds",
                        max.value
                    ),
                );
            }
        }
        Some(Kind::String) => {
            let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = expr
            else {
                return;
            };
            let value = s.value();
            let len = value.chars().count();
            let problem = if pattern.is_some_and(|p| !p.is_match(&value)) {
                Some("does not match the field's `pattern`".to_owned())
            } else if let Some(min) = a.min_len.as_ref().filter(|m| len < m.value) {
                Some(format!("is shorter than `min_len = {}`", min.value))
            } else {
                a.max_len
                    .as_ref()
                    .filter(|m| len > m.value)
                    .map(|max| format!("is longer than `max_len = {}`", max.value))
            };
            if let Some(problem) = problem {
                cx.error_spanned_by(
                    expr,
                    format!("the default of `{field}` {problem}; a default must pass the field's own constraints"),
                );
            }
        }
        _ => {}
    }
}
