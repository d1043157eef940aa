//! A session over a set's tools: one conversation's calls, each judged by its schema and then,
//! for a tool whose meaning is declared, by [`toolargs_semantic::Session`], which decides.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use toolargs_core::decode::RawArgs;
use toolargs_core::judge::Judge;
use toolargs_core::{ParseOptions, Parsed, Rejection};
use toolargs_semantic::{Decision, SessionOptions};
use wasm_bindgen::prelude::*;

use crate::spec::{Spec, ToolSet};
use crate::{convert, io};

/// A call as the wrapper hands it over: its bytes as sent (UTF-8 or not), or the rejection of
/// a JavaScript value that is not JSON. The session keeps its text as the original of the
/// corrections that follow; the tool's spec judges it as sent.
struct Call<'a> {
    spec: &'a toolargs_dynamic::Spec,
    sent: Result<&'a [u8], Rejection>,
}

impl Judge for Call<'_> {
    type Output = Value;

    fn parse(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Result<Parsed<Value>, Rejection> {
        self.parse_json(raw, options)
    }

    fn parse_json(
        &self,
        _text: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Value>, Rejection> {
        self.verdict(options)
    }
}

impl Call<'_> {
    /// The spec's verdict on the call as sent.
    fn verdict(&self, options: &ParseOptions) -> Result<Parsed<Value>, Rejection> {
        match &self.sent {
            Ok(bytes) => self
                .spec
                .parse_with(&RawArgs::Bytes(Cow::Borrowed(bytes)), options),
            Err(rejection) => Err(rejection.clone()),
        }
    }

    /// The text the session keeps of the call.
    fn text(&self) -> Cow<'_, str> {
        match &self.sent {
            Ok(bytes) => String::from_utf8_lossy(bytes),
            Err(_) => Cow::Borrowed("null"),
        }
    }
}

#[wasm_bindgen]
impl ToolSet {
    /// A session over the set's tools: one conversation's calls, judged by their meaning.
    pub fn session(&self) -> Session {
        Session::over(self.specs.clone())
    }
}

/// One conversation's calls to a set's tools.
#[wasm_bindgen]
pub struct Session {
    tools: Arc<HashMap<String, Spec>>,
    session: toolargs_semantic::Session,
}

impl Session {
    pub(crate) fn over(tools: Arc<HashMap<String, Spec>>) -> Session {
        Session {
            tools,
            session: toolargs_semantic::Session::new(SessionOptions::default()),
        }
    }

    /// Judges a call to the tool `name`; `None` when it is not a tool of the set.
    fn judge_call(&mut self, name: &str, sent: Result<&[u8], Rejection>) -> Option<Judgement> {
        let tool = self.tools.get(name)?;
        let call = Call {
            spec: &tool.spec,
            sent,
        };
        let Some(profile) = &tool.meaning else {
            // Nothing declared: the schema's verdict decides.
            let parsed = call.verdict(&ParseOptions::DEFAULT);
            let decision = match parsed {
                Ok(_) => Decision::Proceed,
                Err(_) => Decision::Reject,
            };
            let size = call.sent.as_ref().map_or(0, |bytes| bytes.len());
            return Some(Judgement {
                verdict: Some(io::emit(convert::verdict(&parsed, size))),
                decision: decision.as_str(),
                findings: "[]".to_owned(),
                errors: None,
            });
        };
        let text = call.text().into_owned();
        let judged = self.session.judge(
            profile,
            tool.idempotent,
            &call,
            &text,
            &ParseOptions::DEFAULT,
        );
        let errors = judged.meaning_errors();
        let verdict = match (&judged.parsed, &errors) {
            (Some(parsed), None) => Some(io::emit(convert::verdict(parsed, text.len()))),
            _ => None,
        };
        Some(Judgement {
            verdict,
            decision: judged.decision().as_str(),
            findings: Value::Array(judged.findings()).to_string(),
            errors,
        })
    }
}

#[wasm_bindgen]
impl Session {
    /// Judges a call to the tool `name` with the arguments `bytes` (as sent; UTF-8 or not);
    /// `undefined` when `name` is not a tool of the set.
    pub fn judge(&mut self, name: &str, bytes: &[u8]) -> Option<Judgement> {
        self.judge_call(name, Ok(bytes))
    }

    /// A call to the tool `name` with the arguments `bytes` ran, under `label`: the tool's
    /// corrections are over, and its action is remembered. The arguments are taken as the
    /// tool's schema reads them (repaired), when it accepts them.
    pub fn executed(&mut self, name: &str, bytes: &[u8], label: &str) {
        let Some(tool) = self.tools.get(name) else {
            return;
        };
        let Some(profile) = &tool.meaning else {
            return;
        };
        let raw = RawArgs::Bytes(Cow::Borrowed(bytes));
        let arguments = match tool.spec.parse_with(&raw, &ParseOptions::DEFAULT) {
            Ok(parsed) => parsed.args,
            Err(_) => serde_json::from_slice(bytes).unwrap_or(Value::Null),
        };
        self.session
            .executed_call(profile, tool.idempotent, &arguments, label);
    }

    /// Judges a call to the tool `name` whose arguments are a JavaScript value that is not
    /// JSON (`invalid_json` at the path `steps`, a JSON array, where `what` was found).
    #[wasm_bindgen(js_name = judgeNotJson)]
    pub fn judge_not_json(&mut self, name: &str, steps: &str, what: &str) -> Option<Judgement> {
        self.judge_call(name, Err(convert::not_json(steps, what)))
    }
}

/// A call judged within a session: the schema's verdict (kept for the wrapper to read, as a
/// parse's is), or the errors for the model of a call not to run for its meaning; the
/// decision, and the findings.
#[wasm_bindgen]
pub struct Judgement {
    verdict: Option<u32>,
    decision: &'static str,
    findings: String,
    errors: Option<String>,
}

#[wasm_bindgen]
impl Judgement {
    /// The schema's verdict ([`io::emit`]); `undefined` when the call is not to run for its
    /// meaning, or was not judged.
    #[wasm_bindgen(getter)]
    pub fn verdict(&self) -> Option<u32> {
        self.verdict
    }

    /// `proceed`, `proceed_and_report`, `confirm` or `reject`.
    #[wasm_bindgen(getter)]
    pub fn decision(&self) -> String {
        self.decision.to_owned()
    }

    /// The findings, as a JSON array of objects with `path`, `verdict` and `code`.
    #[wasm_bindgen(getter)]
    pub fn findings(&self) -> String {
        self.findings.clone()
    }

    /// The errors for the model (`{"ok":false,"errors":[...]}`) of a call not to run for its
    /// meaning.
    #[wasm_bindgen(getter)]
    pub fn errors(&self) -> Option<String> {
        self.errors.clone()
    }
}
