//! A session: one conversation's calls, to a set's tools by name or to any spec given with its
//! call, each judged by its schema and then, for a tool whose meaning is declared, by
//! [`toolargs_semantic::Session`], which decides.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use toolargs_core::decode::RawArgs;
use toolargs_core::judge::Judge;
use toolargs_core::{ParseOptions, Parsed, Rejection};
use toolargs_semantic::{Decision, SessionOptions};
use wasm_bindgen::prelude::*;

use crate::spec::{Failure, Spec, ToolSet};
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
    /// A session over the set's tools: one conversation's calls, judged by their meaning,
    /// with the options given ([`options`]) over the defaults.
    pub fn session(
        &self,
        corrections_per_tool: Option<f64>,
        corrections_per_session: Option<f64>,
        duplicate_window_ms: Option<f64>,
    ) -> Result<Session, Failure> {
        Ok(Session {
            tools: Arc::clone(&self.specs),
            session: toolargs_semantic::Session::new(options(
                corrections_per_tool,
                corrections_per_session,
                duplicate_window_ms,
            )?),
        })
    }
}

/// The options of a session, each given one laid over the defaults: the corrections, whole
/// numbers from 0 to 2^32 - 1, and the duplicate window in milliseconds, finite and not
/// negative. Anything else is an option failure (a `RangeError`) naming it.
fn options(
    corrections_per_tool: Option<f64>,
    corrections_per_session: Option<f64>,
    duplicate_window_ms: Option<f64>,
) -> Result<SessionOptions, Failure> {
    let mut options = SessionOptions::default();
    if let Some(count) = corrections_per_tool {
        options = options.with_corrections_per_tool(count_of(count, "correctionsPerTool")?);
    }
    if let Some(count) = corrections_per_session {
        options = options.with_corrections_per_session(count_of(count, "correctionsPerSession")?);
    }
    if let Some(ms) = duplicate_window_ms {
        let window = (ms >= 0.0)
            .then(|| Duration::try_from_secs_f64(ms / 1000.0).ok())
            .flatten()
            .ok_or_else(|| {
                Failure::option(format!(
                    "duplicateWindowMs must be a finite number of milliseconds, 0 or more, not {}",
                    shown(ms)
                ))
            })?;
        options = options.with_duplicate_window(window);
    }
    Ok(options)
}

/// A count of corrections: a whole number from 0 to 2^32 - 1.
fn count_of(count: f64, what: &str) -> Result<u32, Failure> {
    if count.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&count) {
        // Whole and in range: exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        return Ok(count as u32);
    }
    Err(Failure::option(format!(
        "{what} must be a whole number from 0 to {}, not {}",
        u32::MAX,
        shown(count)
    )))
}

/// A number as JavaScript writes it, for a message: `Infinity` rather than Rust's `inf`.
fn shown(n: f64) -> String {
    match n {
        f64::INFINITY => "Infinity".to_owned(),
        f64::NEG_INFINITY => "-Infinity".to_owned(),
        _ => n.to_string(),
    }
}

/// One conversation's calls: to a set's tools, by name, and to any spec given with its call.
#[wasm_bindgen]
pub struct Session {
    /// The set's tools; none for a session made on its own.
    tools: Arc<HashMap<String, Spec>>,
    session: toolargs_semantic::Session,
}

/// Judges a call to `tool` within `session`.
fn judge(
    session: &mut toolargs_semantic::Session,
    tool: &Spec,
    sent: Result<&[u8], Rejection>,
) -> Judgement {
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
        return Judgement {
            verdict: Some(io::emit(convert::verdict(&parsed, size))),
            decision: decision.as_str(),
            findings: "[]".to_owned(),
            errors: None,
            held: None,
        };
    };
    let text = call.text().into_owned();
    let judged = session.judge(
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
    let decision = judged.decision();
    let held = match (decision, &judged.weighing) {
        (Decision::Confirm, Some(weighing)) => Some(weighing.for_model()),
        _ => None,
    };
    Judgement {
        verdict,
        decision: decision.as_str(),
        findings: Value::Array(judged.findings()).to_string(),
        errors,
        held,
    }
}

/// Records that a call to `tool` with the arguments `bytes` ran, under `label`.
fn executed(session: &mut toolargs_semantic::Session, tool: &Spec, bytes: &[u8], label: &str) {
    let Some(profile) = &tool.meaning else {
        return;
    };
    let raw = RawArgs::Bytes(Cow::Borrowed(bytes));
    let arguments = match tool.spec.parse_with(&raw, &ParseOptions::DEFAULT) {
        Ok(parsed) => parsed.args,
        Err(_) => serde_json::from_slice(bytes).unwrap_or(Value::Null),
    };
    session.executed_call(profile, tool.idempotent, &arguments, label);
}

#[wasm_bindgen]
impl Session {
    /// A session of its own, over no set: it judges the calls of the specs given with them
    /// ([`Session::judge_spec`]), told apart by their names. The options are
    /// [`ToolSet::session`]'s.
    #[wasm_bindgen(constructor)]
    pub fn new(
        corrections_per_tool: Option<f64>,
        corrections_per_session: Option<f64>,
        duplicate_window_ms: Option<f64>,
    ) -> Result<Session, Failure> {
        Ok(Session {
            tools: Arc::default(),
            session: toolargs_semantic::Session::new(options(
                corrections_per_tool,
                corrections_per_session,
                duplicate_window_ms,
            )?),
        })
    }

    /// Judges a call to the tool `name` with the arguments `bytes` (as sent; UTF-8 or not);
    /// `undefined` when `name` is not a tool of the set.
    pub fn judge(&mut self, name: &str, bytes: &[u8]) -> Option<Judgement> {
        let tool = self.tools.get(name)?;
        Some(judge(&mut self.session, tool, Ok(bytes)))
    }

    /// Judges a call to the tool `spec` with the arguments `bytes` (as sent; UTF-8 or not):
    /// within the session under the spec's name, when its meaning is declared.
    #[wasm_bindgen(js_name = judgeSpec)]
    pub fn judge_spec(&mut self, spec: &Spec, bytes: &[u8]) -> Judgement {
        judge(&mut self.session, spec, Ok(bytes))
    }

    /// A call to the tool `name` with the arguments `bytes` ran, under `label`: the tool's
    /// corrections are over, and its action is remembered. The arguments are taken as the
    /// tool's schema reads them (repaired), when it accepts them.
    pub fn executed(&mut self, name: &str, bytes: &[u8], label: &str) {
        if let Some(tool) = self.tools.get(name) {
            executed(&mut self.session, tool, bytes, label);
        }
    }

    /// [`Session::executed`] for a call to the tool `spec`.
    #[wasm_bindgen(js_name = executedSpec)]
    pub fn executed_spec(&mut self, spec: &Spec, bytes: &[u8], label: &str) {
        executed(&mut self.session, spec, bytes, label);
    }

    /// Judges a call to the tool `name` whose arguments are a JavaScript value that is not
    /// JSON (`invalid_json` at the path `steps`, a JSON array, where `what` was found).
    #[wasm_bindgen(js_name = judgeNotJson)]
    pub fn judge_not_json(&mut self, name: &str, steps: &str, what: &str) -> Option<Judgement> {
        let tool = self.tools.get(name)?;
        Some(judge(
            &mut self.session,
            tool,
            Err(convert::not_json(steps, what)),
        ))
    }

    /// [`Session::judge_not_json`] for a call to the tool `spec`.
    #[wasm_bindgen(js_name = judgeSpecNotJson)]
    pub fn judge_spec_not_json(&mut self, spec: &Spec, steps: &str, what: &str) -> Judgement {
        judge(&mut self.session, spec, Err(convert::not_json(steps, what)))
    }
}

/// A call judged within a session: the schema's verdict (kept for the wrapper to read, as a
/// parse's is), or the errors for the model of a call not to run for its meaning; the
/// decision, the findings, and what the model is told of a call held for a confirmation.
#[wasm_bindgen]
pub struct Judgement {
    verdict: Option<u32>,
    decision: &'static str,
    findings: String,
    errors: Option<String>,
    held: Option<String>,
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

    /// What the model is told of a call held for a person's confirmation (`confirm`), which
    /// does not run unless they confirm it: `{"ok":false,"errors":[...]}` with its code
    /// (`duplicate_action`, `confirmation_required`); `undefined` for any other decision.
    #[wasm_bindgen(getter)]
    pub fn held(&self) -> Option<String> {
        self.held.clone()
    }
}
