//! Gemini: a function declaration is `{name, description, parameters}`, with `parameters` in
//! the OpenAPI 3.0 subset Gemini reads (`nullable` instead of type arrays, no
//! `additionalProperties`, no references, only the `date-time` format), or
//! `parametersJsonSchema` for a schema that needs more. A call is logged as a
//! `candidates[].content.parts[].functionCall` (`name`, `args` decoded), and a request's
//! `tools[].functionDeclarations[]` are its definitions.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::provider::{
    name_of, split, Fit, Form, LoggedArguments, LoggedCall, Names, ProviderDef, Reshaped,
};
use crate::schema::{has_open_parts, Change};

pub(crate) struct Gemini;

/// What the OpenAPI subset of `parameters` takes, by keyword; `format` only as `date-time`.
/// `enum` takes strings only. The rest is dropped from what the model is shown: maps' value
/// schemas and key patterns, `const` (a one-value `enum` instead), `default`, `uniqueItems`,
/// references (written out instead).
const KEYWORDS: &[&str] = &[
    "type",
    "description",
    "properties",
    "required",
    "items",
    "enum",
    "anyOf",
    "format",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "nullable",
    "title",
];

impl Gemini {
    pub(crate) const NAMES: Names = Names {
        dialect: "gemini",
        strict_dialect: None,
        format: "gemini",
    };
}

impl ProviderDef for Gemini {
    /// What the OpenAPI subset of `parameters` takes ([`KEYWORDS`]).
    fn keeps(&self, keyword: &str, value: &Value, _: bool) -> bool {
        match keyword {
            "format" => value == "date-time",
            "enum" => value
                .as_array()
                .is_some_and(|values| values.iter().all(|v| v.is_string() || v.is_null())),
            _ => KEYWORDS.contains(&keyword),
        }
    }

    /// Gemini's `Schema` is an object: `true` and `false` are the empty schema there.
    fn schemas_are_objects(&self) -> bool {
        true
    }

    /// OpenAPI's spellings: a type array with `null` is `nullable`, a type array of several
    /// types is `anyOf` of each.
    fn reshape(&self, out: &mut Map<String, Value>) -> Vec<Reshaped> {
        null_as_nullable(out);
        let mut changes = Vec::new();
        // Its `enum` holds strings: `null` among them is `nullable` (a `const: null`, too).
        if let Some(Value::Array(values)) = out.get_mut("enum") {
            if values.iter().any(Value::is_null) {
                values.retain(|v| !v.is_null());
                let only_null = values.is_empty();
                if only_null {
                    out.shift_remove("enum");
                    changes.push(("enum", "nullable: any value or null".to_owned(), false));
                } else {
                    changes.push(("enum", "nullable for its null".to_owned(), true));
                }
                out.insert("nullable".to_owned(), Value::Bool(true));
            }
        }
        if let Some(Value::Array(types)) = out.get("type") {
            let types = types.clone();
            out.shift_remove("type");
            if out.contains_key("anyOf") || types.is_empty() {
                changes.push((
                    "type",
                    "nothing: a list of types beside anyOf".to_owned(),
                    false,
                ));
            } else {
                let branches = types.into_iter().map(|t| serde_json::json!({"type": t}));
                out.insert("anyOf".to_owned(), Value::Array(branches.collect()));
                changes.push(("type", "anyOf one type each".to_owned(), true));
            }
        }
        changes
    }

    /// A schema that needs more than the OpenAPI subset of `parameters` is sent as
    /// `parametersJsonSchema`: open parts (maps, untyped values), a type that contains itself
    /// (`recursive`, as the lowering found it), or arguments the lowered `parameters` would no
    /// longer let through at all.
    fn whole_schema_instead(
        &self,
        schema: &Value,
        parameters: &Value,
        recursive: bool,
    ) -> Option<Change> {
        let needs = recursive
            || has_open_parts(schema)
            || takes_nothing(parameters) && !takes_nothing(schema);
        needs.then(|| Change {
            path: String::new(),
            keyword: "parameters".to_owned(),
            instead: "parametersJsonSchema: open keys, an untyped value or a recursive type have no OpenAPI form".to_owned(),
            enforced: true,
            exact: true,
        })
    }

    /// The declaration: `head` (name and description) with the lowered `parameters`, or
    /// the JSON Schema as `parametersJsonSchema` when the subset cannot say it, rather than
    /// objects Gemini refuses or that say less than the gate enforces. A tool without
    /// arguments has no `parameters`, since Gemini refuses an object without properties.
    fn definition(&self, mut head: Map<String, Value>, parameters: Value, form: Form) -> Value {
        if form.whole {
            head.insert("parametersJsonSchema".to_owned(), parameters);
            return Value::Object(head);
        }
        if !takes_nothing(&parameters) {
            head.insert("parameters".to_owned(), parameters);
        }
        Value::Object(head)
    }

    /// A letter or `_` first, then letters, digits, `_`, `.`, `:` and `-`, 128 at most
    /// (google-genai's `FunctionDeclaration.name`).
    fn name_refusal(&self, name: &str) -> Option<String> {
        let mut bytes = name.bytes();
        let first = bytes
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
        let fits = first
            && name.len() <= 128
            && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'));
        (!fits).then(|| {
            "Gemini takes names that start with a letter or `_`, then letters, digits, `_`, `.`, `:` and `-`, 128 at most".to_owned()
        })
    }

    fn schema_paths(&self) -> &'static [&'static [&'static str]] {
        &[&["parameters"], &["parametersJsonSchema"]]
    }

    fn logged_calls<'r>(&self, record: &'r Value) -> Option<Vec<LoggedCall<'r>>> {
        let candidates = match split(record).1.and_then(|r| r.get("candidates")) {
            Some(Value::Array(candidates)) => candidates,
            Some(_) => return None,
            None => return split(record).0.is_some().then(Vec::new),
        };
        let parts = candidates
            .iter()
            .filter_map(|c| c.pointer("/content/parts").and_then(Value::as_array))
            .flatten();
        Some(
            parts
                .filter_map(|part| part.get("functionCall"))
                .map(|call| LoggedCall {
                    name: name_of(call.get("name")),
                    // A call of a function without parameters leaves `args` out.
                    arguments: Some(match call.get("args") {
                        None | Some(Value::Null) => {
                            LoggedArguments::Value(Cow::Owned(Value::Object(Map::new())))
                        }
                        Some(args) => LoggedArguments::Value(Cow::Borrowed(args)),
                    }),
                })
                .collect(),
        )
    }

    /// The function declarations of the request's tools (`functionDeclarations`, or
    /// `function_declarations` as the Python SDK writes them).
    fn logged_definitions<'r>(&self, record: &'r Value) -> Vec<&'r Value> {
        let (request, _) = split(record);
        let tools = request
            .unwrap_or(record)
            .get("tools")
            .and_then(Value::as_array);
        tools
            .into_iter()
            .flatten()
            .filter_map(|t| {
                t.get("functionDeclarations")
                    .or_else(|| t.get("function_declarations"))
                    .and_then(Value::as_array)
            })
            .flatten()
            .collect()
    }

    fn response_fit(&self, response: &Value) -> Fit {
        Fit::own_if(response.get("candidates").is_some_and(Value::is_array))
    }

    fn request_fit(&self, request: &Value) -> Fit {
        Fit::own_if(request.get("contents").is_some())
    }
}

/// True for the schema of a tool without arguments: an object that says nothing beyond its
/// (empty) properties. Gemini takes such a tool without `parameters`.
fn takes_nothing(schema: &Value) -> bool {
    schema.as_object().is_some_and(|map| {
        map.iter().all(|(key, value)| match key.as_str() {
            "type" => value == "object",
            "properties" => value.as_object().is_some_and(Map::is_empty),
            "required" => value.as_array().is_some_and(Vec::is_empty),
            "additionalProperties" => value == &Value::Bool(false),
            "description" | "title" | "$schema" => true,
            _ => false,
        })
    })
}

/// OpenAPI 3.0: `"type": ["T", "null"]` becomes `"type": "T", "nullable": true`, and `null`
/// leaves an `enum`.
fn null_as_nullable(schema: &mut Map<String, Value>) {
    let null = Value::from("null");
    // OpenAPI has no null type: a union's `null` branch becomes `nullable`.
    if let Some(Value::Array(branches)) = schema.get_mut("anyOf") {
        let before = branches.len();
        branches.retain(|b| b.get("type") != Some(&null));
        if branches.len() < before {
            schema.insert("nullable".to_owned(), Value::Bool(true));
        }
    }
    let Some(Value::Array(types)) = schema.get_mut("type") else {
        return;
    };
    let had_null = types.contains(&null);
    types.retain(|t| *t != null);
    if types.len() == 1 {
        let single = types.remove(0);
        schema.insert("type".to_owned(), single);
    }
    if had_null {
        schema.insert("nullable".to_owned(), Value::Bool(true));
        if let Some(Value::Array(values)) = schema.get_mut("enum") {
            values.retain(|v| !v.is_null());
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_logged_response_gives_its_function_calls() {
        let record = json!({
            "request": {"contents": [], "tools": [{"functionDeclarations": [{"name": "refund", "parameters": {"type": "object"}}]}]},
            "response": {"candidates": [{"content": {"parts": [
                {"text": "Refunding."},
                {"functionCall": {"name": "refund", "args": {"amount_cents": "1999"}}},
                {"functionCall": {"name": "ping"}}
            ]}}]}
        });
        let calls = Gemini.logged_calls(&record).unwrap();
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].name, Some("refund"));
        assert!(
            matches!(&calls[0].arguments, Some(LoggedArguments::Value(v)) if v["amount_cents"] == "1999")
        );
        assert!(
            matches!(&calls[1].arguments, Some(LoggedArguments::Value(v)) if *v.as_ref() == json!({}))
        );
        assert_eq!(Gemini.logged_definitions(&record).len(), 1);
        assert!(Gemini.logged_calls(&json!({"choices": []})).is_none());
    }
}
