//! The item as written: its fields or variants and their attributes, with JSON names and
//! field types classified, and every problem found on the way recorded in the [`Ctxt`].
//! `check` reads this and builds the typed model the expander uses.

use syn::{Data, DataEnum, DeriveInput, Fields, FieldsNamed, Ident, Type};

use crate::attr::{self, ContainerAttrs, FieldAttrs, Spanned as At};
use crate::ctxt::Ctxt;
use crate::ty::{self, Kind};

pub struct Container<'a> {
    pub ident: &'a Ident,
    /// The tool name: `name = "..."`, or the type name in snake_case.
    pub name: At<String>,
    pub description: Option<String>,
    pub attrs: ContainerAttrs,
    pub body: Body<'a>,
    /// The variants as written (an enum's), refused ones included.
    pub variant_count: usize,
}

pub enum Body<'a> {
    Struct(Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
    /// A tuple struct with one field: the type is the inner type under the field's
    /// constraints. The field is named after the type in messages.
    Newtype(Box<Field<'a>>),
}

pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    /// `None` when the type is unsupported (already reported).
    pub kind: Option<Kind>,
    /// The JSON name: `rename`, or the field name without `r#`.
    pub json_name: At<String>,
    pub description: Option<String>,
    pub attrs: FieldAttrs,
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub json_name: At<String>,
    pub synonyms: Vec<syn::LitStr>,
    /// The doc comment: a union variant's schema description.
    pub description: Option<String>,
    pub data: VariantData<'a>,
}

/// What a variant carries; only a union (`tag` or `untagged`) has variants with data.
pub enum VariantData<'a> {
    Unit,
    /// `Variant { field: T, ... }`: an object of its own fields.
    Named(Vec<Field<'a>>),
    /// `Variant(T)`: read as `T` (untagged unions only).
    Newtype(Box<Field<'a>>),
}

impl<'a> Container<'a> {
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Option<Container<'a>> {
        let attrs = attr::container_attrs(cx, &input.attrs);
        refuse_generics(cx, input);
        if matches!(input.data, Data::Struct(_)) {
            refuse_union_keys(cx, &attrs);
        }
        let body = match &input.data {
            Data::Struct(data) => struct_body(cx, input, &data.fields)?,
            Data::Enum(data) => Body::Enum(enum_variants(cx, &attrs, data)),
            Data::Union(u) => {
                cx.error_spanned_by(
                    u.union_token,
                    "ToolArgs cannot be derived for unions; use a struct with named fields or a fieldless enum",
                );
                return None;
            }
        };
        let name = match &attrs.name {
            Some(name) => name.clone(),
            None => At {
                value: snake_case(&input.ident.to_string()),
                span: input.ident.span(),
            },
        };
        let description = attrs
            .description
            .as_ref()
            .map(|d| d.value.clone())
            .or_else(|| attr::doc_comment(&input.attrs));
        let variant_count = match &input.data {
            Data::Enum(data) => data.variants.len(),
            _ => 0,
        };
        Some(Container {
            ident: &input.ident,
            name,
            description,
            attrs,
            body,
            variant_count,
        })
    }
}

/// The schema is written at compile time, so it cannot depend on a type parameter.
fn refuse_generics(cx: &Ctxt, input: &DeriveInput) {
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            "ToolArgs cannot be derived for generic types: the schema must be fixed at compile time; use concrete field types",
        );
    }
}

/// `tag` and `untagged` on a struct: they say how an enum's variants are told apart.
fn refuse_union_keys(cx: &Ctxt, attrs: &ContainerAttrs) {
    let refused = [
        ("tag", attrs.tag.as_ref().map(|t| t.span)),
        ("untagged", attrs.untagged),
    ];
    for (key, span) in refused {
        if let Some(span) = span {
            cx.error_at(
                span,
                format!("`{key}` applies to enums whose variants carry data (unions); a struct is an object already, so remove it"),
            );
        }
    }
}

/// A struct's fields, or its one unnamed field (a newtype); `None` for a shape with no JSON
/// names, reported.
fn struct_body<'a>(cx: &Ctxt, input: &'a DeriveInput, fields: &'a Fields) -> Option<Body<'a>> {
    match fields {
        Fields::Named(named) => {
            // With any `#[toolargs(...)]` on a field, `#[arg(...)]` belongs to another
            // derive (clap's Parser) and is left alone.
            let uses_toolargs = named
                .named
                .iter()
                .any(|f| f.attrs.iter().any(|a| a.path().is_ident("toolargs")));
            let names: &[&str] = if uses_toolargs {
                &["toolargs"]
            } else {
                &["arg", "toolargs"]
            };
            Some(Body::Struct(named_fields(cx, named, names)))
        }
        Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => Some(Body::Newtype(Box::new(
            Field::newtype(cx, &unnamed.unnamed[0], &input.ident),
        ))),
        Fields::Unnamed(_) => {
            cx.error_spanned_by(
                &input.ident,
                "ToolArgs needs named fields, or exactly one unnamed field (a newtype): a tuple struct of several fields has no JSON names; write `struct Name { field: Type }`",
            );
            None
        }
        Fields::Unit => {
            cx.error_spanned_by(
                &input.ident,
                "ToolArgs needs named fields: a unit struct takes no arguments; write `struct Name {}` for a tool without arguments",
            );
            None
        }
    }
}

/// The named fields of a struct or of a union variant, their attributes read under `names`.
fn named_fields<'a>(cx: &Ctxt, named: &'a FieldsNamed, names: &[&str]) -> Vec<Field<'a>> {
    named
        .named
        .iter()
        .map(|f| {
            let ident = f.ident.as_ref().expect("named fields have identifiers");
            Field::from_ast(cx, f, names, ident)
        })
        .collect()
}

/// An enum's variants: the values of a string enum, or the variants of a union (`tag` or
/// `untagged`). A variant whose data cannot be read is reported and left out.
fn enum_variants<'a>(cx: &Ctxt, attrs: &ContainerAttrs, data: &'a DataEnum) -> Vec<Variant<'a>> {
    let union = attrs.tag.is_some() || attrs.untagged.is_some();
    if let (Some(_), Some(span)) = (&attrs.tag, attrs.untagged) {
        cx.error_at(
            span,
            "`tag` and `untagged` exclude each other: a tagged union names its variant in the tag key, an untagged one has none; keep one",
        );
    }
    let mut variants = Vec::new();
    for v in &data.variants {
        // A variant whose shape is refused is not read further: its one error says what to
        // change.
        let Some(data) = variant_data(cx, attrs, union, v) else {
            continue;
        };
        let vattrs = attr::variant_attrs(cx, &v.attrs);
        let json_name = match vattrs.rename {
            Some(lit) => At {
                value: lit.value(),
                span: lit.span(),
            },
            None => At {
                value: snake_case(&v.ident.to_string()),
                span: v.ident.span(),
            },
        };
        variants.push(Variant {
            ident: &v.ident,
            json_name,
            synonyms: vattrs.synonyms,
            description: attr::doc_comment(&v.attrs),
            data,
        });
    }
    if let Some(span) = attrs.untagged {
        if !data.variants.is_empty()
            && data
                .variants
                .iter()
                .all(|v| matches!(v.fields, Fields::Unit))
        {
            cx.error_at(
                span,
                "`untagged` applies to enums whose variants carry data; a fieldless enum is a string enum, so remove it",
            );
        }
    }
    variants
}

/// What a variant carries, or `None` (reported) when its shape does not fit the enum: data in
/// a string enum, an unnamed field in a tagged union, several unnamed fields.
fn variant_data<'a>(
    cx: &Ctxt,
    attrs: &ContainerAttrs,
    union: bool,
    v: &'a syn::Variant,
) -> Option<VariantData<'a>> {
    match &v.fields {
        Fields::Unit => Some(VariantData::Unit),
        _ if !union => {
            cx.error_spanned_by(
                &v.fields,
                "ToolArgs enums without `tag` or `untagged` must be fieldless (they become string enums); for a union write `#[toolargs(tag = \"type\")]` or `#[toolargs(untagged)]` on the enum, or move the data into a struct",
            );
            None
        }
        Fields::Named(named) => Some(VariantData::Named(named_fields(
            cx,
            named,
            &["arg", "toolargs"],
        ))),
        Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
            if attrs.tag.is_some() {
                cx.error_spanned_by(
                    &v.fields,
                    format!(
                        "a tagged union's variants have named fields, which sit beside the tag; write `{} {{ field: Type }}`, or make the enum `untagged`",
                        v.ident
                    ),
                );
                return None;
            }
            Some(VariantData::Newtype(Box::new(Field::newtype(
                cx,
                &unnamed.unnamed[0],
                &v.ident,
            ))))
        }
        Fields::Unnamed(_) => {
            cx.error_spanned_by(
                &v.fields,
                format!(
                    "a variant with several unnamed fields has no JSON names; write `{} {{ field: Type, ... }}`",
                    v.ident
                ),
            );
            None
        }
    }
}

impl<'a> Field<'a> {
    /// The one unnamed field of a newtype or of a union variant: it has no JSON name of its
    /// own, so messages name it after `owner`, the type or the variant.
    fn newtype(cx: &Ctxt, field: &'a syn::Field, owner: &'a Ident) -> Field<'a> {
        let mut field = Field::from_ast(cx, field, &["arg", "toolargs"], owner);
        field.json_name = At {
            value: owner.to_string(),
            span: owner.span(),
        };
        field
    }

    fn from_ast(
        cx: &Ctxt,
        field: &'a syn::Field,
        attr_names: &[&str],
        ident: &'a Ident,
    ) -> Field<'a> {
        let attrs = attr::field_attrs(cx, &field.attrs, attr_names);
        let kind = match ty::classify(&field.ty) {
            Ok(kind) => Some(kind),
            Err(message) => {
                cx.error_spanned_by(&field.ty, message);
                None
            }
        };
        let json_name = match &attrs.rename {
            Some(lit) => At {
                value: lit.value(),
                span: lit.span(),
            },
            None => At {
                value: ident.to_string().trim_start_matches("r#").to_owned(),
                span: ident.span(),
            },
        };
        let description = attrs
            .description
            .as_ref()
            .map(|d| d.value())
            .or_else(|| attr::doc_comment(&field.attrs));
        Field {
            ident,
            ty: &field.ty,
            kind,
            json_name,
            description,
            attrs,
        }
    }
}

/// `DoubleCharge` -> `double_charge`, `HTTPRequest` -> `http_request`.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev_lower =
                i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if i > 0
                && (prev_lower || (next_lower && chars[i - 1].is_uppercase()))
                && !out.ends_with('_')
            {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::snake_case;

    #[test]
    fn snake_cases_type_and_variant_names() {
        assert_eq!(snake_case("IssueRefund"), "issue_refund");
        assert_eq!(snake_case("Damaged"), "damaged");
        assert_eq!(snake_case("DoubleCharge"), "double_charge");
        assert_eq!(snake_case("HTTPRequest"), "http_request");
        assert_eq!(snake_case("Item2Go"), "item2_go");
        assert_eq!(snake_case("already_snake"), "already_snake");
    }
}
