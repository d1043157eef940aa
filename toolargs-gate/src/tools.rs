//! The tools the gate learned from the server's `tools/list` results.

use std::collections::{HashMap, HashSet};

use toolargs_core::effect::Effect;
use toolargs_dynamic::{load_tool_list_lenient, Spec};
use toolargs_semantic::Profile;

use crate::params::{self, Mirror};
use crate::policy::{Policy, StrictFieldMissing};

/// A tool the server listed whose definition did not load: calls to it are not checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UncheckedTool {
    /// The tool's name.
    pub name: String,
    /// Why its definition did not load.
    pub reason: String,
}

/// The tools learned so far, by name.
#[derive(Debug, Default)]
pub struct Tools {
    tools: HashMap<String, Result<Spec, UncheckedTool>>,
    /// Definitions that did not load, not reported yet ([`Tools::take_new_unchecked`]).
    new_unchecked: Vec<UncheckedTool>,
    /// Strict fields of the policy a learned tool does not declare, not reported yet
    /// ([`Tools::take_new_policy_warnings`]).
    new_missing: Vec<StrictFieldMissing>,
    /// Every one reported so far: a tool listed again is not reported again.
    missing_seen: HashSet<StrictFieldMissing>,
    /// The tools that declare an `outputSchema`: the gate's own error results for them carry
    /// no `structuredContent`, which would not match it.
    with_output_schema: HashSet<String>,
    /// The arguments each tool mirrors into `Mcp-Param-*` headers, for the tools that do.
    mirrors: HashMap<String, Vec<Mirror>>,
    /// The tools the current listing names more than once, on one page or across its
    /// pages: their calls are refused (`duplicate_tool`), whichever definition a server
    /// would run.
    duplicated: HashSet<String>,
    /// The names the current listing gave so far.
    listed_now: HashSet<String>,
    /// Tools listed twice, not reported yet ([`Tools::take_new_duplicated`]).
    new_duplicated: Vec<String>,
    /// What each tool's arguments mean, by name, for the tools whose meaning is declared:
    /// what corrections are compared by and actions fingerprinted by.
    profiles: HashMap<String, Profile>,
    /// The tools whose declared meaning does not fit their schema, with why: their calls are
    /// refused (`meaning_invalid`).
    meaning_invalid: HashMap<String, String>,
    /// Meanings that did not fit, not reported yet ([`Tools::take_new_meaning_invalid`]).
    new_meaning_invalid: Vec<(String, String)>,
    /// The tools whose repeated call does one thing (the policy's `idempotent`, or the
    /// annotation `idempotentHint`).
    idempotent: HashSet<String>,
}

impl Tools {
    /// The spec of `name`, or why it has none; `None` for a tool not listed.
    pub fn get(&self, name: &str) -> Option<Result<&Spec, &UncheckedTool>> {
        self.tools.get(name).map(Result::as_ref)
    }

    /// Whether the server listed `name` with an `outputSchema`. MCP holds the
    /// `structuredContent` of such a tool's results to that schema, so the gate's own error
    /// results for it carry the errors as text only.
    pub fn declares_output_schema(&self, name: &str) -> bool {
        self.with_output_schema.contains(name)
    }

    /// The arguments `name` mirrors into `Mcp-Param-*` headers (none for most tools).
    pub(crate) fn mirrors(&self, name: &str) -> &[Mirror] {
        self.mirrors.get(name).map_or(&[], Vec::as_slice)
    }

    /// How many tools were listed.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// True when no tool was listed.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// What `name`'s arguments mean, when it was listed and its meaning fits its schema.
    pub(crate) fn profile(&self, name: &str) -> Option<&Profile> {
        self.profiles.get(name)
    }

    /// Why the meaning declared for `name` does not fit its schema, if it does not.
    pub(crate) fn meaning_invalid(&self, name: &str) -> Option<&str> {
        self.meaning_invalid.get(name).map(String::as_str)
    }

    /// Whether a repeated call to `name` does one thing.
    pub(crate) fn is_idempotent(&self, name: &str) -> bool {
        self.idempotent.contains(name)
    }

    /// The tools whose declared meaning did not fit their schema since the last call, with
    /// why, to name once.
    pub fn take_new_meaning_invalid(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.new_meaning_invalid)
    }

    /// Whether the current listing names `name` more than once.
    pub fn is_duplicated(&self, name: &str) -> bool {
        self.duplicated.contains(name)
    }

    /// The tools listed twice since the last call, to name once each time it happens.
    pub fn take_new_duplicated(&mut self) -> Vec<String> {
        std::mem::take(&mut self.new_duplicated)
    }

    /// The tools whose definitions did not load since the last call, to name once.
    pub fn take_new_unchecked(&mut self) -> Vec<UncheckedTool> {
        std::mem::take(&mut self.new_unchecked)
    }

    /// The strict fields the policy names for tools learned since the last call that their
    /// schemas do not declare, each once.
    pub fn take_new_policy_warnings(&mut self) -> Vec<StrictFieldMissing> {
        std::mem::take(&mut self.new_missing)
    }

    /// Learns a page of a `tools/list` result (its JSON text), with `policy` applied over
    /// what the server says; a first page replaces what was known.
    pub(crate) fn learn(&mut self, result: &str, first_page: bool, policy: &Policy) {
        if first_page {
            self.tools.clear();
            self.with_output_schema.clear();
            self.mirrors.clear();
            self.duplicated.clear();
            self.listed_now.clear();
            self.profiles.clear();
            self.meaning_invalid.clear();
            self.idempotent.clear();
        }
        let extras = extras(result);
        self.with_output_schema.extend(extras.with_output_schema);
        self.mirrors.extend(extras.mirrors);
        self.idempotent.extend(extras.idempotent);
        let Ok(list) = load_tool_list_lenient(result) else {
            return;
        };
        for spec in list.specs {
            if let Some(name) = spec.name().map(str::to_owned) {
                self.listed(&name);
                let (spec, missing) = policy.apply(&name, spec);
                for field in missing {
                    if self.missing_seen.insert(field.clone()) {
                        self.new_missing.push(field);
                    }
                }
                if policy.idempotent(&name) {
                    self.idempotent.insert(name.clone());
                }
                // Meaning is judged for the tools it is declared for, by the policy or in
                // the schema.
                let meanings = policy.meaning(&name);
                // MCP says a tool without annotations may destroy.
                let effect = spec.effect().unwrap_or(Effect::Destructive);
                match Profile::declared_if_any(&name, effect, spec.schema(), &meanings) {
                    Ok(None) => {}
                    Ok(Some(profile)) => {
                        self.profiles.insert(name.clone(), profile);
                    }
                    Err(e) => {
                        let why = e.message().to_owned();
                        self.new_meaning_invalid.push((name.clone(), why.clone()));
                        self.meaning_invalid.insert(name.clone(), why);
                    }
                }
                self.tools.insert(name, Ok(spec));
            }
        }
        for refused in list.refused {
            let Some(name) = refused.name else { continue };
            self.listed(&name);
            let unchecked = UncheckedTool {
                name: name.clone(),
                reason: refused.error.to_string(),
            };
            self.new_unchecked.push(unchecked.clone());
            self.tools.insert(name, Err(unchecked));
        }
    }
}

impl Tools {
    /// Notes that the listing names `name`, once more.
    fn listed(&mut self, name: &str) {
        if !self.listed_now.insert(name.to_owned()) && self.duplicated.insert(name.to_owned()) {
            self.new_duplicated.push(name.to_owned());
        }
    }
}

/// What a `tools/list` result says of its tools besides the input schema the dynamic spec
/// loads.
#[derive(Default)]
struct Extras {
    /// The tools listed with an `outputSchema`.
    with_output_schema: Vec<String>,
    /// The tools whose arguments are mirrored into headers, with those arguments.
    mirrors: Vec<(String, Vec<Mirror>)>,
    /// The tools annotated `idempotentHint: true`.
    idempotent: Vec<String>,
}

/// The [`Extras`] of a `tools/list` result (its JSON text).
fn extras(result: &str) -> Extras {
    let mut extras = Extras::default();
    let Ok(result) = serde_json::from_str::<serde_json::Value>(result) else {
        return extras;
    };
    let Some(tools) = result.get("tools").and_then(|tools| tools.as_array()) else {
        return extras;
    };
    for tool in tools {
        let Some(name) = tool.get("name").and_then(|name| name.as_str()) else {
            continue;
        };
        if tool
            .get("outputSchema")
            .is_some_and(|schema| !schema.is_null())
        {
            extras.with_output_schema.push(name.to_owned());
        }
        let annotations = tool.get("annotations");
        if annotations.and_then(|a| a.get("idempotentHint")) == Some(&serde_json::Value::Bool(true))
        {
            extras.idempotent.push(name.to_owned());
        }
        if let Some(schema) = tool.get("inputSchema") {
            let mirrors = params::declared(schema);
            if !mirrors.is_empty() {
                extras.mirrors.push((name.to_owned(), mirrors));
            }
        }
    }
    extras
}

#[cfg(test)]
mod output_schema_tests {
    use serde_json::{json, Value};

    use crate::{Gate, Route};

    #[test]
    fn errors_for_a_tool_with_an_output_schema_are_text_only() {
        let mut gate = Gate::new();
        gate.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        let list = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
            {"name": "typed", "inputSchema": schema, "outputSchema": {"type": "object",
                "properties": {"total": {"type": "integer"}}, "required": ["total"]}},
            {"name": "plain", "inputSchema": schema},
        ]}});
        gate.from_server(&list.to_string());
        let reply = |gate: &mut Gate, tool: &str| {
            let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": tool, "arguments": {"n": "many"}}});
            let Route::ToClient(reply) = &gate.from_client(&call.to_string()).routes[0] else {
                panic!("{tool}: the call was forwarded");
            };
            serde_json::from_str::<Value>(reply).unwrap()["result"].clone()
        };
        let typed = reply(&mut gate, "typed");
        assert_eq!(typed["isError"], json!(true));
        assert!(typed.get("structuredContent").is_none(), "{typed}");
        let text: Value =
            serde_json::from_str(typed["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(text["errors"][0]["error"], json!("ambiguous_integer"));
        let plain = reply(&mut gate, "plain");
        assert_eq!(plain["structuredContent"], text);
    }
}
