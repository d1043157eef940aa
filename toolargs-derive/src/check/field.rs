//! A field's own keys against its type, checked step by step into a model [`Field`]; and the
//! JSON names of a struct's fields.

use std::collections::HashMap;

use proc_macro2::Span;

use crate::ast;
use crate::attr::Spanned;
use crate::ctxt::Ctxt;
use crate::model::{Field, TraitCheck};
use crate::ty::{self, Kind};

/// One field under check: what every step reads, and the checks its steps leave to the
/// `ArgType` impl of a type not known by name.
pub(super) struct FieldCheck<'c, 'a> {
    pub(super) cx: &'c Ctxt,
    pub(super) f: &'c ast::Field<'a>,
    pub(super) kind: &'c Kind,
    /// The kind below `Option`, `Vec` and map layers, which the keys apply to.
    pub(super) leaf: &'c Kind,
    /// The JSON name, as messages show it.
    pub(super) field: &'c String,
    /// The Rust type, as messages show it.
    pub(super) ty: String,
    pub(super) numeric: bool,
    /// A type not known by name says through `ArgType` which attributes it honours.
    pub(super) other: bool,
    pub(super) trait_checks: Vec<TraitCheck>,
}

impl<'c, 'a> FieldCheck<'c, 'a> {
    fn new(cx: &'c Ctxt, f: &'c ast::Field<'a>, kind: &'c Kind) -> Self {
        let leaf = kind.leaf();
        FieldCheck {
            cx,
            f,
            kind,
            leaf,
            field: &f.json_name.value,
            ty: ty::show(f.ty),
            numeric: matches!(leaf, Kind::Int { .. } | Kind::Float),
            other: matches!(leaf, Kind::Other),
            trait_checks: Vec::new(),
        }
    }

    /// Leaves `key` to the type's `ArgType` impl: the expansion asserts that it honours
    /// `constant`.
    pub(super) fn honoured(&mut self, span: Span, key: &str, constant: &'static str) {
        let (field, ty) = (self.field, &self.ty);
        self.trait_checks.push(TraitCheck {
            span,
            constant,
            message: format!(
                "`{key}` does not apply to `{field}`: the ArgType impl of `{ty}` does not honour it (ArgType::HONOURS.{constant} is false); remove it",
            )
            .replace('{', "{{")
            .replace('}', "}}"),
        });
    }

    /// `any`: an open value is a hole in the contract, so it must be asked for by name.
    fn any(&self) {
        let (cx, f, field, ty) = (self.cx, self.f, self.field, &self.ty);
        let any = matches!(self.leaf, Kind::Any);
        match (any, f.attrs.any) {
            (true, None) => cx.error_spanned_by(
                f.ty,
                format!("`{field}` is `{ty}`, which accepts any JSON and checks nothing; if that is meant, write `#[arg(any)]` on the field, otherwise declare the shape as a type that derives ToolArgs"),
            ),
            (false, Some(span)) => cx.error_at(
                span,
                format!("`any` marks a `serde_json::Value` field, and `{field}` is `{ty}`; remove it"),
            ),
            _ => {}
        }
    }

    /// `strict` on a type that is never repaired forbids nothing.
    fn strict(&self) {
        let (field, leaf) = (self.field, self.leaf);
        if let Some(span) = self.f.attrs.strict {
            if !self.kind.has_repairs() {
                self.cx.error_at(
                    span,
                    format!(
                        "`strict` has no effect on `{field}`: {} value is never repaired, so there is nothing to forbid; remove it",
                        leaf.describe()
                    ),
                );
            }
        }
    }
}

/// A field's own keys against its type. The semantic kind is filled in afterwards.
pub(super) fn check_field<'a>(cx: &Ctxt, f: &ast::Field<'a>) -> Option<Field<'a>> {
    let kind = f.kind.as_ref()?;
    let a = &f.attrs;
    // The steps report in this order, which is the order the errors are shown in.
    let mut check = FieldCheck::new(cx, f, kind);
    let (min, max) = check.numbers();
    check.lengths();
    let pattern = check.pattern();
    check.any();
    let key_pattern = check.key_pattern();
    check.items();
    check.strict();
    let regex = pattern.as_ref().and_then(Option::as_ref).map(|p| &p.regex);
    let default = check.default(regex);

    let size = |key: &Option<Spanned<usize>>| key.as_ref().map(|v| v.value);
    Some(Field {
        ident: f.ident,
        ty: f.ty,
        json_name: f.json_name.value.clone(),
        description: f.description.clone(),
        optional: kind.is_optional(),
        strict: a.strict.is_some(),
        min: valid(min)?,
        max: valid(max)?,
        pattern: valid(pattern)?,
        key_pattern: valid(key_pattern)?,
        min_len: size(&a.min_len),
        max_len: size(&a.max_len),
        min_items: size(&a.min_items),
        max_items: size(&a.max_items),
        default: default?,
        semantic: None,
        critical: a.critical.is_some(),
        nested: check.other,
        trait_checks: check.trait_checks,
    })
}

/// An optional key after checking: absent is fine (`Some(None)`), present is fine when its
/// check gave a value, and `None` otherwise.
fn valid<T>(key: Option<Option<T>>) -> Option<Option<T>> {
    key.map_or(Some(None), |checked| checked.map(Some))
}

/// The JSON names of a struct's fields: none blank, no two the same.
pub(super) fn check_field_names(cx: &Ctxt, fields: &[ast::Field]) {
    let mut seen: HashMap<&str, &ast::Field> = HashMap::new();
    for f in fields {
        if f.json_name.value.trim().is_empty() {
            cx.error_at(
                f.json_name.span,
                format!(
                    "`rename` gives `{}` a blank JSON name; write a name",
                    f.ident
                ),
            );
        }
        if let Some(first) = seen.insert(&f.json_name.value, f) {
            cx.error_at(
                f.json_name.span,
                format!(
                    "two fields are named \"{}\" in JSON (`{}` and `{}`); rename one",
                    f.json_name.value, first.ident, f.ident
                ),
            );
        }
    }
}
