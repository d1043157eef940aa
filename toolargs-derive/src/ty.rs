//! Classifies a field's Rust type into what toolargs can read, or says why it cannot.

use syn::{GenericArgument, PathArguments, Type};

/// What a field's type is, as far as the policy is concerned.
#[derive(Clone, Debug)]
pub enum Kind {
    String,
    Bool,
    /// An integer type with its range.
    Int {
        min: i128,
        max: i128,
    },
    Float,
    Date,
    DateTime,
    /// `Vec<T>`, `BTreeSet<T>` or `HashSet<T>`.
    List(Box<Kind>),
    /// `HashMap<String, T>` or `BTreeMap<String, T>`: the kind of its values.
    Map(Box<Kind>),
    Optional(Box<Kind>),
    /// `serde_json::Value`: any JSON value, accepted only with `#[arg(any)]`.
    Any,
    /// Any other type (a derived struct or enum, an alias, a newtype, a third-party type):
    /// read through its `ArgType` impl, which says which constraints it honours.
    Other,
}

impl Kind {
    /// The kind below any `Option` and `Vec` layers: what `min`, `pattern`, ... apply to.
    pub fn leaf(&self) -> &Kind {
        match self {
            Kind::List(inner) | Kind::Map(inner) | Kind::Optional(inner) => inner.leaf(),
            other => other,
        }
    }

    pub fn is_optional(&self) -> bool {
        matches!(self, Kind::Optional(_))
    }

    /// True when a `Vec` or map layer is present (possibly under an `Option`): something
    /// `min_items` and `max_items` can count.
    pub fn has_list(&self) -> bool {
        match self {
            Kind::List(_) | Kind::Map(_) => true,
            Kind::Optional(inner) => inner.has_list(),
            _ => false,
        }
    }

    /// True when a map layer is present below `Option` and `Vec` layers.
    pub fn has_map(&self) -> bool {
        match self {
            Kind::Map(_) => true,
            Kind::List(inner) | Kind::Optional(inner) => inner.has_map(),
            _ => false,
        }
    }

    /// True when some value of this type can need a repair, so `strict` means something.
    pub fn has_repairs(&self) -> bool {
        match self {
            Kind::List(_) | Kind::Int { .. } | Kind::Float | Kind::Bool | Kind::Other => true,
            Kind::Optional(inner) | Kind::Map(inner) => inner.has_repairs(),
            Kind::String | Kind::Date | Kind::DateTime | Kind::Any => false,
        }
    }

    pub fn describe(&self) -> &'static str {
        match self {
            Kind::String => "a String",
            Kind::Bool => "a bool",
            Kind::Int { .. } => "an integer",
            Kind::Float => "a float",
            Kind::Date => "a NaiveDate",
            Kind::DateTime => "a DateTime",
            Kind::List(_) => "a Vec",
            Kind::Map(_) => "a map",
            Kind::Any => "a serde_json::Value",
            Kind::Optional(_) => "an Option",
            Kind::Other => "a type read through ArgType",
        }
    }
}

pub const SUPPORTED: &str = "supported: String, bool, i8..i64, u8..u64, isize, usize, f32, f64, \
    chrono::NaiveDate, chrono::DateTime<FixedOffset> or <Utc>, Vec<T>, Option<T>, sets, maps \
    with String keys, and any type \
    that implements toolargs::ext::ArgType (types that derive ToolArgs do)";

/// `ty` as it would be written: `HashMap<String, String>`, `&'static str`.
pub fn show(ty: &Type) -> String {
    let tokens = quote::quote!(#ty).to_string();
    let chars: Vec<char> = tokens.chars().collect();
    let word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
    // True when the word ending just before `i` is a lifetime (`'a`).
    let after_lifetime = |i: usize| {
        let start = chars[..i]
            .iter()
            .rposition(|c| !(c.is_alphanumeric() || *c == '_'));
        start.is_some_and(|s| chars[s] == '\'' && s + 1 < i)
    };
    let mut out = String::with_capacity(chars.len());
    for (i, &c) in chars.iter().enumerate() {
        let keep = c != ' '
            || (i > 0 && chars[i - 1] == ',')
            || (i > 0 && word(chars.get(i - 1)) && word(chars.get(i + 1)))
            || after_lifetime(i);
        if keep {
            out.push(c);
        }
    }
    out
}

/// Classifies `ty`, or returns the message for an unsupported type.
pub fn classify(ty: &Type) -> Result<Kind, String> {
    let shown = show(ty);
    let path = match ty {
        Type::Path(p) if p.qself.is_none() => &p.path,
        Type::Group(g) => return classify(&g.elem),
        Type::Paren(p) => return classify(&p.elem),
        Type::Reference(r) => {
            let owned = match show(&r.elem).as_str() {
                "str" => "String".to_owned(),
                "[u8]" => "Vec<u8>".to_owned(),
                elem if elem.starts_with('[') && elem.ends_with(']') => {
                    format!("Vec<{}>", &elem[1..elem.len() - 1])
                }
                elem => elem.to_owned(),
            };
            return Err(format!(
                "`{shown}`: references are not supported, arguments are owned values; use `{owned}`"
            ));
        }
        Type::Tuple(_) => {
            return Err(format!(
                "`{shown}`: tuples are not supported, a JSON array has no fixed arity; use a struct that derives ToolArgs ({SUPPORTED})"
            ))
        }
        _ => return Err(format!("`{shown}` is not a supported field type ({SUPPORTED})")),
    };
    let Some(last) = path.segments.last() else {
        return Err(format!(
            "`{shown}` is not a supported field type ({SUPPORTED})"
        ));
    };
    let name = last.ident.to_string();
    let args: Vec<&Type> = match &last.arguments {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|arg| match arg {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        PathArguments::None => Vec::new(),
        PathArguments::Parenthesized(_) => {
            return Err(format!(
                "`{shown}` is not a supported field type ({SUPPORTED})"
            ))
        }
    };
    let int = |min: i128, max: i128| Ok(Kind::Int { min, max });
    match (name.as_str(), args.as_slice()) {
        ("String", []) => Ok(Kind::String),
        ("bool", []) => Ok(Kind::Bool),
        ("i8", []) => int(i8::MIN.into(), i8::MAX.into()),
        ("i16", []) => int(i16::MIN.into(), i16::MAX.into()),
        ("i32", []) => int(i32::MIN.into(), i32::MAX.into()),
        ("i64", []) | ("isize", []) => int(i64::MIN.into(), i64::MAX.into()),
        ("u8", []) => int(0, u8::MAX.into()),
        ("u16", []) => int(0, u16::MAX.into()),
        ("u32", []) => int(0, u32::MAX.into()),
        ("u64", []) | ("usize", []) => int(0, u64::MAX.into()),
        ("f32", []) | ("f64", []) => Ok(Kind::Float),
        ("NaiveDate", []) => Ok(Kind::Date),
        ("DateTime", [tz]) => match classify_tz(tz) {
            true => Ok(Kind::DateTime),
            false => Err(format!(
                "`{shown}`: only DateTime<FixedOffset> and DateTime<Utc> are supported, since the offset must be explicit"
            )),
        },
        ("Vec", [inner]) => classify(inner).map(|k| Kind::List(Box::new(k))),
        ("Option", [inner]) => match classify(inner)? {
            Kind::Optional(_) => Err(format!(
                "`{shown}`: Option<Option<T>> has no JSON meaning distinct from Option<T>; use Option<T>"
            )),
            k => Ok(Kind::Optional(Box::new(k))),
        },
        ("i128" | "u128", []) => Err(format!(
            "`{shown}`: 128-bit integers are not supported, JSON numbers beyond 64 bits lose precision in most clients; use i64 or u64"
        )),
        ("char" | "str", []) => Err(format!("`{shown}` is not supported; use String ({SUPPORTED})")),
        // `IndexMap` needs toolargs' `indexmap` feature, which its `ArgType` impl says.
        ("HashMap" | "BTreeMap" | "IndexMap", [key, value]) => match show(key).as_str() {
            "String" | "std::string::String" | "::std::string::String" => {
                classify(value).map(|k| Kind::Map(Box::new(k)))
            }
            other => Err(format!(
                "`{shown}`: map keys are JSON object keys, so they must be `String`, not `{other}`; use `{}<String, {}>`",
                name,
                show(value)
            )),
        },
        // A set is a list to the attributes: the same item constraints and counts.
        ("HashSet" | "BTreeSet", [inner]) => classify(inner).map(|k| Kind::List(Box::new(k))),
        // A box is its content, and what lets a type contain itself.
        ("Box", [inner]) => classify(inner),
        ("Rc" | "Arc" | "Cow", _) => Err(format!(
            "`{shown}`: smart pointers are not supported; use the inner type ({SUPPORTED})"
        )),
        // Checked against `#[arg(any)]` by the caller, which knows the attributes.
        ("Value", []) => Ok(Kind::Any),
        // Not known by name: read through `ArgType`, and the compiler says when the type does
        // not implement it (aliases and newtypes of known types included).
        _ => Ok(Kind::Other),
    }
}

fn classify_tz(tz: &Type) -> bool {
    match tz {
        Type::Path(p) => p
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "FixedOffset" || s.ident == "Utc"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{classify, show, Kind};

    fn ty(source: &str) -> syn::Type {
        syn::parse_str(source).unwrap()
    }

    #[test]
    fn shows_types_as_written() {
        for source in [
            "HashMap<String, String>",
            "&'static str",
            "(i64, i64)",
            "std::collections::HashMap<String, Vec<u8>>",
            "Option<Option<String>>",
            "&'a [u8]",
        ] {
            assert_eq!(show(&ty(source)), source);
        }
    }

    #[test]
    fn references_suggest_the_owned_type() {
        let err = classify(&ty("&'static str")).unwrap_err();
        assert!(err.contains("use `String`"), "{err}");
        let err = classify(&ty("&'a [i64]")).unwrap_err();
        assert!(err.contains("use `Vec<i64>`"), "{err}");
    }

    #[test]
    fn classifies_supported_types() {
        assert!(matches!(
            classify(&ty("u8")),
            Ok(Kind::Int { min: 0, max: 255 })
        ));
        assert!(matches!(
            classify(&ty("Option<Vec<String>>")),
            Ok(Kind::Optional(_))
        ));
        assert!(matches!(
            classify(&ty("chrono::DateTime<chrono::Utc>")),
            Ok(Kind::DateTime)
        ));
        assert!(classify(&ty("i128")).is_err());
        assert!(classify(&ty("Option<Option<u8>>")).is_err());
        assert!(classify(&ty("DateTime<Local>")).is_err());
        assert!(matches!(classify(&ty("OrderId")), Ok(Kind::Other)));
        assert!(matches!(
            classify(&ty("Vec<ext::Wrapper<u8>>")),
            Ok(Kind::List(_))
        ));
        assert!(matches!(
            classify(&ty("std::collections::HashMap<String, Vec<u8>>")),
            Ok(Kind::Map(_))
        ));
        assert!(classify(&ty("BTreeMap<u32, String>")).is_err());
    }
}
