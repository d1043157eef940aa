//! Objects: the pieces a derived struct's reader is made of. Members are matched to fields,
//! unknown keys go through the tool's policy, and each field's presence is decided here:
//! absent or null is the default, `None`, or a `missing` error.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{type_error, ArgType};
use crate::cx::Cx;
use crate::node::Node;
use crate::path::Path;
use crate::report::{Code, Rule};
use crate::spec::{FieldSpec, UnknownPolicy};

/// The members of an object node, or a `type` error.
pub fn object_members<'n, 'a>(
    node: &'n Node<'a>,
    path: &Path<'_>,
    cx: &mut Cx,
) -> Option<&'n [(Cow<'a, str>, Node<'a>)]> {
    match node {
        Node::Object(members) => Some(members),
        other => {
            type_error(cx, path, "an object", other);
            None
        }
    }
}

/// Handles a key the object does not declare, by the tool's policy: strip it (a repair) or
/// reject it with a did-you-mean hint. The key is never renamed.
pub fn unknown_member(key: &str, value: &Node<'_>, known: &[&str], path: &Path<'_>, cx: &mut Cx) {
    let at = path.key(key);
    match cx.unknown_policy() {
        UnknownPolicy::Strip => {
            cx.repair(
                &at,
                false,
                Rule::StripUnknownField,
                value.to_value(),
                Value::Null,
            );
        }
        UnknownPolicy::Reject => {
            cx.error_with(&at, Code::UnknownField, || {
                // Written in one allocation of the right size: a rejection with an unknown
                // key is common in replays.
                let names: usize = known.iter().map(|name| name.len() + 2).sum();
                let mut message = String::with_capacity(key.len().min(200) + names + 80);
                message.push_str("unknown field ");
                crate::text::push_preview(&mut message, key);
                if let Some(hint) = did_you_mean(key, known) {
                    message.push_str(" (did you mean \"");
                    message.push_str(hint);
                    message.push_str("\"?)");
                }
                if known.is_empty() {
                    message.push_str("; this object accepts no fields");
                } else {
                    message.push_str("; accepted fields: ");
                    for (i, name) in known.iter().enumerate() {
                        if i > 0 {
                            message.push_str(", ");
                        }
                        message.push_str(name);
                    }
                }
                message
            });
        }
    }
}

/// The declared name closest to `key`, when it is close enough to be a likely typo.
pub(crate) fn did_you_mean<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    if key.len() > 256 {
        return None;
    }
    let key = key.to_ascii_lowercase();
    known
        .iter()
        .filter(|name| may_be_close(&key, name))
        .map(|name| (strsim::jaro_winkler(&key, name), *name))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name)
}

/// False only when `a` and `b` cannot score 0.8 in `strsim::jaro_winkler`. Jaro matches each character at most once on
/// each side, so it matches no more than the shorter length, nor more than the characters the
/// two strings share counted with their multiplicity (the window only lowers that), and its
/// transposition term is at most 1; Winkler's bonus lifts a score `j` by `0.1 p (1 - j)` for
/// the common prefix `p` (at most 4), which is known exactly here. Most declared names share
/// too few letters with an unknown key, and these counts are far cheaper than the score.
fn may_be_close(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.is_empty() || b.is_empty() || !a.is_ascii() || !b.is_ascii() {
        return true;
    }
    let prefix = a.iter().zip(b).take(4).take_while(|(x, y)| x == y).count() as f64;
    // Below the threshold with a margin far above any rounding of the computation.
    let reaches = |matches: usize| {
        let m = matches as f64;
        let jaro = (m / a.len() as f64 + m / b.len() as f64 + 1.0) / 3.0;
        jaro + 0.1 * prefix * (1.0 - jaro) >= 0.79
    };
    if !reaches(a.len().min(b.len())) {
        return false;
    }
    // How many times each byte of `b` can still be matched.
    let mut left = [0u8; 128];
    for &c in b {
        left[usize::from(c)] = left[usize::from(c)].saturating_add(1);
    }
    let mut shared = 0usize;
    for &c in a {
        let n = &mut left[usize::from(c)];
        if *n > 0 {
            *n -= 1;
            shared += 1;
        }
    }
    reaches(shared)
}

/// Reads one field: absent or null gives the default (or `None` for an `Option`), or a
/// `missing` error for a required field; a present value goes to the type's coercer.
pub fn field<T: ArgType>(
    member: Option<&Node<'_>>,
    spec: &FieldSpec<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
    default: Option<fn() -> T>,
) -> Option<T> {
    field_with(
        member,
        path,
        cx,
        || default.map(|make| make()).or_else(T::when_absent),
        T::canonical,
        |node, cx| T::coerce(node, spec, path, cx),
    )
}

/// The presence rules of [`field`] for any representation: `absent` gives the value of an
/// absent field (`None` when it is required), `canonical` its JSON for the `null_to_absent`
/// record, and `present` reads a value that is there and not null.
pub fn field_with<T>(
    member: Option<&Node<'_>>,
    path: &Path<'_>,
    cx: &mut Cx,
    absent: impl FnOnce() -> Option<T>,
    canonical: impl FnOnce(&T) -> Value,
    present: impl FnOnce(&Node<'_>, &mut Cx) -> Option<T>,
) -> Option<T> {
    match member {
        Some(Node::Null) | None => match absent() {
            Some(value) => {
                if member.is_some() && !cx.null_as_absent() {
                    cx.repair(
                        path,
                        false,
                        Rule::NullToAbsent,
                        Value::Null,
                        canonical(&value),
                    );
                }
                Some(value)
            }
            None => {
                let what = if member.is_some() { "null" } else { "absent" };
                cx.error_with(path, Code::Missing, || {
                    format!("this field is required but was {what}; send a value")
                });
                None
            }
        },
        Some(node) => present(node, cx),
    }
}

/// One property of an object schema, built with [`Property::new`] and the `with_*` methods.
#[derive(Debug)]
#[non_exhaustive]
pub struct Property {
    /// JSON name of the field.
    pub name: &'static str,
    /// Schema of the field's type.
    pub schema: Value,
    /// Description, if any.
    pub description: Option<&'static str>,
    /// Whether the field must be present.
    pub required: bool,
    /// The canonical default, if the field has one.
    pub default: Option<Value>,
}

impl Property {
    /// An optional property without a description or a default.
    pub fn new(name: &'static str, schema: Value) -> Property {
        Property {
            name,
            schema,
            description: None,
            required: false,
            default: None,
        }
    }

    /// Sets the description.
    pub fn with_description(mut self, description: Option<&'static str>) -> Property {
        self.description = description;
        self
    }

    /// Marks the property required (or not).
    pub fn with_required(mut self, required: bool) -> Property {
        self.required = required;
        self
    }

    /// Sets the canonical default.
    pub fn with_default(mut self, default: Option<Value>) -> Property {
        self.default = default;
        self
    }
}

/// Assembles an object schema: properties in declaration order, `required`, and
/// `additionalProperties: false` (a key the tool does not declare is never part of a good call).
pub fn object_schema(description: Option<&str>, properties: Vec<Property>) -> Value {
    let mut props = Map::new();
    let mut required = Vec::new();
    for p in properties {
        let mut schema = p.schema;
        if let Some(map) = schema.as_object_mut() {
            if let Some(d) = p.description {
                map.insert("description".to_owned(), Value::from(d));
            }
            if let Some(d) = p.default {
                map.insert("default".to_owned(), d);
            }
        }
        if p.required {
            required.push(Value::from(p.name));
        }
        props.insert(p.name.to_owned(), schema);
    }
    let mut schema = Map::new();
    schema.insert("type".to_owned(), Value::from("object"));
    if let Some(d) = description {
        schema.insert("description".to_owned(), Value::from(d));
    }
    schema.insert("properties".to_owned(), Value::Object(props));
    schema.insert("required".to_owned(), Value::Array(required));
    schema.insert("additionalProperties".to_owned(), Value::Bool(false));
    Value::Object(schema)
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn the_bound_never_drops_a_close_pair() {
        // Every pair of four hundred short strings over a small alphabet (many matches and
        // transpositions), plus non-ASCII and long ones.
        let mut words: Vec<String> = Vec::new();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..400 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 12) as usize;
            let word: String = (0..len)
                .map(|k| char::from(b"abcde_"[((state >> (4 * k)) % 6) as usize]))
                .collect();
            words.push(word);
        }
        words.extend(["", "ä", "amöunt", &"x".repeat(70), &"xy".repeat(40)].map(String::from));
        let mut close = 0;
        for a in &words {
            for b in &words {
                if strsim::jaro_winkler(a, b) >= 0.8 {
                    close += 1;
                    assert!(super::may_be_close(a, b), "{a:?} {b:?}");
                }
            }
        }
        // The words are close often enough for the bound to be tested.
        assert!(close > words.len(), "{close}");
    }

    #[test]
    fn the_bound_never_drops_a_close_name() {
        let words = [
            "",
            "a",
            "ab",
            "amount",
            "amount_cents",
            "amonut_cents",
            "order",
            "order_id",
            "orderid",
            "notify",
            "notify_customer",
            "reason",
            "reasons",
            "tags",
            "tag",
            "effective_date",
            "date",
            "currency",
            "zzz",
            "x_y_z",
            "cents",
            "idorder",
            "\u{e9}t\u{e9}",
        ];
        for a in words {
            for b in words {
                if strsim::jaro_winkler(a, b) >= 0.8 {
                    assert!(super::may_be_close(a, b), "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn hints_only_close_names() {
        let known = ["order_id", "amount_cents", "reason"];
        assert_eq!(did_you_mean("amount", &known), Some("amount_cents"));
        assert_eq!(did_you_mean("Reason", &known), Some("reason"));
        assert_eq!(did_you_mean("zzz", &known), None);
    }
}
