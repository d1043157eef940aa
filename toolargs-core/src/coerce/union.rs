//! Unions: values that are one of several variants.
//!
//! A tagged union is an object whose tag key names the variant; the tag is read as a string
//! enum (exact, else one ASCII-case-insensitive match as `enum_casefold`). An untagged union
//! has no such key, so every variant is tried, each on a scratch [`Cx`], and the one-meaning
//! rule picks the result: the single variant that reads the value as is, else the single one
//! that reads it with repairs. Two at the same level is `ambiguous_variant`: taking the first
//! would let declaration order decide what the caller meant. None at all reports the errors of
//! the closest variant (fewest errors, the first on a tie).
//!
//! Both are generic over closures so that any front door (derived types, loaded schemas) can
//! wire its variants to them.

use std::borrow::Cow;

use serde_json::{json, Value};

use super::enumeration::coerce_enum;
use super::object::object_members;
use crate::cx::Cx;
use crate::node::Node;
use crate::path::Path;
use crate::report::Code;
use crate::spec::FieldSpec;

/// An object's members, in payload order.
pub type Members<'n, 'a> = &'n [(Cow<'a, str>, Node<'a>)];

/// The members of a tagged union's object and the index in `names` of the variant its `tag`
/// member names. A missing tag is `missing` at `$.<tag>`; a tag naming no variant is `enum`
/// there, listing the variants.
pub fn tagged<'n, 'a>(
    node: &'n Node<'a>,
    tag: &str,
    names: &[&str],
    spec: &FieldSpec<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
) -> Option<(usize, Members<'n, 'a>)> {
    let members = object_members(node, path, cx)?;
    let at = path.key(tag);
    let Some((_, value)) = members.iter().find(|(key, _)| key.as_ref() == tag) else {
        cx.error_with(&at, Code::Missing, || {
            format!(
                "the tag \"{tag}\" is required and names the variant; send one of {}",
                quoted(names)
            )
        });
        return None;
    };
    let index = coerce_enum(value, names, spec, &at, cx)?;
    Some((index, members))
}

/// Reads an untagged union by the one-meaning rule. `attempt(i, cx)` reads variant `i` of
/// `names` into the scratch `cx` it is given; only the chosen attempt's repairs (or, when
/// none accepts, the closest one's errors) reach `cx`.
pub fn untagged<T>(
    names: &[&str],
    path: &Path<'_>,
    cx: &mut Cx,
    mut attempt: impl FnMut(usize, &mut Cx) -> Option<T>,
) -> Option<T> {
    // Each variant's outcome: the value with its collector, or the collector of its errors.
    let mut clean: Vec<(usize, T, Cx)> = Vec::new();
    let mut repaired: Vec<(usize, T, Cx)> = Vec::new();
    let mut closest: Option<Cx> = None;
    for index in 0..names.len() {
        let mut scratch = cx.scratch();
        match attempt(index, &mut scratch) {
            Some(value) if !scratch.has_errors() => {
                if scratch.repairs().is_empty() {
                    clean.push((index, value, scratch));
                } else {
                    repaired.push((index, value, scratch));
                }
            }
            _ => {
                if closest
                    .as_ref()
                    .is_none_or(|best| scratch.error_count() < best.error_count())
                {
                    closest = Some(scratch);
                }
            }
        }
    }
    let level = if clean.is_empty() { repaired } else { clean };
    if level.len() > 1 {
        let both: Vec<&str> = level.iter().map(|(i, _, _)| names[*i]).collect();
        cx.error(
            path,
            Code::AmbiguousVariant,
            format!(
                "this value reads as {} equally well, so its meaning is unclear; send it in the exact form of one of them",
                quoted(&both)
            ),
        );
        return None;
    }
    if let Some((_, value, scratch)) = level.into_iter().next() {
        cx.absorb(scratch);
        return Some(value);
    }
    match closest {
        Some(scratch) if scratch.has_errors() => cx.absorb(scratch),
        // An attempt that returned nothing without saying why, or a union without variants.
        _ => cx.error_with(path, Code::Type, || {
            format!("expected one of {}", quoted(names))
        }),
    }
    None
}

/// The schema of a union: `anyOf` its variants' schemas. `anyOf` and not `oneOf` because it
/// is what every provider takes (OpenAI's strict mode refuses `oneOf`), and a tagged union's
/// variants exclude each other by their tag anyway.
pub fn union_schema(description: Option<&str>, variants: Vec<Value>) -> Value {
    let mut schema = json!({ "anyOf": variants });
    if let (Some(d), Some(map)) = (description, schema.as_object_mut()) {
        map.insert("description".to_owned(), Value::from(d));
    }
    schema
}

/// The schema of a tagged union's tag inside one variant: the variant's name, alone.
pub fn tag_schema(name: &str) -> Value {
    json!({ "type": "string", "const": name })
}

fn quoted(names: &[&str]) -> String {
    let mut out = String::new();
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        crate::text::push_json_str(&mut out, name);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::untagged;
    use crate::cx::Cx;
    use crate::path::Path;
    use crate::report::{Code, Rule};
    use crate::spec::UnknownPolicy;
    use serde_json::Value;

    fn run(outcomes: &[(bool, usize, usize)]) -> (Option<usize>, Cx) {
        let mut cx = Cx::new(UnknownPolicy::Reject);
        let names: Vec<String> = (0..outcomes.len()).map(|i| format!("v{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let got = untagged(&names, &Path::ROOT, &mut cx, |i, cx| {
            let (ok, repairs, errors) = outcomes[i];
            for _ in 0..repairs {
                cx.repair(
                    &Path::ROOT,
                    false,
                    Rule::EnumCasefold,
                    Value::Null,
                    Value::Null,
                );
            }
            for _ in 0..errors {
                cx.error(&Path::ROOT, Code::Type, format!("v{i}"));
            }
            ok.then_some(i)
        });
        (got, cx)
    }

    #[test]
    fn as_is_beats_repaired() {
        let (got, cx) = run(&[(true, 1, 0), (true, 0, 0)]);
        assert_eq!(got, Some(1));
        assert!(cx.repairs().is_empty());
        let (got, cx) = run(&[(false, 0, 1), (true, 1, 0)]);
        assert_eq!(got, Some(1));
        assert_eq!(cx.repairs().len(), 1);
    }

    #[test]
    fn two_at_one_level_is_ambiguous() {
        let (got, cx) = run(&[(true, 0, 0), (true, 0, 0)]);
        assert_eq!(got, None);
        let rejection = cx.finish::<()>(None).unwrap_err();
        assert_eq!(rejection.errors()[0].code, Code::AmbiguousVariant);
        assert!(rejection.errors()[0].message.contains("\"v0\", \"v1\""));
    }

    #[test]
    fn none_reports_the_closest() {
        let (got, cx) = run(&[(false, 0, 2), (false, 0, 1), (false, 0, 1)]);
        assert_eq!(got, None);
        let rejection = cx.finish::<()>(None).unwrap_err();
        assert_eq!(rejection.errors().len(), 1);
        assert_eq!(rejection.errors()[0].message, "v1");
    }
}
