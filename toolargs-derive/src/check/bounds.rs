//! The bounding keys of a field: `min` and `max` against the type's range, `min_len` and
//! `max_len` on strings, `min_items` and `max_items` on lists and maps, each pair in order.

use super::field::FieldCheck;
use crate::ast;
use crate::attr::{Number, Spanned};
use crate::ctxt::Ctxt;
use crate::model::Bound;
use crate::ty::{self, Kind};

impl FieldCheck<'_, '_> {
    /// `min` and `max`: each against the type, and `min` not above `max`.
    pub(super) fn numbers(&mut self) -> (Option<Option<Bound>>, Option<Option<Bound>>) {
        let (cx, f, kind, field) = (self.cx, self.f, self.kind, self.field);
        let a = &f.attrs;
        let min = a.min.as_ref().map(|b| check_bound(cx, f, kind, "min", b));
        let max = a.max.as_ref().map(|b| check_bound(cx, f, kind, "max", b));
        if self.other {
            for (key, b) in [("min", &a.min), ("max", &a.max)] {
                if let Some(b) = b {
                    self.honoured(b.span, key, "bounds");
                }
            }
        }
        if let (Some(min), Some(max), true) = (&a.min, &a.max, self.numeric || self.other) {
            if min.value.as_f64() > max.value.as_f64() {
                cx.error_at(
                    max.span,
                    format!(
                        "`max = {}` is below `min = {}` on `{field}`: no value could pass; swap them",
                        max.value, min.value
                    ),
                );
            }
        }
        (min, max)
    }

    /// The keys of strings (`pattern`, `min_len`, `max_len`) on another type, and `min_len`
    /// not above `max_len`. The pattern itself is compiled apart.
    pub(super) fn lengths(&mut self) {
        let (cx, f, kind, field) = (self.cx, self.f, self.kind, self.field);
        let a = &f.attrs;
        let string = matches!(self.leaf, Kind::String);
        if self.other {
            if let Some(p) = &a.pattern {
                self.honoured(p.span(), "pattern", "pattern");
            }
            for (key, v) in [("min_len", &a.min_len), ("max_len", &a.max_len)] {
                if let Some(v) = v {
                    self.honoured(v.span, key, "length");
                }
            }
        } else if !string {
            let ty = &self.ty;
            let string_keys = [
                a.pattern.as_ref().map(|p| ("pattern", p.span())),
                a.min_len.as_ref().map(|v| ("min_len", v.span)),
                a.max_len.as_ref().map(|v| ("max_len", v.span)),
            ];
            for (key, span) in string_keys.into_iter().flatten() {
                let bound = key.trim_end_matches("_len");
                let hint = if key == "pattern" {
                    "remove it".to_owned()
                } else if kind.has_list() {
                    format!("use `{bound}_items` for the number of items")
                } else if self.numeric {
                    format!("use `{bound}` to bound the value")
                } else {
                    "remove it".to_owned()
                };
                cx.error_at(
                    span,
                    format!("`{key}` applies to strings, and `{field}` is `{ty}`; {hint}"),
                );
            }
        }
        if let (Some(min), Some(max)) = (&a.min_len, &a.max_len) {
            if min.value > max.value {
                cx.error_at(
                    max.span,
                    format!(
                        "`max_len = {}` is below `min_len = {}` on `{field}`: no string could pass; swap them",
                        max.value, min.value
                    ),
                );
            }
        }
    }

    /// `min_items` and `max_items` on a type that is no list, and `min_items` not above
    /// `max_items`.
    pub(super) fn items(&mut self) {
        let (cx, f, leaf, field) = (self.cx, self.f, self.leaf, self.field);
        let a = &f.attrs;
        let list = self.kind.has_list();
        if self.other && !list {
            for (key, v) in [("min_items", &a.min_items), ("max_items", &a.max_items)] {
                if let Some(v) = v {
                    self.honoured(v.span, key, "items");
                }
            }
        } else if !list {
            let ty = &self.ty;
            for item_key in [
                a.min_items.as_ref().map(|v| ("min_items", v.span)),
                a.max_items.as_ref().map(|v| ("max_items", v.span)),
            ]
            .into_iter()
            .flatten()
            {
                let (key, span) = item_key;
                let bound = key.trim_end_matches("_items");
                let hint = match leaf {
                    Kind::String => format!("use `{bound}_len` for its length"),
                    Kind::Int { .. } | Kind::Float => format!("use `{bound}` to bound the value"),
                    _ => "remove it".to_owned(),
                };
                cx.error_at(
                    span,
                    format!(
                        "`{key}` applies to Vec and map fields, and `{field}` is `{ty}`; {hint}"
                    ),
                );
            }
        }
        if let (Some(min), Some(max)) = (&a.min_items, &a.max_items) {
            if min.value > max.value {
                cx.error_at(
                    max.span,
                    format!(
                        "`max_items = {}` is below `min_items = {}` on `{field}`: no list could pass; swap them",
                        max.value, min.value
                    ),
                );
            }
        }
    }
}

/// `min` or `max` against the field's type: a number field takes the literal as written, an
/// integer field takes an integer inside its own range.
fn check_bound(
    cx: &Ctxt,
    f: &ast::Field,
    kind: &Kind,
    key: &str,
    bound: &Spanned<Number>,
) -> Option<Bound> {
    let field = &f.json_name.value;
    let leaf = kind.leaf();
    match (leaf, bound.value) {
        (Kind::Int { min, max }, Number::Int(v)) if v < *min || v > *max => {
            cx.error_at(
                bound.span,
                format!(
                    "`{key} = {v}` is outside what `{field}` can hold ({min}..={max}); use a bound inside that range or a wider integer type"
                ),
            );
            None
        }
        (Kind::Int { .. }, Number::Float(v)) => {
            let whole = if key == "min" { v.ceil() } else { v.floor() };
            cx.error_at(
                bound.span,
                format!(
                    "`{field}` holds integers, so `{key}` must be an integer, not {v:?}; write `{key} = {}`",
                    whole as i128
                ),
            );
            None
        }
        (Kind::Int { .. } | Kind::Float, Number::Int(v)) => Some(Bound::Int(v)),
        (Kind::Float, Number::Float(v)) => Some(Bound::Float(v)),
        // Whether the type takes bounds at all is asserted against its `ArgType` impl.
        (Kind::Other, Number::Int(v)) => Some(Bound::Int(v)),
        (Kind::Other, Number::Float(v)) => Some(Bound::Float(v)),
        _ => {
            let hint = match (leaf, kind.has_list()) {
                (Kind::String, true) => format!(
                    "use `{key}_len` for the length of each item or `{key}_items` for the number of items"
                ),
                (Kind::String, false) => format!("use `{key}_len` for its length"),
                (_, true) => format!("use `{key}_items` for the number of items"),
                _ => "remove it".to_owned(),
            };
            cx.error_at(
                bound.span,
                format!(
                    "`{key}` applies to numbers, and `{field}` is `{}`; {hint}",
                    ty::show(f.ty)
                ),
            );
            None
        }
    }
}
