//! What changed from a pinned definition to the one a server lists now, as short phrases
//! that name where: a property added or removed, a bound dropped, raised or lowered, `enum`
//! values added or removed, a property no longer required, `additionalProperties` opened,
//! an annotation or a description changed.
//!
//! Places in the arguments are written as the gate writes the paths of its errors (`$` the
//! arguments, `$.quantity`, `$.lines[*].sku`, `$.tags.*` for the values of keys a schema does
//! not name); a definition under `$defs` as `$defs.Name`; the tool's own `annotations.NAME`
//! and `description`.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt::{self, Write};

use serde_json::{Map, Value};
use toolargs_core::internal::push_key;
use toolargs_semantic::canonical_json;

use super::NAMED_CHANGES;

/// One difference between a pinned definition and the listed one.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DefinitionChange {
    /// Where: an argument's path (`$.quantity`, `$.lines[*].sku`; `$` for the arguments
    /// object itself), a definition under `$defs` (`$defs.Address.city`), an annotation
    /// (`annotations.readOnlyHint`), or the tool's `description`.
    pub path: String,
    /// What changed there, from the pinned definition to the listed one: `property added`,
    /// `maximum 10 dropped`, `maximum raised from 10 to 100 (wider)`, `no longer required`,
    /// `additionalProperties opened (was false)`, `changed from true to false`, ...
    pub what: String,
}

impl fmt::Display for DefinitionChange {
    /// `path: what`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.what)
    }
}

/// `changes` as one line for people: each change (`path: what`) joined by `; `, the first
/// ten of them and then how many more; `the definition changed` when none is given.
pub fn describe_changes(changes: &[DefinitionChange]) -> String {
    if changes.is_empty() {
        return "the definition changed".to_owned();
    }
    let mut text = String::new();
    for (index, change) in changes.iter().take(NAMED_CHANGES).enumerate() {
        if index > 0 {
            text.push_str("; ");
        }
        let _ = write!(text, "{change}");
    }
    if changes.len() > NAMED_CHANGES {
        let _ = write!(text, "; and {} more", changes.len() - NAMED_CHANGES);
    }
    text
}

/// The bounds, whose change widens or narrows what a schema takes: raising an upper bound or
/// lowering a lower one widens it.
const UPPER_BOUNDS: [&str; 6] = [
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
    "maxContains",
];
const LOWER_BOUNDS: [&str; 6] = [
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
    "minContains",
];

/// The most characters of a value a phrase shows.
const SHOWN: usize = 60;

/// The changes from `pinned` to `listed`, both the pinned members of a definition.
pub(super) fn between(pinned: &Value, listed: &Value) -> Vec<DefinitionChange> {
    let mut out = Changes::default();
    match (pinned.get("inputSchema"), listed.get("inputSchema")) {
        (Some(old), Some(new)) => out.schema(old, new, "$"),
        (Some(old), None) => out.push("$", format!("inputSchema {} dropped", shown(old))),
        (None, Some(new)) => out.push("$", format!("inputSchema {} added", shown(new))),
        (None, None) => {}
    }
    out.annotations(pinned.get("annotations"), listed.get("annotations"));
    match (pinned.get("description"), listed.get("description")) {
        (Some(old), Some(new)) if !same(old, new) => out.push("description", "changed".into()),
        (Some(_), None) => out.push("description", "dropped".into()),
        (None, Some(_)) => out.push("description", "added".into()),
        _ => {}
    }
    out.list
}

#[derive(Default)]
struct Changes {
    list: Vec<DefinitionChange>,
}

/// What a keyword that may close an object says of the keys its schema does not name.
enum Extra<'a> {
    /// Absent or `true`: any.
    Open,
    /// `false`: none.
    Closed,
    /// A schema they must match.
    Schema(&'a Value),
}

impl Extra<'_> {
    fn of(value: Option<&Value>) -> Extra<'_> {
        match value {
            None | Some(Value::Bool(true)) => Extra::Open,
            Some(Value::Bool(false)) => Extra::Closed,
            Some(schema) => Extra::Schema(schema),
        }
    }
}

impl Changes {
    fn push(&mut self, path: &str, what: String) {
        self.list.push(DefinitionChange {
            path: path.to_owned(),
            what,
        });
    }

    /// The changes of one schema, at `path`.
    fn schema(&mut self, old: &Value, new: &Value, path: &str) {
        if same(old, new) {
            return;
        }
        let (Value::Object(old), Value::Object(new)) = (old, new) else {
            self.push(
                path,
                format!("schema changed from {} to {}", shown(old), shown(new)),
            );
            return;
        };
        // The schema's own keywords first, then what it says of the values below it.
        let keys: BTreeSet<(u8, &str)> = old
            .keys()
            .chain(new.keys())
            .map(|key| (rank(key), key.as_str()))
            .collect();
        for (_, key) in keys {
            let (o, n) = (old.get(key), new.get(key));
            if let (Some(o), Some(n)) = (o, n) {
                if same(o, n) {
                    continue;
                }
            }
            match key {
                "properties" => self.properties(o, n, path),
                "required" => self.required(o, n, path),
                "additionalProperties" | "unevaluatedProperties" => self.extra(key, o, n, path),
                "items" if is_schema(o) && is_schema(n) => {
                    if let (Some(o), Some(n)) = (o, n) {
                        self.schema(o, n, &format!("{path}[*]"));
                    }
                }
                "$defs" | "definitions" => self.definitions(key, o, n),
                "enum" => self.enumeration(o, n, path),
                "anyOf" | "oneOf" | "allOf" => self.branches(key, o, n, path),
                "description" | "title" => self.text(key, o, n, path),
                _ if UPPER_BOUNDS.contains(&key) => self.bound(key, o, n, true, path),
                _ if LOWER_BOUNDS.contains(&key) => self.bound(key, o, n, false, path),
                _ => self.keyword(key, o, n, path),
            }
        }
    }

    /// `properties`, absent read as none: each one added, removed, or changed.
    fn properties(&mut self, old: Option<&Value>, new: Option<&Value>, path: &str) {
        let (Some(old), Some(new)) = (object_or_empty(old), object_or_empty(new)) else {
            return self.keyword("properties", old, new, path);
        };
        let names: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
        for name in names {
            let at = child(path, name);
            match (old.get(name), new.get(name)) {
                (Some(o), Some(n)) => self.schema(o, n, &at),
                (Some(_), None) => self.push(&at, "property removed".into()),
                (None, Some(_)) => self.push(&at, "property added".into()),
                (None, None) => {}
            }
        }
    }

    /// `required`, absent read as none: each name no longer or now required.
    fn required(&mut self, old: Option<&Value>, new: Option<&Value>, path: &str) {
        let (Some(old), Some(new)) = (names_or_empty(old), names_or_empty(new)) else {
            return self.keyword("required", old, new, path);
        };
        for name in old.difference(&new) {
            self.push(&child(path, name), "no longer required".into());
        }
        for name in new.difference(&old) {
            self.push(&child(path, name), "now required".into());
        }
    }

    /// `additionalProperties` or `unevaluatedProperties`: opened, closed, or its schema
    /// changed (at `path.*`).
    fn extra(&mut self, key: &str, old: Option<&Value>, new: Option<&Value>, path: &str) {
        let what = match (Extra::of(old), Extra::of(new)) {
            (Extra::Closed, Extra::Open) => format!("{key} opened (was false)"),
            (Extra::Closed, Extra::Schema(_)) => format!("{key} opened to a schema (was false)"),
            (Extra::Schema(_), Extra::Open) => format!("{key} opened (was a schema)"),
            (Extra::Open, Extra::Closed) => format!("{key} closed (now false)"),
            (Extra::Schema(_), Extra::Closed) => format!("{key} closed (was a schema)"),
            (Extra::Open, Extra::Schema(_)) => format!("{key} narrowed to a schema"),
            (Extra::Schema(o), Extra::Schema(n)) => return self.schema(o, n, &format!("{path}.*")),
            _ => return self.keyword(key, old, new, path),
        };
        self.push(path, what);
    }

    /// `$defs` or `definitions`: each definition added, removed, or changed.
    fn definitions(&mut self, key: &str, old: Option<&Value>, new: Option<&Value>) {
        let (Some(old), Some(new)) = (object_or_empty(old), object_or_empty(new)) else {
            return self.keyword(key, old, new, "$");
        };
        let names: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
        for name in names {
            let at = child(key, name);
            match (old.get(name), new.get(name)) {
                (Some(o), Some(n)) => self.schema(o, n, &at),
                (Some(_), None) => self.push(&at, "definition removed".into()),
                (None, Some(_)) => self.push(&at, "definition added".into()),
                (None, None) => {}
            }
        }
    }

    /// `enum`: the values added and those removed.
    fn enumeration(&mut self, old: Option<&Value>, new: Option<&Value>, path: &str) {
        match (old, new) {
            (Some(Value::Array(old)), Some(Value::Array(new))) => {
                let old_set: BTreeSet<String> = old.iter().map(canonical_json).collect();
                let new_set: BTreeSet<String> = new.iter().map(canonical_json).collect();
                let added: Vec<&String> = new_set.difference(&old_set).collect();
                let removed: Vec<&String> = old_set.difference(&new_set).collect();
                if !added.is_empty() {
                    self.push(path, format!("enum values added: {}", listed(&added)));
                }
                if !removed.is_empty() {
                    self.push(path, format!("enum values removed: {}", listed(&removed)));
                }
            }
            (Some(Value::Array(old)), None) => {
                self.push(path, format!("enum of {} values dropped", old.len()));
            }
            (None, Some(Value::Array(new))) => {
                self.push(path, format!("enum of {} values added", new.len()));
            }
            _ => self.keyword("enum", old, new, path),
        }
    }

    /// `anyOf`, `oneOf` or `allOf`: branch by branch when they are as many, else how many.
    fn branches(&mut self, key: &str, old: Option<&Value>, new: Option<&Value>, path: &str) {
        match (old, new) {
            (Some(Value::Array(old)), Some(Value::Array(new))) if old.len() == new.len() => {
                for (index, (o, n)) in old.iter().zip(new).enumerate() {
                    let mut branch = Changes::default();
                    branch.schema(o, n, path);
                    for mut change in branch.list {
                        let _ = write!(change.what, " (in {key}[{index}])");
                        self.list.push(change);
                    }
                }
            }
            (Some(Value::Array(old)), Some(Value::Array(new))) => self.push(
                path,
                format!("{key} of {} schemas, was {}", new.len(), old.len()),
            ),
            _ => self.keyword(key, old, new, path),
        }
    }

    /// `description` or `title` of a schema: changed, added or dropped, not shown.
    fn text(&mut self, key: &str, old: Option<&Value>, new: Option<&Value>, path: &str) {
        let what = match (old, new) {
            (Some(_), Some(_)) => "changed",
            (Some(_), None) => "dropped",
            (None, Some(_)) => "added",
            (None, None) => return,
        };
        self.push(path, format!("{key} {what}"));
    }

    /// A bound: dropped, added, raised or lowered (wider or narrower).
    fn bound(
        &mut self,
        key: &str,
        old: Option<&Value>,
        new: Option<&Value>,
        upper: bool,
        path: &str,
    ) {
        let (Some(Value::Number(o)), Some(Value::Number(n))) = (old, new) else {
            return self.keyword(key, old, new, path);
        };
        let (o_text, n_text) = (number_text(o), number_text(n));
        let (Some(o), Some(n)) = (o.as_f64(), n.as_f64()) else {
            return self.keyword(key, old, new, path);
        };
        let what = if n > o {
            let wider = if upper { "wider" } else { "narrower" };
            format!("{key} raised from {o_text} to {n_text} ({wider})")
        } else if n < o {
            let wider = if upper { "narrower" } else { "wider" };
            format!("{key} lowered from {o_text} to {n_text} ({wider})")
        } else {
            format!("{key} changed from {o_text} to {n_text}")
        };
        self.push(path, what);
    }

    /// Any other keyword: dropped, added, or changed, with its values.
    fn keyword(&mut self, key: &str, old: Option<&Value>, new: Option<&Value>, path: &str) {
        let what = match (old, new) {
            (Some(old), Some(new)) => {
                format!("{key} changed from {} to {}", shown(old), shown(new))
            }
            (Some(old), None) => format!("{key} {} dropped", shown(old)),
            (None, Some(new)) => format!("{key} {} added", shown(new)),
            (None, None) => return,
        };
        self.push(path, what);
    }

    /// The tool's `annotations`, absent read as none: each hint added, dropped or changed.
    fn annotations(&mut self, old: Option<&Value>, new: Option<&Value>) {
        let (Some(o), Some(n)) = (object_or_empty(old), object_or_empty(new)) else {
            let (o, n) = (old.unwrap_or(&Value::Null), new.unwrap_or(&Value::Null));
            if !same(o, n) {
                let what = format!("changed from {} to {}", shown(o), shown(n));
                self.push("annotations", what);
            }
            return;
        };
        let names: BTreeSet<&String> = o.keys().chain(n.keys()).collect();
        for name in names {
            let at = child("annotations", name);
            match (o.get(name), n.get(name)) {
                (Some(a), Some(b)) if !same(a, b) => {
                    self.push(&at, format!("changed from {} to {}", shown(a), shown(b)));
                }
                (Some(a), None) => self.push(&at, format!("dropped (was {})", shown(a))),
                (None, Some(b)) => self.push(&at, format!("added ({})", shown(b))),
                _ => {}
            }
        }
    }
}

/// Whether two values are the same JSON: numbers by their value (`10` is `10.0`), members
/// in any order.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(_), Value::Number(_)) => canonical_json(a) == canonical_json(b),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(key, value)| b.get(key).is_some_and(|other| same(value, other)))
        }
        _ => a == b,
    }
}

/// Where a keyword's changes come among a schema's: its own keywords first, then its
/// properties, which it requires, the keys it does not name, its items, its branches, and
/// the definitions below it.
fn rank(key: &str) -> u8 {
    match key {
        "properties" => 1,
        "required" => 2,
        "additionalProperties" | "unevaluatedProperties" => 3,
        "items" => 4,
        "anyOf" | "oneOf" | "allOf" => 5,
        "$defs" | "definitions" => 6,
        _ => 0,
    }
}

/// Whether a keyword's value is a schema (an object or a boolean), or absent.
fn is_schema(value: Option<&Value>) -> bool {
    matches!(value, Some(Value::Object(_) | Value::Bool(_)))
}

/// The object `value` is, an empty one when absent; `None` when it is something else.
fn object_or_empty(value: Option<&Value>) -> Option<Cow<'_, Map<String, Value>>> {
    match value {
        None => Some(Cow::Owned(Map::new())),
        Some(Value::Object(map)) => Some(Cow::Borrowed(map)),
        Some(_) => None,
    }
}

/// The strings of a `required` array, none when absent; `None` when it is something else.
fn names_or_empty(value: Option<&Value>) -> Option<BTreeSet<String>> {
    match value {
        None => Some(BTreeSet::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_str().map(str::to_owned))
            .collect(),
        Some(_) => None,
    }
}

/// A value as a phrase shows it: canonical JSON, cut at [`SHOWN`] characters.
fn shown(value: &Value) -> String {
    let text = canonical_json(value);
    match text.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// Values (canonical JSON) as a list: the first five, then how many more.
fn listed(values: &[&String]) -> String {
    let mut text = values
        .iter()
        .take(5)
        .map(|value| match value.char_indices().nth(SHOWN) {
            Some((end, _)) => format!("{}…", &value[..end]),
            None => (*value).clone(),
        })
        .collect::<Vec<_>>()
        .join(", ");
    if values.len() > 5 {
        let _ = write!(text, " and {} more", values.len() - 5);
    }
    text
}

/// The path of the member `key` below `path`: `.key` for a plain identifier, `['key']` (with
/// `'` and `\` escaped) otherwise, as the gate writes the paths of its errors.
fn child(path: &str, key: &str) -> String {
    let mut out = String::with_capacity(path.len() + key.len() + 4);
    out.push_str(path);
    push_key(&mut out, key);
    out
}

/// A number as canonical JSON writes it (`10.0` is `10`).
fn number_text(number: &serde_json::Number) -> String {
    canonical_json(&Value::Number(number.clone()))
}
