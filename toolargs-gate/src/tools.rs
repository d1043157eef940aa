//! The tools the gate learned from the server's `tools/list` results.

use std::collections::{HashMap, HashSet};

use serde_json::Value;
use toolargs_core::effect::Effect;
use toolargs_core::json::skim;
use toolargs_dynamic::{load_tool_list_lenient, Spec};
use toolargs_semantic::Profile;

use crate::params::{self, Mirror};
use crate::pin::{DefinitionChange, PinCheck, PinMismatch, Pins};
use crate::policy::{Policy, StrictFieldMissing};

/// The most mismatches with their pins remembered as reported.
const MAX_PIN_REPORTS: usize = 10_000;

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
    /// With pins ([`Gate::with_pins`](crate::Gate::with_pins)), the tools whose listed
    /// definition is not the one pinned, or that are not pinned: their calls are refused
    /// (`tool_changed`, `tool_unpinned`).
    pin_mismatches: HashMap<String, PinMismatch>,
    /// Mismatches not reported yet ([`Tools::take_new_pin_mismatches`]).
    new_pin_mismatches: Vec<PinMismatch>,
    /// Every mismatch reported so far: a tool listed again as it was is not reported again.
    pin_reported: HashSet<(String, String)>,
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

    /// Why calls to `name` are refused for its pin: its listed definition is not the one
    /// pinned, or it is not pinned; `None` when it matches its pin, or no pins are held.
    pub fn pin_mismatch(&self, name: &str) -> Option<&PinMismatch> {
        self.pin_mismatches.get(name)
    }

    /// The tools learned since the last call whose definition is not the one pinned, or that
    /// are not pinned, to name once (a tool listed again as it was is not given again).
    pub fn take_new_pin_mismatches(&mut self) -> Vec<PinMismatch> {
        std::mem::take(&mut self.new_pin_mismatches)
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
    /// what the server says, and each tool held to `pins` when given; a first page replaces
    /// what was known.
    pub(crate) fn learn(
        &mut self,
        result: &str,
        first_page: bool,
        policy: &Policy,
        pins: Option<&Pins>,
    ) {
        if first_page {
            self.tools.clear();
            self.with_output_schema.clear();
            self.mirrors.clear();
            self.duplicated.clear();
            self.listed_now.clear();
            self.profiles.clear();
            self.meaning_invalid.clear();
            self.idempotent.clear();
            self.pin_mismatches.clear();
        }
        let parsed = serde_json::from_str::<Value>(result).ok();
        let extras = extras(parsed.as_ref());
        self.with_output_schema.extend(extras.with_output_schema);
        self.mirrors.extend(extras.mirrors);
        self.idempotent.extend(extras.idempotent);
        let Ok(list) = load_tool_list_lenient(result) else {
            return;
        };
        let mut learned = Vec::new();
        for spec in list.specs {
            if let Some(name) = spec.name().map(str::to_owned) {
                self.listed(&name);
                learned.push(name.clone());
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
            learned.push(name.clone());
            let unchecked = UncheckedTool {
                name: name.clone(),
                reason: refused.error.to_string(),
            };
            self.new_unchecked.push(unchecked.clone());
            self.tools.insert(name, Err(unchecked));
        }
        if let Some(pins) = pins {
            self.hold_to_pins(pins, result, parsed.as_ref(), &learned);
        }
    }

    /// Holds the tools `learned` from a page of a listing (`result`, read as `parsed`) to
    /// `pins`: each definition of a tool that is not the one pinned, or a tool not pinned,
    /// refuses its calls. A page that does not read one way only (a member written twice, a
    /// string that is not Unicode) cannot be compared, and refuses every tool it lists.
    fn hold_to_pins(
        &mut self,
        pins: &Pins,
        result: &str,
        parsed: Option<&Value>,
        learned: &[String],
    ) {
        let certain = skim::skip_strict(result, 0, skim::MAX_DEPTH).is_some();
        let mut definitions: HashMap<&str, Vec<&Value>> = HashMap::new();
        let listed = parsed
            .filter(|_| certain)
            .and_then(|result| result.get("tools"))
            .and_then(Value::as_array);
        for tool in listed.into_iter().flatten() {
            if let Some(name) = tool.get("name").and_then(Value::as_str) {
                definitions.entry(name).or_default().push(tool);
            }
        }
        for name in learned {
            let check = match definitions.get(name.as_str()) {
                _ if pins.digest(name).is_none() => PinCheck::Unpinned,
                Some(listed) => listed
                    .iter()
                    .map(|tool| pins.check(name, tool))
                    .find(|check| *check != PinCheck::Pinned)
                    .unwrap_or(PinCheck::Pinned),
                None => PinCheck::Changed(vec![DefinitionChange {
                    path: "$".to_owned(),
                    what: "the listing does not read one way only, and cannot be compared with the pin"
                        .to_owned(),
                }]),
            };
            let changes = match check {
                PinCheck::Pinned => continue,
                PinCheck::Changed(changes) => Some(changes),
                PinCheck::Unpinned => None,
            };
            let mismatch = PinMismatch {
                tool: name.clone(),
                changes,
            };
            if self.pin_reported.len() >= MAX_PIN_REPORTS {
                // A server that lists ever other definitions is named again, not remembered
                // without end.
                self.pin_reported.clear();
            }
            if self
                .pin_reported
                .insert((name.clone(), mismatch.describe()))
            {
                self.new_pin_mismatches.push(mismatch.clone());
            }
            // A tool listed twice keeps the first mismatch found.
            self.pin_mismatches.entry(name.clone()).or_insert(mismatch);
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

/// The [`Extras`] of a `tools/list` result (read as JSON).
fn extras(result: Option<&Value>) -> Extras {
    let mut extras = Extras::default();
    let Some(result) = result else {
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
