//! Small random JSON Schemas and instances drawn from a stream of bytes, and the check both the
//! `differential_schema` tests and the fuzz target of the same name make: an instance the
//! dynamic spec accepts with no repair is one `jsonschema` calls valid. Each byte picks one
//! choice; a zero byte, or the end of the stream, always picks the simplest, so that shrinking
//! the bytes shrinks the schema.
#![allow(dead_code)]

use serde_json::{json, Map, Value};
use toolargs::dynamic::Spec;

use crate::common::{instance, try_validator};

/// How deep schemas nest (a subschema of a subschema of a subschema).
pub const MAX_DEPTH: usize = 3;

/// The choices left in the input.
pub struct Choices<'a> {
    bytes: &'a [u8],
}

impl<'a> Choices<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Choices { bytes }
    }

    fn byte(&mut self) -> u8 {
        match self.bytes.split_first() {
            Some((&b, rest)) => {
                self.bytes = rest;
                b
            }
            None => 0,
        }
    }

    /// A number below `n` (at least 1).
    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n.max(1)
    }

    /// True one time in `n`; never on a zero byte.
    fn one_in(&mut self, n: u8) -> bool {
        let b = self.byte();
        b != 0 && b % n == 0
    }

    fn pick<T: Clone>(&mut self, pool: &[T]) -> T {
        pool[self.below(pool.len())].clone()
    }
}

const TYPES: &[&str] = &[
    "object", "string", "integer", "number", "boolean", "array", "null",
];
const NAMES: &[&str] = &["a", "b", "c", "xa", "1"];
const STRINGS: &[&str] = &["a", "", "ab", "abc", "1", "12", "x", "aaa", "A", "b c"];
const PATTERNS: &[&str] = &["^a", "a+", "^\\d+$", "^[a-c]*$", "b$", "^.{2}$", "x|y"];

fn number(c: &mut Choices<'_>) -> Value {
    match c.below(11) {
        0 => json!(0),
        1 => json!(1),
        2 => json!(1.0),
        3 => json!(-1),
        4 => json!(2),
        5 => json!(0.5),
        6 => json!(1.5),
        7 => json!(3),
        8 => json!(10),
        9 => json!(-2.5),
        _ => json!(1e3),
    }
}

fn scalar(c: &mut Choices<'_>) -> Value {
    match c.below(6) {
        0 => Value::Null,
        1 => number(c),
        2 => Value::String(c.pick(STRINGS).to_owned()),
        3 => Value::Bool(c.below(2) == 1),
        4 => json!(1.0),
        _ => json!(1),
    }
}

/// A random JSON value of small size.
pub fn value(c: &mut Choices<'_>, depth: usize) -> Value {
    match c.below(if depth == 0 { 4 } else { 6 }) {
        0..=3 => scalar(c),
        4 => Value::Array((0..c.below(4)).map(|_| value(c, depth - 1)).collect()),
        _ => Value::Object(
            (0..c.below(4))
                .map(|_| (c.pick(NAMES).to_owned(), value(c, depth - 1)))
                .collect(),
        ),
    }
}

/// A random schema of the vocabulary, nested at most `depth` more levels.
pub fn schema(c: &mut Choices<'_>, depth: usize) -> Value {
    if depth < MAX_DEPTH && c.one_in(16) {
        return Value::Bool(c.below(2) == 0);
    }
    let mut s = Map::new();
    // The type: one, a list of two, or none.
    let ty = match c.below(10) {
        0..=6 => Some(c.pick(TYPES)),
        7 => {
            // Two different types: a list with a repeated one is not a schema.
            let a = c.below(TYPES.len());
            let b = (a + 1 + c.below(TYPES.len() - 1)) % TYPES.len();
            s.insert("type".into(), json!([TYPES[a], TYPES[b]]));
            Some(TYPES[a])
        }
        8 => {
            let other = TYPES[c.below(TYPES.len() - 1)];
            s.insert("type".into(), json!(["null", other]));
            None
        }
        _ => None,
    };
    if let Some(t) = ty {
        s.entry("type").or_insert_with(|| json!(t));
    }
    let sub = depth > 0;
    match ty {
        Some("integer" | "number") => {
            for key in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
                if c.one_in(3) {
                    s.insert(key.into(), number(c));
                }
            }
            if c.one_in(4) {
                s.insert(
                    "multipleOf".into(),
                    c.pick(&[json!(2), json!(0.5), json!(3), json!(0.1), json!(1.5)]),
                );
            }
        }
        Some("string") => {
            for key in ["minLength", "maxLength"] {
                if c.one_in(3) {
                    s.insert(key.into(), json!(c.below(4)));
                }
            }
            if c.one_in(3) {
                s.insert("pattern".into(), json!(c.pick(PATTERNS)));
            }
        }
        Some("array") => {
            if sub && c.one_in(2) {
                s.insert("items".into(), schema(c, depth - 1));
            }
            if sub && c.one_in(5) {
                let n = 1 + c.below(2);
                let prefix: Vec<Value> = (0..n).map(|_| schema(c, depth - 1)).collect();
                s.insert("prefixItems".into(), Value::Array(prefix));
            }
            for key in ["minItems", "maxItems"] {
                if c.one_in(3) {
                    s.insert(key.into(), json!(c.below(4)));
                }
            }
            if c.one_in(5) {
                s.insert("uniqueItems".into(), json!(c.below(3) != 0));
            }
            if sub && c.one_in(5) {
                s.insert("contains".into(), schema(c, depth - 1));
            }
        }
        Some("object") => {
            if sub && c.below(3) != 0 {
                let mut props = Map::new();
                for _ in 0..1 + c.below(3) {
                    props.insert(c.pick(NAMES).to_owned(), schema(c, depth - 1));
                }
                let required: Vec<Value> = props
                    .keys()
                    .filter(|_| c.below(2) == 1)
                    .map(|k| json!(k))
                    .collect();
                s.insert("properties".into(), Value::Object(props));
                if !required.is_empty() {
                    s.insert("required".into(), Value::Array(required));
                }
            } else if c.one_in(4) {
                s.insert("required".into(), json!([c.pick(NAMES)]));
            }
            if c.one_in(2) {
                let additional = if sub && c.one_in(3) {
                    schema(c, depth - 1)
                } else {
                    json!(c.below(2) == 1)
                };
                s.insert("additionalProperties".into(), additional);
            }
            if sub && c.one_in(5) {
                let mut patterns = Map::new();
                patterns.insert(c.pick(PATTERNS).to_owned(), schema(c, depth - 1));
                s.insert("patternProperties".into(), Value::Object(patterns));
            }
            if c.one_in(6) {
                let names = if c.below(2) == 0 {
                    json!({"maxLength": 1 + c.below(2)})
                } else {
                    json!({"pattern": c.pick(PATTERNS)})
                };
                s.insert("propertyNames".into(), names);
            }
            for key in ["minProperties", "maxProperties"] {
                if c.one_in(5) {
                    s.insert(key.into(), json!(c.below(3)));
                }
            }
        }
        _ => {}
    }
    if c.one_in(7) {
        let values: Vec<Value> = (0..1 + c.below(3)).map(|_| scalar(c)).collect();
        s.insert("enum".into(), Value::Array(values));
    } else if c.one_in(9) {
        s.insert("const".into(), scalar(c));
    }
    if sub && c.one_in(6) {
        let key = c.pick(&["anyOf", "oneOf", "allOf"]);
        let branches: Vec<Value> = (0..1 + c.below(3)).map(|_| schema(c, depth - 1)).collect();
        s.insert(key.into(), Value::Array(branches));
    }
    if sub && c.one_in(12) {
        s.insert("not".into(), schema(c, depth - 1));
    }
    if sub && c.one_in(12) {
        s.insert("if".into(), schema(c, depth - 1));
        if c.below(4) != 0 {
            s.insert("then".into(), schema(c, depth - 1));
        }
        if c.below(4) != 0 {
            s.insert("else".into(), schema(c, depth - 1));
        }
    }
    Value::Object(s)
}

/// A plain root, as most tools' are and [`schema`] seldom makes: an object whose properties
/// are of scalar types, or lists of them, under their own keywords (some required, some with a
/// default), the plain reading's ground ([`Spec::is_plain`]).
pub fn plain_schema(c: &mut Choices<'_>) -> Value {
    let mut props = Map::new();
    let mut required = Vec::new();
    for _ in 0..1 + c.below(5) {
        let mut property = scalar_schema(c);
        if c.one_in(4) {
            let mut list = json!({"type": "array", "items": property});
            if c.one_in(3) {
                list["maxItems"] = json!(c.below(4));
            }
            property = list;
        }
        if c.one_in(4) {
            let default = fitting(c, &property, MAX_DEPTH);
            property["default"] = default;
        }
        let name = c.pick(NAMES).to_owned();
        if c.one_in(2) {
            required.push(json!(name));
        }
        props.insert(name, property);
    }
    let mut root = json!({"type": "object", "properties": props, "required": required});
    if c.one_in(2) {
        root["additionalProperties"] = json!(false);
    }
    root
}

/// A schema of [`schema`]'s that allows scalars alone, or `{"type": "string"}` when a few tries
/// do not give one.
fn scalar_schema(c: &mut Choices<'_>) -> Value {
    let scalar = |t: &Value| t.as_str().is_some_and(|t| t != "object" && t != "array");
    for _ in 0..8 {
        let s = schema(c, 0);
        let fits = match s.get("type") {
            Some(Value::Array(types)) => types.iter().all(scalar),
            Some(t) => scalar(t),
            None => false,
        };
        if fits {
            return s;
        }
    }
    json!({"type": "string"})
}

/// An instance for `schema`: half the time one built to fit it, which the check needs to
/// reach acceptance at all, otherwise any small value.
pub fn instance_for(c: &mut Choices<'_>, schema: &Value) -> Value {
    if c.one_in(2) {
        value(c, 2)
    } else {
        fitting(c, schema, MAX_DEPTH)
    }
}

/// A value built from what `schema` says, not always one it accepts.
fn fitting(c: &mut Choices<'_>, schema: &Value, depth: usize) -> Value {
    let Value::Object(s) = schema else {
        return value(c, depth.min(1));
    };
    if let Some(Value::Array(values)) = s.get("enum") {
        if !values.is_empty() && c.below(4) != 0 {
            return c.pick(values);
        }
    }
    if let Some(v) = s.get("const") {
        if c.below(4) != 0 {
            return v.clone();
        }
    }
    if depth == 0 {
        return scalar(c);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = s.get(key) {
            if !branches.is_empty() && c.one_in(3) {
                let branch = c.pick(branches);
                return fitting(c, &branch, depth - 1);
            }
        }
    }
    let ty = match s.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts
            .get(c.below(ts.len()))
            .and_then(Value::as_str)
            .unwrap_or("null"),
        _ => return value(c, 1),
    };
    match ty {
        "null" => Value::Null,
        "boolean" => Value::Bool(c.below(2) == 1),
        "integer" | "number" => {
            let bound = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]
                .into_iter()
                .filter_map(|k| s.get(k).and_then(Value::as_f64))
                .next();
            match (bound, c.below(4)) {
                (Some(b), 0) => json!(b),
                (Some(b), 1) => json!(b + 1.0),
                (Some(b), 2) => json!((b - 1.0).floor() as i64),
                _ if ty == "integer" => json!(c.below(7) as i64 - 2),
                _ => number(c),
            }
        }
        "string" => {
            let length = ["minLength", "maxLength"]
                .into_iter()
                .filter_map(|k| s.get(k).and_then(Value::as_u64))
                .next();
            match length {
                Some(n) if c.below(2) == 0 => json!("a".repeat(n as usize)),
                _ => json!(c.pick(STRINGS)),
            }
        }
        "array" => {
            let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let n = (min + c.below(3)).min(4);
            let prefix = s.get("prefixItems").and_then(Value::as_array);
            (0..n)
                .map(|i| match (prefix.and_then(|p| p.get(i)), s.get("items")) {
                    (Some(p), _) => fitting(c, p, depth - 1),
                    (None, Some(items)) => fitting(c, items, depth - 1),
                    (None, None) => value(c, 1),
                })
                .collect()
        }
        "object" => {
            let mut out = Map::new();
            let required: Vec<&str> = s
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(Value::Object(props)) = s.get("properties") {
                for (name, prop) in props {
                    if required.contains(&name.as_str()) || c.below(3) != 0 {
                        out.insert(name.clone(), fitting(c, prop, depth - 1));
                    }
                }
            }
            for name in required {
                if !out.contains_key(name) {
                    out.insert(name.to_owned(), value(c, 1));
                }
            }
            if c.one_in(4) {
                out.insert(c.pick(NAMES).to_owned(), value(c, 1));
            }
            Value::Object(out)
        }
        _ => value(c, 1),
    }
}

/// What the dynamic spec made of one instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The schema did not load.
    Refused,
    /// `jsonschema` cannot compile the schema, so nothing is compared.
    Unjudged,
    Rejected,
    Repaired,
    /// Accepted with no repair, and `jsonschema` agrees.
    Clean,
    /// Accepted with no repair against the schema, in a case of [`KNOWN_GAPS`] (its name).
    KnownGap(&'static str),
}

/// A known disagreement, of the engine or of `jsonschema`: while listed, a case it `applies` to
/// counts as [`Outcome::KnownGap`] instead of failing. Remove an entry once it is fixed; the
/// explanation of each is next to it.
pub struct Gap {
    pub name: &'static str,
    /// Whether the gap explains an acceptance of (schema, instance).
    pub applies: fn(&Value, &Value) -> bool,
}

pub const KNOWN_GAPS: &[Gap] = &[
    // jsonschema 0.33 admits only positive multiples of a fractional `multipleOf`:
    // `{"multipleOf": 0.5}` rejects `-1`, which draft 2020-12 accepts (the Test Suite has
    // tests of negative multiples; the spec passes them).
    Gap {
        name: "jsonschema: negative multiple of a fraction",
        applies: |schema, data| {
            holds(data, &|v| v.as_f64().is_some_and(|f| f < 0.0))
                && any_subschema(schema, &|s| {
                    let fraction = |m: f64| m.fract() != 0.0;
                    s.get("multipleOf")
                        .and_then(Value::as_f64)
                        .is_some_and(fraction)
                })
        },
    },
    // jsonschema 0.33 takes `1.0` for an integer under `"type": "integer"` but not under a
    // list of types (`["integer", "boolean"]`), where draft 2020-12 and Python's `jsonschema`
    // take it too (a number with a zero fractional part is an integer);
    // `jsonschema_rejects_an_integral_float_under_a_list_of_types` pins it.
    Gap {
        name: "jsonschema: integral float under a list of types",
        applies: |schema, data| {
            holds(data, &|v| {
                v.is_f64() && v.as_f64().is_some_and(|f| f.fract() == 0.0)
            }) && any_subschema(schema, &|s| {
                s.get("type")
                    .and_then(Value::as_array)
                    .is_some_and(|types| types.iter().any(|t| t == "integer"))
            })
        },
    },
];

/// Loads `schema` and parses each instance; when the spec accepts one with no repair, checks
/// that `jsonschema` accepts both the instance and the arguments the spec returned. The error
/// says what disagreed. A schema that does not load gives one `Refused`.
pub fn check(schema: &Value, instances: &[Value]) -> Result<Vec<Outcome>, String> {
    let Ok(spec) = Spec::from_schema(schema) else {
        return Ok(vec![Outcome::Refused]);
    };
    let mut validator = None;
    let mut outcomes = Vec::with_capacity(instances.len());
    for data in instances {
        stream_agrees(&spec, data).map_err(|e| format!("{e}\nschema: {schema}"))?;
        parses_as_walked(&spec, data).map_err(|e| format!("{e}\nschema: {schema}"))?;
        let outcome = match spec.parse(instance(data)) {
            Err(_) => Outcome::Rejected,
            Ok(parsed) if !parsed.repairs.is_empty() => Outcome::Repaired,
            Ok(parsed) => match validator.get_or_insert_with(|| try_validator(schema, false)) {
                Err(_) => Outcome::Unjudged,
                Ok(v) => {
                    let refused = [("instance", data), ("canonical arguments", &parsed.args)]
                        .into_iter()
                        .find(|(_, value)| !v.is_valid(value));
                    match refused {
                        None => Outcome::Clean,
                        Some((what, value)) => {
                            match KNOWN_GAPS.iter().find(|gap| (gap.applies)(schema, data)) {
                                Some(gap) => Outcome::KnownGap(gap.name),
                                None => {
                                    return Err(format!(
                                        "the spec accepts {data} with no repair, but the schema \
                                     rejects the {what} {value}\nschema: {schema}"
                                    ))
                                }
                            }
                        }
                    }
                }
            },
        };
        outcomes.push(outcome);
    }
    Ok(outcomes)
}

/// Whether `spec` parses `data`, given as a value and as its JSON text, as the walk of the
/// whole call does ([`Spec::parse_walking`], without the plain reading of
/// [`Spec::check_with`]): the same repairs or the same rejection, and the same arguments to
/// their key order and the digits of their numbers. The error shows both.
pub fn parses_as_walked(spec: &Spec, data: &Value) -> Result<(), String> {
    fn shown(parsed: &Result<toolargs::Parsed<Value>, toolargs::Rejection>) -> String {
        match parsed {
            Ok(p) => format!(
                "{} {:?}",
                serde_json::to_string(&p.args).unwrap(),
                p.repairs
            ),
            Err(rejection) => format!("rejected {:?}", rejection.errors()),
        }
    }
    let text = data.to_string();
    for raw in [instance(data), toolargs::RawArgs::from(text.as_str())] {
        let options = toolargs::ParseOptions::DEFAULT;
        let parsed = shown(&spec.parse_with(&raw, &options));
        let walked = shown(&spec.parse_walking(&raw, &options));
        if parsed != walked {
            return Err(format!("{text}: parsed {parsed}, walked {walked}"));
        }
    }
    Ok(())
}

/// The text of `data` streamed in pieces of one and of five bytes gets the parse's verdict on
/// the same text, and is never rejected early when the parse accepts it.
fn stream_agrees(spec: &Spec, data: &Value) -> Result<(), String> {
    let text = data.to_string();
    let whole = spec.parse(text.as_str());
    for size in [1, 5] {
        let mut stream = spec.stream();
        let mut early = false;
        for piece in text.as_bytes().chunks(size) {
            early |= stream.feed_bytes(piece).is_err();
        }
        if early && whole.is_ok() {
            return Err(format!(
                "{text}, accepted, was rejected early in pieces of {size}"
            ));
        }
        let verdict = stream.finish();
        if verdict != whole {
            return Err(format!(
                "{text} in pieces of {size}: the stream gives {verdict:?}, the parse {whole:?}"
            ));
        }
    }
    Ok(())
}

/// Whether `schema` or a schema inside it (at any depth, through any keyword) satisfies `test`.
fn any_subschema(schema: &Value, test: &dyn Fn(&Map<String, Value>) -> bool) -> bool {
    match schema {
        Value::Object(s) => test(s) || s.values().any(|v| any_subschema(v, test)),
        Value::Array(items) => items.iter().any(|v| any_subschema(v, test)),
        _ => false,
    }
}

/// Whether `data` or a value inside it satisfies `test`.
fn holds(data: &Value, test: &dyn Fn(&Value) -> bool) -> bool {
    test(data)
        || match data {
            Value::Array(items) => items.iter().any(|v| holds(v, test)),
            Value::Object(members) => members.values().any(|v| holds(v, test)),
            _ => false,
        }
}
