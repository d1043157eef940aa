//! Reads `#[toolargs(...)]` and `#[arg(...)]` attributes into the values as written (names
//! stay strings, with their spans), recording every problem of syntax (unknown key, key given
//! twice, wrong kind of value) at the offending token. What the values mean is `check`'s.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Attribute, Expr, ExprLit, ExprUnary, Lit, LitStr, UnOp};

use crate::ctxt::Ctxt;
use crate::hint::did_you_mean;

pub const CONTAINER_KEYS: &[&str] = &[
    "name",
    "description",
    "unknown",
    "effect",
    "tag",
    "untagged",
    "crate",
];
pub const FIELD_KEYS: &[&str] = &[
    "strict",
    "min",
    "max",
    "pattern",
    "key_pattern",
    "min_len",
    "max_len",
    "min_items",
    "max_items",
    "default",
    "rename",
    "description",
    "semantic",
    "currency",
    "minor_units",
    "unit",
    "family",
    "entity",
    "critical",
    "any",
];
pub const VARIANT_KEYS: &[&str] = &["rename", "synonym"];

/// A numeric literal from `min`/`max`.
#[derive(Clone, Copy, Debug)]
pub enum Number {
    Int(i128),
    Float(f64),
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Int(v) => write!(f, "{v}"),
            Number::Float(v) => write!(f, "{v:?}"),
        }
    }
}

impl Number {
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(v) => v as f64,
            Number::Float(v) => v,
        }
    }
}

/// A value with the span of the token it came from.
#[derive(Clone, Debug)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

#[derive(Default)]
pub struct ContainerAttrs {
    pub name: Option<Spanned<String>>,
    pub description: Option<Spanned<String>>,
    pub unknown: Option<Spanned<String>>,
    pub effect: Option<Spanned<String>>,
    /// `tag = "..."`: an enum with data is an object whose tag key names the variant.
    pub tag: Option<Spanned<String>>,
    /// `untagged`: an enum with data whose variant is found by trying each.
    pub untagged: Option<Span>,
    /// `crate = "path"`: where the `toolargs` facade is, for crates that re-export it.
    pub krate: Option<syn::Path>,
}

pub enum DefaultAttr {
    /// `default`: `Default::default()`.
    Trait(Span),
    /// `default = <expr>`.
    Expr(Box<Expr>),
}

#[derive(Default)]
pub struct FieldAttrs {
    pub strict: Option<Span>,
    pub min: Option<Spanned<Number>>,
    pub max: Option<Spanned<Number>>,
    pub pattern: Option<LitStr>,
    /// `key_pattern = "..."`: the keys of a map.
    pub key_pattern: Option<LitStr>,
    pub min_len: Option<Spanned<usize>>,
    pub max_len: Option<Spanned<usize>>,
    pub min_items: Option<Spanned<usize>>,
    pub max_items: Option<Spanned<usize>>,
    pub default: Option<DefaultAttr>,
    pub rename: Option<LitStr>,
    pub description: Option<LitStr>,
    /// `semantic = "money"`: the canonical kind.
    pub semantic: Option<Spanned<String>>,
    /// `currency = "field"` or `currency = "USD"`.
    pub currency: Option<LitStr>,
    pub minor_units: Option<Span>,
    /// `unit = "field"` or `unit = "hours"`.
    pub unit: Option<LitStr>,
    /// `family = "volume"`, with `semantic = "quantity"`.
    pub family: Option<LitStr>,
    /// `entity = "person"`, with `semantic = "entity"`.
    pub entity: Option<LitStr>,
    pub critical: Option<Span>,
    /// `any`: the field is a `serde_json::Value` on purpose.
    pub any: Option<Span>,
}

#[derive(Default)]
pub struct VariantAttrs {
    pub rename: Option<LitStr>,
    /// `synonym = "..."`, any number of times: other names with the same meaning, read by the
    /// semantic gate (the parser still accepts only the value's name).
    pub synonyms: Vec<LitStr>,
}

/// Runs `each` on every key of the attributes named `names`, collecting parse errors.
fn for_each_key(
    cx: &Ctxt,
    attrs: &[Attribute],
    names: &[&str],
    mut each: impl FnMut(&str, &ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs {
        if !names.iter().any(|n| attr.path().is_ident(n)) {
            continue;
        }
        let result = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_else(|| {
                    let path = &meta.path;
                    quote::quote!(#path).to_string().replace(' ', "")
                });
            each(&key, &meta)
        });
        if let Err(err) = result {
            cx.syn_error(err);
        }
    }
}

/// Stores `value` in `slot`, or records "given twice" at the second occurrence. A value that
/// was already reported as malformed (`None`) is only checked for repetition.
fn set<T>(cx: &Ctxt, slot: &mut Option<T>, value: Option<T>, key: &str, span: Span) {
    if slot.is_some() {
        cx.error_at(span, format!("`{key}` is given twice; give it once"));
    } else {
        *slot = value;
    }
}

/// A flag key (`strict`) written with a value: the value is skipped and reported.
fn flag(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let expr: Expr = meta.value()?.parse()?;
        cx.error_spanned_by(
            &expr,
            format!("`{key}` takes no value; write `{key}` alone"),
        );
    }
    Ok(())
}

/// Records an unknown key with a did-you-mean, and skips over its value.
fn unknown_key(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
    known: &[&str],
    place: &str,
) -> syn::Result<()> {
    let hint = did_you_mean(key, known.iter().copied())
        .map(|k| format!("; did you mean `{k}`?"))
        .unwrap_or_default();
    cx.error_spanned_by(
        &meta.path,
        format!(
            "unknown {place} key `{key}`{hint} (known keys: {})",
            known.join(", ")
        ),
    );
    skip_value(meta)
}

fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        content.parse::<proc_macro2::TokenStream>()?;
    }
    Ok(())
}

/// How a value of the wrong kind should have been written: `write `min = 1`` when the
/// string holds what was meant, otherwise an example.
fn wrong_kind(
    cx: &Ctxt,
    expr: &Expr,
    key: &str,
    expected: &str,
    example: &str,
    fits: fn(&str) -> bool,
) {
    let message = match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) if fits(s.value().trim()) => format!(
            "`{key}` expects {expected}, not a string; write `{key} = {}`",
            s.value().trim()
        ),
        Expr::Lit(ExprLit {
            lit: Lit::Str(_), ..
        }) => format!("`{key}` expects {expected}, not a string, e.g. `{key} = {example}`"),
        _ => format!("`{key}` expects {expected}, e.g. `{key} = {example}`"),
    };
    cx.error_spanned_by(expr, message);
}

/// Reads `= <string literal>`; a value of another kind is recorded and yields `None`.
fn lit_str(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<LitStr>> {
    let expr: Expr = meta.value()?.parse()?;
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(Some(s)),
        other => {
            cx.error_spanned_by(
                &other,
                format!("`{key}` expects a string literal, e.g. `{key} = \"...\"`"),
            );
            Ok(None)
        }
    }
}

/// A string literal or a bare identifier: `effect = read_only` or `effect = "read_only"`.
fn word(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<Spanned<String>>> {
    let expr: Expr = meta.value()?.parse()?;
    match &expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(Some(Spanned {
            value: s.value(),
            span: s.span(),
        })),
        Expr::Path(p) if p.path.get_ident().is_some() => Ok(Some(Spanned {
            value: p
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default(),
            span: p.span(),
        })),
        other => {
            cx.error_spanned_by(
                other,
                format!("`{key}` expects a name, e.g. `{key} = \"...\"`"),
            );
            Ok(None)
        }
    }
}

fn usize_lit(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<Spanned<usize>>> {
    let expr: Expr = meta.value()?.parse()?;
    if let Expr::Lit(ExprLit {
        lit: Lit::Int(i), ..
    }) = &expr
    {
        if let Ok(value) = i.base10_parse::<usize>() {
            return Ok(Some(Spanned {
                value,
                span: i.span(),
            }));
        }
    }
    wrong_kind(cx, &expr, key, "a non-negative integer literal", "1", |s| {
        s.parse::<usize>().is_ok()
    });
    Ok(None)
}

fn number_lit(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
) -> syn::Result<Option<Spanned<Number>>> {
    let expr: Expr = meta.value()?.parse()?;
    match number(&expr) {
        Some(value) => Ok(Some(Spanned {
            value,
            span: expr.span(),
        })),
        None => {
            wrong_kind(cx, &expr, key, "a number literal", "1", |s| {
                s.parse::<f64>().is_ok_and(f64::is_finite)
            });
            Ok(None)
        }
    }
}

/// The number an expression spells: a numeric literal, optionally negated.
pub fn number(expr: &Expr) -> Option<Number> {
    let (negative, lit) = match expr {
        Expr::Lit(ExprLit { lit, .. }) => (false, lit),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => match expr.as_ref() {
            Expr::Lit(ExprLit { lit, .. }) => (true, lit),
            _ => return None,
        },
        _ => return None,
    };
    match lit {
        Lit::Int(i) => {
            let v = i.base10_parse::<i128>().ok()?;
            Some(Number::Int(if negative { -v } else { v }))
        }
        Lit::Float(f) => {
            let v = f.base10_parse::<f64>().ok()?;
            Some(Number::Float(if negative { -v } else { v }))
        }
        _ => None,
    }
}

/// The `crate = "path"` of a container, read without reporting anything: the stubs emitted
/// beside compile errors name the same facade as the expansion would.
pub fn crate_path(attrs: &[Attribute]) -> Option<syn::Path> {
    let cx = Ctxt::new();
    let path = container_attrs(&cx, attrs).krate;
    let _ = cx.check();
    path
}

pub fn container_attrs(cx: &Ctxt, attrs: &[Attribute]) -> ContainerAttrs {
    for attr in attrs.iter().filter(|a| a.path().is_ident("arg")) {
        cx.error_spanned_by(
            attr.path(),
            "`#[arg(...)]` is for fields; write container keys as `#[toolargs(...)]`",
        );
    }
    let mut out = ContainerAttrs::default();
    for_each_key(cx, attrs, &["toolargs"], |key, meta| {
        let span = meta.path.span();
        let spanned = |s: LitStr| Spanned {
            value: s.value(),
            span: s.span(),
        };
        match key {
            "name" => {
                let v = lit_str(cx, meta, key)?.map(spanned);
                set(cx, &mut out.name, v, key, span);
            }
            "description" => {
                let v = lit_str(cx, meta, key)?.map(spanned);
                set(cx, &mut out.description, v, key, span);
            }
            "unknown" => {
                let v = word(cx, meta, key)?;
                set(cx, &mut out.unknown, v, key, span);
            }
            "effect" => {
                let v = word(cx, meta, key)?;
                set(cx, &mut out.effect, v, key, span);
            }
            "tag" => {
                let v = lit_str(cx, meta, key)?.map(spanned);
                set(cx, &mut out.tag, v, key, span);
            }
            "untagged" => {
                flag(cx, meta, key)?;
                set(cx, &mut out.untagged, Some(span), key, span);
            }
            "crate" => {
                let v = lit_str(cx, meta, key)?.and_then(|s| match s.parse::<syn::Path>() {
                    Ok(path) => Some(path),
                    Err(_) => {
                        cx.error_spanned_by(
                            &s,
                            "`crate` expects the path of the toolargs facade, e.g. `crate = \"my_crate::toolargs\"`",
                        );
                        None
                    }
                });
                set(cx, &mut out.krate, v, key, span);
            }
            _ => unknown_key(cx, meta, key, CONTAINER_KEYS, "container")?,
        }
        Ok(())
    });
    out
}

pub fn field_attrs(cx: &Ctxt, attrs: &[Attribute], names: &[&str]) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for_each_key(cx, attrs, names, |key, meta| {
        let span = meta.path.span();
        match key {
            "strict" => {
                flag(cx, meta, key)?;
                set(cx, &mut out.strict, Some(span), key, span);
            }
            "min" => {
                let v = number_lit(cx, meta, key)?;
                set(cx, &mut out.min, v, key, span);
            }
            "max" => {
                let v = number_lit(cx, meta, key)?;
                set(cx, &mut out.max, v, key, span);
            }
            "pattern" => {
                let v = lit_str(cx, meta, key)?;
                set(cx, &mut out.pattern, v, key, span);
            }
            "key_pattern" => {
                let v = lit_str(cx, meta, key)?;
                set(cx, &mut out.key_pattern, v, key, span);
            }
            "min_len" => {
                let v = usize_lit(cx, meta, key)?;
                set(cx, &mut out.min_len, v, key, span);
            }
            "max_len" => {
                let v = usize_lit(cx, meta, key)?;
                set(cx, &mut out.max_len, v, key, span);
            }
            "min_items" => {
                let v = usize_lit(cx, meta, key)?;
                set(cx, &mut out.min_items, v, key, span);
            }
            "max_items" => {
                let v = usize_lit(cx, meta, key)?;
                set(cx, &mut out.max_items, v, key, span);
            }
            "default" => {
                let v = if meta.input.peek(syn::Token![=]) {
                    DefaultAttr::Expr(Box::new(meta.value()?.parse()?))
                } else {
                    DefaultAttr::Trait(span)
                };
                set(cx, &mut out.default, Some(v), key, span);
            }
            "rename" => {
                let v = lit_str(cx, meta, key)?;
                set(cx, &mut out.rename, v, key, span);
            }
            "description" => {
                let v = lit_str(cx, meta, key)?;
                set(cx, &mut out.description, v, key, span);
            }
            "semantic" => {
                let v = word(cx, meta, key)?;
                set(cx, &mut out.semantic, v, key, span);
            }
            "currency" => {
                let v = lit_str(cx, meta, key)?;
                set(cx, &mut out.currency, v, key, span);
            }
            "minor_units" => {
                flag(cx, meta, key)?;
                set(cx, &mut out.minor_units, Some(span), key, span);
            }
            "unit" => {
                let v = lit_str(cx, meta, key)?;
                set(cx, &mut out.unit, v, key, span);
            }
            "family" => {
                let v = lit_str(cx, meta, key)?;
                set(cx, &mut out.family, v, key, span);
            }
            "entity" => {
                let v = lit_str(cx, meta, key)?;
                set(cx, &mut out.entity, v, key, span);
            }
            "critical" => {
                flag(cx, meta, key)?;
                set(cx, &mut out.critical, Some(span), key, span);
            }
            "any" => {
                flag(cx, meta, key)?;
                set(cx, &mut out.any, Some(span), key, span);
            }
            _ => unknown_key(cx, meta, key, FIELD_KEYS, "field")?,
        }
        Ok(())
    });
    out
}

pub fn variant_attrs(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    let mut out = VariantAttrs::default();
    for_each_key(cx, attrs, &["arg", "toolargs"], |key, meta| {
        let span = meta.path.span();
        match key {
            "rename" => {
                let v = lit_str(cx, meta, key)?;
                set(cx, &mut out.rename, v, key, span);
            }
            // Repeatable: a value can have several synonyms.
            "synonym" => {
                if let Some(v) = lit_str(cx, meta, key)? {
                    out.synonyms.push(v);
                }
            }
            _ => unknown_key(cx, meta, key, VARIANT_KEYS, "variant")?,
        }
        Ok(())
    });
    out
}

/// The doc comment as one string: lines trimmed of the single leading space, joined by `\n`.
pub fn doc_comment(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(s), ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .map(|line| {
            line.strip_prefix(' ')
                .unwrap_or(&line)
                .trim_end()
                .to_owned()
        })
        .collect();
    let text = lines.join("\n").trim().to_owned();
    (!text.is_empty()).then_some(text)
}
