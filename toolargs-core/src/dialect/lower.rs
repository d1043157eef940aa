//! A schema lowered for what a dialect takes, with every change listed.
//!
//! The walk keeps what the dialect takes ([`Dialect::keeps`](super::Dialect::keeps)) and changes the rest in ways
//! that never forbid what the full schema allows: a keyword the provider lacks is dropped
//! (the constraint is wider), or said another way that is exact or wider (`oneOf` as `anyOf`,
//! `const` as a one-value `enum`, an exclusive bound as an inclusive one, `allOf` merged into
//! its schema where the merge is exact, a `$ref` written out). What a dropped keyword said is
//! added to the description where it can be said in words. The gate enforces the full schema
//! either way; [`Change`] records, keyword by keyword, what the model was told instead.

use serde_json::{Map, Value};

use crate::coerce::format::Format;
use crate::provider::{Provider, ProviderDef};
use crate::schema::Change;

/// Annotations: keywords that constrain nothing, so dropping them loses no check.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
];

/// Keywords whose value is one schema.
const ONE_SCHEMA: &[&str] = &[
    "items",
    "additionalProperties",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];

/// Keywords whose value is an array of schemas.
const SCHEMA_ARRAYS: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];

/// Keywords whose value maps names to schemas.
const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// What a lowering keeps and how it reshapes: a provider's rules, in its strict mode or not,
/// or the plain JSON Schema dialects' (every keyword but OpenAPI's `nullable`).
#[derive(Clone, Copy)]
pub(crate) struct Rules {
    /// The provider whose rules these are; `None` for plain JSON Schema.
    def: Option<&'static dyn ProviderDef>,
    /// In the provider's strict mode.
    strict: bool,
}

impl Rules {
    /// Plain JSON Schema: 2020-12 whole, OpenAPI's `nullable` said as a type array.
    pub(crate) const PLAIN: Rules = Rules {
        def: None,
        strict: false,
    };

    /// The rules of `provider`, in its strict mode when `strict`.
    pub(crate) fn of(provider: Provider, strict: bool) -> Rules {
        Rules {
            def: Some(provider.def()),
            strict,
        }
    }

    /// Whether these rules keep `keyword` (with its `value`) anywhere in the schema.
    pub(crate) fn keeps(self, keyword: &str, value: &Value) -> bool {
        match self.def {
            Some(def) => def.keeps(keyword, value, self.strict),
            None => keyword != "nullable",
        }
    }

    /// True when these rules refuse `keyword` at the root of a schema, where they take it
    /// below.
    fn refuses_at_root(self, keyword: &str) -> bool {
        self.def.is_some_and(|def| def.refuses_at_root(keyword))
    }

    /// What a keyword these rules drop told the model, in words for its description. The
    /// gate enforces a dropped constraint either way; telling it keeps the model from
    /// learning it by rejection.
    fn note(self, key: &str, value: &Value) -> Option<String> {
        if self.keeps(key, value) {
            return None;
        }
        let characters = |n: &Value| match n.as_u64() {
            Some(1) => "1 character".to_owned(),
            _ => format!("{n} characters"),
        };
        match key {
            "format" if value == "date" => Some("A date written YYYY-MM-DD.".to_owned()),
            "format" if value == "uuid" => {
                Some("A UUID written 8-4-4-4-12 hexadecimal digits.".to_owned())
            }
            "format" if value == "uri" => Some("An absolute URL.".to_owned()),
            "minLength" => Some(format!("At least {}.", characters(value))),
            "maxLength" => Some(format!("At most {}.", characters(value))),
            "uniqueItems" if value == &Value::Bool(true) => {
                Some("Each item at most once.".to_owned())
            }
            "default" => Some(format!("Default: {value}.")),
            _ => None,
        }
    }

    /// The notes of every keyword of `schema` these rules drop, in a fixed order.
    fn notes(self, schema: &Map<String, Value>) -> Vec<String> {
        ["format", "minLength", "maxLength", "uniqueItems", "default"]
            .into_iter()
            .filter_map(|key| self.note(key, schema.get(key)?))
            .collect()
    }
}

/// The walk over one schema for one dialect.
pub(crate) struct Lowerer<'s> {
    rules: Rules,
    /// The full schema, where a `$ref` to be written out is resolved.
    root: &'s Value,
    /// The references being written out, innermost last: one met again is a recursion.
    open: Vec<String>,
    /// True once a recursive reference was met where references are written out, or the
    /// walk ran out of [`MAX_SCHEMAS`]: the schema needs references to be shown whole.
    pub recursive: bool,
    pub changes: Vec<Change>,
    /// The schemas lowered so far, written-out references counted each time.
    visited: usize,
}

/// The most schemas one lowering writes: references that fan out (a definition used twice
/// by one used twice, and so on) would otherwise be written out without end in size.
const MAX_SCHEMAS: usize = 100_000;

impl<'s> Lowerer<'s> {
    pub(crate) fn new(rules: Rules, root: &'s Value) -> Lowerer<'s> {
        Lowerer {
            rules,
            root,
            open: Vec::new(),
            recursive: false,
            changes: Vec::new(),
            visited: 0,
        }
    }

    /// The provider is told less of `keyword` (or nothing).
    fn change(&mut self, path: &str, keyword: &str, instead: impl Into<String>, enforced: bool) {
        self.changes.push(Change {
            path: path.to_owned(),
            keyword: keyword.to_owned(),
            instead: instead.into(),
            enforced,
            exact: false,
        });
    }

    /// The provider is told `keyword` another way that means the same.
    fn same(&mut self, path: &str, keyword: &str, instead: impl Into<String>) {
        self.changes.push(Change {
            path: path.to_owned(),
            keyword: keyword.to_owned(),
            instead: instead.into(),
            enforced: true,
            exact: true,
        });
    }

    /// The root schema lowered: `$schema` and `title` are left to the tool's own name, and a
    /// root that says no type is shown as an object (Anthropic, MCP and OpenAI want one, and
    /// the gate takes only an object as a call's arguments).
    pub(crate) fn root(&mut self) -> Value {
        let typed;
        let root = match self.root {
            // Strict mode keeps refusing such a root (it would make every property required
            // of a schema that may not describe one object): its loose dialect shows it typed.
            // A reference to the root would take the type along where it is used.
            Value::Object(map)
                if !map.contains_key("type")
                    && !self.rules.strict
                    && !refers_to_root(self.root) =>
            {
                let mut map = map.clone();
                map.insert("type".to_owned(), Value::from("object"));
                self.same(
                    "",
                    "type",
                    "type: object: a call's arguments are an object, as the gate requires",
                );
                typed = Value::Object(map);
                &typed
            }
            Value::Object(map) if !map.contains_key("type") && !self.rules.strict => {
                self.change(
                    "",
                    "type",
                    "nothing: a reference points at the root, which would take the type along",
                    true,
                );
                self.root
            }
            other => other,
        };
        let mut out = self.schema(root, "");
        if let Some(map) = out.as_object_mut() {
            map.shift_remove("$schema");
            map.shift_remove("title");
        }
        out
    }

    /// Whether the dialect keeps `keyword` in the schema at `path` (some refuse a keyword at
    /// the root alone).
    fn keeps(&self, keyword: &str, value: &Value, path: &str) -> bool {
        self.rules.keeps(keyword, value)
            && !(path.is_empty() && self.rules.refuses_at_root(keyword))
    }

    /// One schema at JSON pointer `path` of the full schema.
    pub(crate) fn schema(&mut self, schema: &Value, path: &str) -> Value {
        self.visited += 1;
        if self.visited > MAX_SCHEMAS {
            if self.visited == MAX_SCHEMAS + 1 {
                self.change(path, "$ref", "nothing: too many schemas to write out", true);
            }
            self.recursive = true;
            return Value::Object(Map::new());
        }
        let Value::Object(map) = schema else {
            // Gemini's `Schema` is an object: `true` is the empty schema, and `false` (no
            // value at all) is shown as one too, which the gate narrows.
            let objects = self.rules.def.is_some_and(|def| def.schemas_are_objects());
            if let (true, Value::Bool(accepts)) = (objects, schema) {
                if *accepts {
                    self.same(path, "true", "the empty schema");
                } else {
                    self.change(path, "false", "the empty schema: nothing is refused", true);
                }
                return Value::Object(Map::new());
            }
            return schema.clone();
        };
        if let Some(Value::String(reference)) = map.get("$ref") {
            if !self.rules.keeps("$ref", &Value::Null) {
                return self.written_out(map, reference, path);
            }
            // Strict mode takes a reference alone, with no keyword beside it (OpenAI's SDK
            // writes such a one out too): written out, or alone where it recurses.
            if self.rules.strict && map.len() > 1 {
                if !self.open.iter().any(|open| open == reference) {
                    self.same(
                        path,
                        "$ref",
                        "written out: strict mode takes no keyword beside a reference",
                    );
                    return self.written_out(map, reference, path);
                }
                for (key, value) in map.iter().filter(|(key, _)| *key != "$ref") {
                    self.dropped(path, key, value);
                }
                let mut alone = Map::new();
                alone.insert("$ref".to_owned(), Value::from(reference.as_str()));
                return Value::Object(alone);
            }
        }
        if !self.keeps("allOf", &Value::Null, path) && map.contains_key("allOf") {
            if let Some(merged) = merged_all_of(map) {
                self.same(path, "allOf", "its branches merged into the schema");
                return self.object(&merged, path);
            }
        }
        self.object(map, path)
    }

    fn object(&mut self, map: &Map<String, Value>, path: &str) -> Value {
        let mut out = Map::new();
        for (key, value) in map {
            let at = format!("{path}/{}", escape(key));
            if key == "$schema" && !path.is_empty() {
                continue;
            }
            if self.keeps(key, value, path) {
                let lowered = self.children(key, value, &at);
                out.insert(key.clone(), lowered);
                continue;
            }
            self.said_otherwise(map, key, value, path, &at, &mut out);
        }
        self.widen_after_drops(map, &mut out, path);
        let notes = self.rules.notes(map);
        if !notes.is_empty() {
            let mut text = notes.join(" ");
            if let Some(Value::String(d)) = out.get("description") {
                text = format!("{d} {text}");
            }
            out.insert("description".to_owned(), Value::from(text));
        }
        let def = self.rules.def;
        if let (Some(def), true) = (def, self.rules.strict) {
            for name in def.require_all(&mut out) {
                let at = format!("{path}/properties/{}", escape(&name));
                self.same(
                    &at,
                    "required",
                    "required and nullable: `null` stands for absent",
                );
            }
        }
        if let Some(def) = def {
            for (keyword, instead, exact) in def.reshape(&mut out) {
                if exact {
                    self.same(path, keyword, instead);
                } else {
                    self.change(path, keyword, instead, true);
                }
            }
        }
        Value::Object(out)
    }

    /// The subschemas of a kept keyword, lowered.
    fn children(&mut self, key: &str, value: &Value, at: &str) -> Value {
        match value {
            Value::Object(schemas) if SCHEMA_MAPS.contains(&key) => Value::Object(
                schemas
                    .iter()
                    .map(|(name, s)| {
                        (
                            name.clone(),
                            self.schema(s, &format!("{at}/{}", escape(name))),
                        )
                    })
                    .collect(),
            ),
            Value::Array(schemas) if SCHEMA_ARRAYS.contains(&key) || key == "items" => {
                Value::Array(
                    schemas
                        .iter()
                        .enumerate()
                        .map(|(i, s)| self.schema(s, &format!("{at}/{i}")))
                        .collect(),
                )
            }
            schema @ Value::Object(_) if ONE_SCHEMA.contains(&key) => self.schema(schema, at),
            _ => value.clone(),
        }
    }

    /// A keyword the dialect does not take: said another way where one is exact or wider,
    /// else dropped.
    fn said_otherwise(
        &mut self,
        map: &Map<String, Value>,
        key: &str,
        value: &Value,
        path: &str,
        at: &str,
        out: &mut Map<String, Value>,
    ) {
        let takes = |lowerer: &Self, keyword: &str, value: &Value| {
            lowerer.keeps(keyword, value, path) && !map.contains_key(keyword)
        };
        match key {
            "oneOf" if takes(self, "anyOf", value) => {
                self.change(
                    path,
                    key,
                    "anyOf: that only one branch matches is not said",
                    true,
                );
                let branches = self.children("anyOf", value, at);
                out.insert("anyOf".to_owned(), branches);
            }
            "const" if takes(self, "enum", &Value::Array(vec![value.clone()])) => {
                out.insert("enum".to_owned(), Value::Array(vec![value.clone()]));
                self.same(path, key, "a one-value enum");
            }
            "exclusiveMinimum" | "exclusiveMaximum" => {
                let inclusive = if key == "exclusiveMinimum" {
                    "minimum"
                } else {
                    "maximum"
                };
                if value.is_number() && takes(self, inclusive, value) {
                    out.insert(inclusive.to_owned(), value.clone());
                    self.change(
                        path,
                        key,
                        format!("{inclusive} {value}: the bound itself is not excluded"),
                        true,
                    );
                } else {
                    self.dropped(path, key, value);
                }
            }
            "nullable" if value == &Value::Bool(true) => {
                // OpenAPI's spelling, read by the gate as a type array with `null`.
                if let Some(Value::String(single)) = map.get("type") {
                    let types = Value::Array(vec![Value::from(single.as_str()), "null".into()]);
                    out.insert("type".to_owned(), types);
                    self.same(path, key, "a type array with null");
                } else {
                    self.dropped(path, key, value);
                }
            }
            "$schema" | "$comment" => {}
            // Where references are written out, their definitions are too.
            "$defs" | "definitions" if !self.keeps("$ref", &Value::Null, path) => {
                self.same(path, key, "written out where each is referenced");
            }
            _ => self.dropped(path, key, value),
        }
    }

    fn dropped(&mut self, path: &str, key: &str, value: &Value) {
        let enforced = match key {
            "format" => value.as_str().and_then(Format::named).is_some(),
            "nullable" => false,
            _ => !ANNOTATIONS.contains(&key),
        };
        let instead = if self.rules.note(key, value).is_some() {
            "said in the description"
        } else {
            "nothing"
        };
        self.change(path, key, instead, enforced);
    }

    /// What a drop would make narrower is dropped with it: `additionalProperties` judges the
    /// keys that `patternProperties` did not match, `items` the items after `prefixItems`, and
    /// `unevaluatedProperties` and `unevaluatedItems` what every applicator left.
    fn widen_after_drops(
        &mut self,
        map: &Map<String, Value>,
        out: &mut Map<String, Value>,
        path: &str,
    ) {
        let mut pairs = vec![
            ("patternProperties", "additionalProperties"),
            ("prefixItems", "items"),
        ];
        // The `unevaluated*` keywords judge what every schema applied in place left.
        for applicator in [
            "properties",
            "patternProperties",
            "additionalProperties",
            "prefixItems",
            "items",
            "contains",
            "dependentSchemas",
            "allOf",
            "anyOf",
            "oneOf",
            "not",
            "if",
            "then",
            "else",
            "$ref",
        ] {
            pairs.push((applicator, "unevaluatedProperties"));
            pairs.push((applicator, "unevaluatedItems"));
        }
        for (dropped, judged) in pairs {
            if map.contains_key(dropped) && !out.contains_key(dropped) && out.contains_key(judged) {
                out.shift_remove(judged);
                self.change(
                    path,
                    judged,
                    format!("nothing: it depends on {dropped}"),
                    true,
                );
            }
        }
    }

    /// A `$ref` written out in place, for a dialect without references. A reference met
    /// again inside its own definition (a recursion) is shown as an object of any shape.
    fn written_out(&mut self, map: &Map<String, Value>, reference: &str, path: &str) -> Value {
        let said = map.get("description").and_then(Value::as_str);
        let target = resolve(self.root, reference);
        let mut out = match target {
            None => {
                self.change(
                    path,
                    "$ref",
                    "nothing: the reference does not resolve here",
                    true,
                );
                Value::Object(Map::new())
            }
            Some(_) if self.open.iter().any(|open| open == reference) => {
                self.recursive = true;
                let name = reference.rsplit('/').next().unwrap_or(reference);
                let name = if name == "#" || name.is_empty() {
                    "root"
                } else {
                    name
                };
                self.change(
                    path,
                    "$ref",
                    "an object of any shape: the type recurses",
                    true,
                );
                let mut placeholder = Map::new();
                placeholder.insert("type".to_owned(), Value::from("object"));
                placeholder.insert(
                    "description".to_owned(),
                    Value::from(format!(
                        "A {name}{}: an object of the same shape as the enclosing {name}.",
                        target
                            .and_then(|t| t.get("description"))
                            .and_then(Value::as_str)
                            .map_or(String::new(), |d| format!(" ({})", d.trim_end_matches('.')))
                    )),
                );
                Value::Object(placeholder)
            }
            Some(target) => {
                self.open.push(reference.to_owned());
                let pointer = reference.trim_start_matches('#');
                let out = self.schema(target, pointer);
                self.open.pop();
                out
            }
        };
        // A description written at the use goes before the definition's; other keywords
        // beside the reference apply to the same value and join the written-out schema.
        if let Some(out) = out.as_object_mut() {
            if let Some(said) = said {
                let text = match out.get("description").and_then(Value::as_str) {
                    Some(d) => format!("{said} {d}"),
                    None => said.to_owned(),
                };
                out.insert("description".to_owned(), Value::from(text));
            }
            let beside: Map<String, Value> = map
                .iter()
                .filter(|(k, _)| {
                    !matches!(k.as_str(), "$ref" | "description" | "$defs" | "definitions")
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if !beside.is_empty() {
                if let Value::Object(lowered) = self.schema(&Value::Object(beside), path) {
                    for (key, value) in lowered {
                        if out.contains_key(&key) {
                            self.change(path, &key, "nothing: the reference's own is shown", true);
                        } else {
                            out.insert(key, value);
                        }
                    }
                }
            }
        }
        out
    }
}

/// True when some reference in `schema` may point at its root: `#`, or any reference that is
/// not a JSON pointer below the root (one by `$id` or `$anchor` may name the root too).
fn refers_to_root(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, value)| {
            let below = value.as_str().is_some_and(|r| r.starts_with("#/"));
            (matches!(key.as_str(), "$ref" | "$dynamicRef" | "$recursiveRef") && !below)
                || refers_to_root(value)
        }),
        Value::Array(items) => items.iter().any(refers_to_root),
        _ => false,
    }
}

/// The schema a local reference (`#`, `#/$defs/name`, any JSON pointer) points at.
fn resolve<'s>(root: &'s Value, reference: &str) -> Option<&'s Value> {
    let pointer = reference.strip_prefix('#')?;
    let decoded = percent_decoded(pointer)?;
    root.pointer(&decoded)
}

fn percent_decoded(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A key as one step of a JSON pointer.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// `allOf` merged into its schema when the merge is exact: every keyword is said by one part
/// only, or said alike, or is `properties` (a property in two parts is the `allOf` of both)
/// or `required` (the union). Not exact, so `None`: a branch that is not an object schema,
/// a reference, and `additionalProperties` (or its kin) beside properties of another part,
/// since it judges only the keys of its own part.
fn merged_all_of(map: &Map<String, Value>) -> Option<Map<String, Value>> {
    let branches = map.get("allOf")?.as_array()?;
    let mut parts: Vec<&Map<String, Value>> = vec![map];
    for branch in branches {
        match branch {
            Value::Bool(true) => {}
            Value::Object(branch) => parts.push(branch),
            _ => return None,
        }
    }
    let declares = |part: &Map<String, Value>| {
        ["properties", "patternProperties", "items", "prefixItems"]
            .iter()
            .any(|k| part.contains_key(*k))
    };
    let closes = |part: &Map<String, Value>| {
        [
            "additionalProperties",
            "unevaluatedProperties",
            "unevaluatedItems",
        ]
        .iter()
        .any(|k| part.contains_key(*k))
    };
    for (i, part) in parts.iter().enumerate() {
        let others_declare = parts
            .iter()
            .enumerate()
            .any(|(j, other)| i != j && declares(other));
        if closes(part) && others_declare || (i > 0 && part.contains_key("$ref")) {
            return None;
        }
        if i > 0 && (part.contains_key("allOf") || part.contains_key("$defs")) {
            return None;
        }
    }
    let mut merged: Map<String, Value> = Map::new();
    for part in parts {
        for (key, value) in part {
            if key == "allOf" {
                continue;
            }
            match (key.as_str(), merged.get_mut(key)) {
                (_, None) => {
                    merged.insert(key.clone(), value.clone());
                }
                (_, Some(existing)) if existing == value => {}
                ("properties", Some(Value::Object(existing))) => {
                    let Value::Object(more) = value else {
                        return None;
                    };
                    for (name, schema) in more {
                        let both = match existing.get(name) {
                            Some(first) => serde_json::json!({"allOf": [first, schema]}),
                            None => schema.clone(),
                        };
                        existing.insert(name.clone(), both);
                    }
                }
                ("required", Some(Value::Array(existing))) => {
                    for name in value.as_array()? {
                        if !existing.contains(name) {
                            existing.push(name.clone());
                        }
                    }
                }
                ("description", Some(_)) => {}
                _ => return None,
            }
        }
    }
    Some(merged)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::dialect::{lower, Dialect};
    use crate::Effect;

    fn lowered(dialect: Dialect, schema: &serde_json::Value) -> (serde_json::Value, Vec<String>) {
        let lowering = lower(dialect, "t", None, Effect::Destructive, schema);
        let changes = lowering
            .changes
            .iter()
            .map(|c| format!("{} {}: {}", c.path, c.keyword, c.instead))
            .collect();
        (lowering.definition, changes)
    }

    #[test]
    fn all_of_is_merged_where_exact_and_dropped_where_not() {
        let exact = json!({
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "additionalProperties": false,
            "allOf": [{"required": ["a"]}, {"properties": {"a": {"minLength": 2}}}]
        });
        // `additionalProperties` beside another part's properties judges other keys: no merge.
        let (def, changes) = lowered(Dialect::Gemini, &exact);
        assert!(def["parameters"].get("allOf").is_none());
        assert!(def["parameters"].get("required").is_none(), "{def}");
        assert!(
            changes.contains(&" allOf: nothing".to_owned()),
            "{changes:?}"
        );
        let mergeable = json!({
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "allOf": [{"required": ["a"]}, {"properties": {"a": {"minLength": 2}}}]
        });
        let (def, changes) = lowered(Dialect::Gemini, &mergeable);
        assert_eq!(
            def["parameters"],
            json!({"type": "object", "properties": {"a": {"type": "string", "minLength": 2}}, "required": ["a"]})
        );
        assert_eq!(
            changes,
            [
                " allOf: its branches merged into the schema",
                "/properties/a allOf: its branches merged into the schema"
            ]
        );
    }

    #[test]
    fn references_are_written_out_and_a_recursion_goes_to_the_json_schema_form() {
        let plain = json!({
            "type": "object",
            "properties": {"to": {"$ref": "#/$defs/address"}},
            "$defs": {"address": {"type": "object", "properties": {"city": {"type": "string"}}}}
        });
        let (def, changes) = lowered(Dialect::Gemini, &plain);
        assert_eq!(
            def["parameters"]["properties"]["to"],
            json!({"type": "object", "properties": {"city": {"type": "string"}}})
        );
        assert_eq!(changes, [" $defs: written out where each is referenced"]);
        let recursive = json!({
            "type": "object",
            "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#"}}}
        });
        let (def, changes) = lowered(Dialect::Gemini, &recursive);
        assert_eq!(def["parametersJsonSchema"], recursive);
        assert_eq!(changes.len(), 1, "{changes:?}");
        assert!(changes[0].starts_with(" parameters: parametersJsonSchema"));
    }

    #[test]
    fn strict_mode_requires_every_property_or_steps_down() {
        let closed = json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
            "required": ["a"]
        });
        let (def, changes) = lowered(Dialect::OpenAiChat { strict: true }, &closed);
        assert_eq!(def["function"]["strict"], json!(true));
        let parameters = &def["function"]["parameters"];
        assert_eq!(parameters["required"], json!(["a", "b"]));
        assert_eq!(parameters["additionalProperties"], json!(false));
        assert_eq!(
            parameters["properties"]["b"]["type"],
            json!(["integer", "null"])
        );
        assert_eq!(
            changes,
            ["/properties/b required: required and nullable: `null` stands for absent"]
        );
        let open = json!({
            "type": "object",
            "properties": {"tags": {"type": "object", "patternProperties": {"^x-": {"type": "string"}}}}
        });
        let (def, changes) = lowered(Dialect::OpenAiResponses { strict: true }, &open);
        assert_eq!(def["strict"], json!(false));
        assert!(
            changes[0].starts_with(" strict: strict: false"),
            "{changes:?}"
        );
    }

    #[test]
    fn what_a_drop_would_narrow_is_dropped_with_it() {
        let schema = json!({
            "type": "object",
            "properties": {"id": {"type": "string"}},
            "patternProperties": {"^x-": {"type": "string"}},
            "additionalProperties": false
        });
        let (def, changes) = lowered(Dialect::Gemini, &schema);
        assert!(def["parameters"].get("additionalProperties").is_none());
        assert!(
            changes.contains(&" patternProperties: nothing".to_owned()),
            "{changes:?}"
        );
    }

    #[test]
    fn each_dialect_says_what_it_lacks_its_own_way() {
        // Anthropic: no union at the root.
        let union = json!({"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]});
        let (def, changes) = lowered(Dialect::Anthropic, &union);
        assert!(def["input_schema"].get("anyOf").is_none());
        assert_eq!(changes, [" anyOf: nothing"]);
        // OpenAPI's `nullable` is a type array in JSON Schema.
        let nullable =
            json!({"type": "object", "properties": {"n": {"type": "integer", "nullable": true}}});
        let (def, _) = lowered(Dialect::Mcp, &nullable);
        assert_eq!(
            def["inputSchema"]["properties"]["n"],
            json!({"type": ["integer", "null"]})
        );
        // Gemini: one type each, string enums only.
        let mixed = json!({
            "type": "object",
            "properties": {"v": {"type": ["string", "integer"]}, "level": {"enum": [1, 2, 3]}}
        });
        let (def, changes) = lowered(Dialect::Gemini, &mixed);
        let properties = &def["parameters"]["properties"];
        assert_eq!(
            properties["v"],
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})
        );
        assert_eq!(properties["level"], json!({}));
        assert_eq!(
            changes,
            [
                "/properties/v type: anyOf one type each",
                "/properties/level enum: nothing"
            ]
        );
    }

    #[test]
    fn names_outside_a_providers_rules_are_refusals_never_renamed() {
        let schema = json!({"type": "object", "properties": {}});
        let refusals =
            |dialect, name| lower(dialect, name, None, Effect::ReadOnly, &schema).refusals;
        assert_eq!(refusals(Dialect::Anthropic, "get.weather").len(), 1);
        assert_eq!(
            refusals(Dialect::OpenAiChat { strict: false }, "get.weather").len(),
            1
        );
        assert!(refusals(Dialect::Gemini, "get.weather").is_empty());
        assert_eq!(refusals(Dialect::Gemini, "1st").len(), 1);
        assert!(refusals(Dialect::Mcp, "get.weather").is_empty());
        let long = "a".repeat(65);
        assert_eq!(
            refusals(Dialect::OpenAiResponses { strict: true }, &long).len(),
            1
        );
        assert!(refusals(Dialect::Anthropic, &long).is_empty());
        let definition = lower(
            Dialect::Anthropic,
            "get.weather",
            None,
            Effect::ReadOnly,
            &schema,
        )
        .definition;
        assert_eq!(definition["name"], json!("get.weather"));
    }

    #[test]
    fn strict_mode_steps_down_past_its_documented_limits() {
        let mut deep = json!({"type": "object", "properties": {"leaf": {"type": "string"}}, "required": ["leaf"]});
        for _ in 0..10 {
            deep = json!({"type": "object", "properties": {"inner": deep}, "required": ["inner"]});
        }
        let (def, changes) = lowered(Dialect::OpenAiChat { strict: true }, &deep);
        assert_eq!(def["function"]["strict"], json!(false));
        assert!(changes[0].contains("11 levels of nesting"), "{changes:?}");
        let values: Vec<String> = (0..1001).map(|i| format!("v{i}")).collect();
        let wide =
            json!({"type": "object", "properties": {"v": {"enum": values}}, "required": ["v"]});
        let (def, changes) = lowered(Dialect::OpenAiChat { strict: true }, &wide);
        assert_eq!(def["function"]["strict"], json!(false));
        assert!(changes[0].contains("1001 enum values"), "{changes:?}");
    }

    #[test]
    fn references_that_fan_out_are_written_out_within_bounds() {
        // Each definition uses the next twice: 2^40 schemas written out in full.
        let mut defs = serde_json::Map::new();
        for i in 0..40 {
            let next = json!({"$ref": format!("#/$defs/d{}", i + 1)});
            defs.insert(
                format!("d{i}"),
                json!({"type": "object", "properties": {"a": next.clone(), "b": next}}),
            );
        }
        defs.insert("d40".into(), json!({"type": "string"}));
        let schema =
            json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs});
        let (def, changes) = lowered(Dialect::Gemini, &schema);
        assert_eq!(def["parametersJsonSchema"], schema);
        assert!(
            changes[0].starts_with(" parameters: parametersJsonSchema"),
            "{changes:?}"
        );
        let (def, _) = lowered(Dialect::OpenAiChat { strict: true }, &schema);
        assert_eq!(def["function"]["strict"], json!(true));
    }
}
