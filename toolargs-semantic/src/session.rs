//! One conversation's calls for the tools whose meaning is known: [`Session`] and what it
//! makes of a call ([`Weighing`], [`Judged`]).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use web_time::Instant;

use serde_json::{json, Value};
use toolargs_core::effect::Effect;
use toolargs_core::judge::Judge;
use toolargs_core::options::ParseOptions;
use toolargs_core::report::{Parsed, Rejection};

use super::decision::{Decision, Review};
use super::fingerprint::Fingerprint;
use super::gate::SemanticGate;
use super::profile::Profile;

/// How hard a [`Session`] holds corrections and repeated actions.
///
/// ```
/// use std::time::Duration;
/// use toolargs_semantic::SessionOptions;
///
/// let options = SessionOptions::default().with_duplicate_window(Duration::from_secs(60));
/// assert_eq!(options.corrections_per_tool, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionOptions {
    /// Calls to a tool after its call was rejected before the next is refused
    /// `retry_budget_exhausted` (2: three attempts in all, as the agent loop's budget).
    pub corrections_per_tool: u32,
    /// Corrections in a session, over every tool (20).
    pub corrections_per_session: u32,
    /// How long an action of a tool that writes, deletes, pays or notifies makes the same
    /// action a duplicate (10 minutes).
    pub duplicate_window: Duration,
}

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        SessionOptions {
            corrections_per_tool: 2,
            corrections_per_session: 20,
            duplicate_window: Duration::from_secs(600),
        }
    }
}

impl SessionOptions {
    /// At most `corrections` corrections of one tool's call.
    pub fn with_corrections_per_tool(mut self, corrections: u32) -> SessionOptions {
        self.corrections_per_tool = corrections;
        self
    }

    /// At most `corrections` corrections in a session.
    pub fn with_corrections_per_session(mut self, corrections: u32) -> SessionOptions {
        self.corrections_per_session = corrections;
        self
    }

    /// The same action within `window` is a duplicate.
    pub fn with_duplicate_window(mut self, window: Duration) -> SessionOptions {
        self.duplicate_window = window;
        self
    }
}

/// The most actions an [`Actions`] remembers; past it, the oldest is forgotten.
const MAX_REMEMBERED: usize = 4096;

/// One conversation's calls, for the tools whose meaning is known: a call to a tool after that
/// tool's call was rejected is its correction, compared with the original (kept as received);
/// a call that repeats an action that ran lately is a duplicate; corrections are capped. The
/// MCP gate and the Python and npm packages hold their sessions with it.
///
/// ```
/// use serde_json::json;
/// use toolargs_core::Effect;
/// use toolargs_semantic::{Decision, Meanings, Profile, Session, SessionOptions};
///
/// let schema = json!({"type": "object", "properties": {
///     "amount_cents": {"type": "integer"}, "currency": {"type": "string"}}});
/// let meanings: Meanings = serde_json::from_value(json!({"amount_cents": {
///     "semantic": "money", "currency": "currency", "minor_units": true, "critical": true}}))?;
/// let profile = Profile::declared("refund", Effect::External, &schema, &meanings)?;
/// let mut session = Session::new(SessionOptions::default());
///
/// // The model sent dollars where cents go; the schema rejected it.
/// assert!(session.admit("refund"));
/// session.rejected("refund", r#"{"amount_cents": "19.99", "currency": "USD"}"#);
/// // Its correction, 100 times what was meant, passes the schema and not the session.
/// assert!(session.admit("refund"));
/// let correction = json!({"amount_cents": 199900, "currency": "USD"});
/// let weighing = session.weigh(&profile, false, &correction, &correction.to_string());
/// assert_eq!((weighing.decision, weighing.code), (Decision::Reject, Some("meaning_changed")));
/// // The one that means it runs; the same action again is a duplicate.
/// let corrected = json!({"amount_cents": 1999, "currency": "USD"});
/// let weighing = session.weigh(&profile, false, &corrected, &corrected.to_string());
/// assert_eq!(weighing.decision, Decision::Proceed);
/// session.executed("refund", weighing.fingerprint, "call 3");
/// let again = session.weigh(&profile, false, &corrected, &corrected.to_string());
/// assert_eq!((again.decision, again.code), (Decision::Confirm, Some("duplicate_action")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct Session {
    options: SessionOptions,
    /// Per tool, the first call rejected since one of its calls last ran: the original, its
    /// arguments as received.
    originals: HashMap<String, String>,
    /// Per tool, the calls made since its original.
    corrections: HashMap<String, u32>,
    /// Corrections made in the session.
    spent: u32,
    /// The actions that ran: the session's own, or shared with other sessions.
    actions: Actions,
}

/// The actions that ran, remembered for the duplicate window: a [`Session`]'s own by default;
/// sessions given clones of one `Actions` ([`Session::sharing`]) see each other's actions as
/// duplicates (the same refund sent by two clients, or over two connections).
///
/// ```
/// use toolargs_semantic::{Actions, Session, SessionOptions};
///
/// let actions = Actions::default();
/// let first = Session::new(SessionOptions::default()).sharing(actions.clone());
/// let second = Session::new(SessionOptions::default()).sharing(actions);
/// # let _ = (first, second);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Actions(Arc<Mutex<Remembered>>);

#[derive(Debug, Default)]
struct Remembered {
    /// By fingerprint, the label of the last call of each action and when it ran.
    done: HashMap<Fingerprint, (String, Instant)>,
    /// The fingerprints of the actions that ran, oldest first, to forget the oldest.
    order: VecDeque<(Fingerprint, Instant)>,
}

impl Actions {
    fn remembered(&self) -> MutexGuard<'_, Remembered> {
        // What a panicking holder left is still a set of fingerprints: keep using it.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The label of the last run of the action `fingerprint`, and how long ago, when it ran
    /// within `window`.
    fn ran_within(
        &self,
        fingerprint: &Fingerprint,
        window: Duration,
    ) -> Option<(String, Duration)> {
        let remembered = self.remembered();
        let (label, at) = remembered.done.get(fingerprint)?;
        let ago = at.elapsed();
        (ago < window).then(|| (label.clone(), ago))
    }

    /// The action `fingerprint` ran under `label`.
    fn ran(&self, fingerprint: Fingerprint, label: &str) {
        let mut remembered = self.remembered();
        if remembered.order.len() >= MAX_REMEMBERED {
            if let Some((oldest, at)) = remembered.order.pop_front() {
                // Forgotten unless the same action ran again since.
                if remembered
                    .done
                    .get(&oldest)
                    .is_some_and(|(_, last)| *last == at)
                {
                    remembered.done.remove(&oldest);
                }
            }
        }
        let now = Instant::now();
        remembered.order.push_back((fingerprint, now));
        remembered.done.insert(fingerprint, (label.to_owned(), now));
    }
}

/// What a [`Session`] makes of a call that passed the schema.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Weighing {
    /// What to do with the call.
    pub decision: Decision,
    /// Why it does not simply run: `meaning_changed` (rejected), `confirmation_required` (a
    /// correction to confirm), `duplicate_action` (an action that ran lately).
    pub code: Option<&'static str>,
    /// The correction's review against its original, when the call is one.
    pub review: Option<Review>,
    /// The original, its arguments as received, when the call is a correction.
    pub original: Option<String>,
    /// The earlier call this one repeats: the label it ran under, and how long ago.
    pub duplicate_of: Option<(String, Duration)>,
    /// The action's fingerprint, for a tool that writes, deletes, pays or notifies and is not
    /// idempotent: what [`Session::executed`] remembers.
    pub fingerprint: Option<Fingerprint>,
}

/// A call judged within a session ([`Session::judge`]).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Judged {
    /// The schema's verdict; `None` for a call refused unjudged, its tool's corrections
    /// spent.
    pub parsed: Option<Result<Parsed<Value>, Rejection>>,
    /// What the session makes of a call that passed.
    pub weighing: Option<Weighing>,
}

/// What the model is told of a call refused because its tool's corrections are spent.
const EXHAUSTED: &str =
    "this tool's call was corrected as often as allowed; do not retry it, ask the user what they want";

impl Judged {
    /// What to do with the call: `reject` for one the schema rejected or refused unjudged,
    /// else the weighing's (`proceed` when there is nothing to weigh).
    pub fn decision(&self) -> Decision {
        match (&self.parsed, &self.weighing) {
            (Some(Ok(_)), Some(weighing)) => weighing.decision,
            (Some(Ok(_)), None) => Decision::Proceed,
            _ => Decision::Reject,
        }
    }

    /// Why the call does not simply run, beyond the schema: `retry_budget_exhausted`, or the
    /// weighing's code.
    pub fn code(&self) -> Option<&'static str> {
        match (&self.parsed, &self.weighing) {
            (None, _) => Some("retry_budget_exhausted"),
            (_, Some(weighing)) => weighing.code,
            _ => None,
        }
    }

    /// The findings, each with its `path`, `verdict` and `code` ([`Weighing::findings`]); a
    /// call refused unjudged has one at `$`.
    pub fn findings(&self) -> Vec<Value> {
        match (&self.parsed, &self.weighing) {
            (None, _) => vec![json!({
                "path": "$",
                "verdict": "exhausted",
                "code": "retry_budget_exhausted",
                "reason": EXHAUSTED,
            })],
            (_, Some(weighing)) => weighing.findings(),
            _ => Vec::new(),
        }
    }

    /// The errors for the model (`{"ok": false, "errors": [...]}`) of a call that passed the
    /// schema and is rejected for its meaning, or was refused unjudged; `None` otherwise (the
    /// schema's rejection says it all, the call runs, or it waits for a person's
    /// confirmation).
    pub fn meaning_errors(&self) -> Option<String> {
        match (&self.parsed, &self.weighing) {
            (None, _) => Some(
                json!({"ok": false, "errors": [{
                    "error": "retry_budget_exhausted", "path": "$", "message": EXHAUSTED,
                }]})
                .to_string(),
            ),
            (Some(Ok(_)), Some(weighing)) if weighing.decision == Decision::Reject => {
                Some(weighing.for_model())
            }
            _ => None,
        }
    }
}

impl Weighing {
    /// What runs without a question.
    fn proceed() -> Weighing {
        Weighing {
            decision: Decision::Proceed,
            code: None,
            review: None,
            original: None,
            duplicate_of: None,
            fingerprint: None,
        }
    }

    /// Why the call needs a decision, for the person asked.
    pub fn prompt(&self) -> String {
        match (&self.duplicate_of, &self.review) {
            (Some((_, ago)), _) => format!(
                "The same call was made {} s ago; making it again does it twice.",
                ago.as_secs()
            ),
            (None, Some(review)) => review.prompt(),
            (None, None) => String::new(),
        }
    }

    /// The findings, each with its `path`, `verdict` and `code` (what it means, whether it is
    /// critical, and why, too): the correction's values that did not keep their meaning,
    /// and the duplicate at `$`.
    pub fn findings(&self) -> Vec<Value> {
        let mut findings = Vec::new();
        if let Some(review) = &self.review {
            for finding in review.concerns() {
                let code = if finding.verdict.is_mismatch() && review.decision == Decision::Reject {
                    "meaning_changed"
                } else {
                    "confirmation_required"
                };
                findings.push(json!({
                    "path": finding.path,
                    "verdict": finding.verdict.as_str(),
                    "code": code,
                    "meaning": finding.meaning,
                    "critical": finding.critical,
                    "reason": finding.reason,
                }));
            }
        }
        if let Some((_, ago)) = &self.duplicate_of {
            findings.push(json!({
                "path": "$",
                "verdict": "duplicate",
                "code": "duplicate_action",
                "reason": format!("the same call was made {} s ago", ago.as_secs()),
            }));
        }
        findings
    }

    /// The errors for the model of a call that does not run, in the shape of a rejection's:
    /// `{"ok": false, "errors": [{"error", "path", "message"}, ...]}`.
    pub fn for_model(&self) -> String {
        if let (Decision::Reject, Some(review)) = (self.decision, &self.review) {
            return review.for_model();
        }
        let message = format!(
            "{} The call was not made; ask the user before making it again.",
            self.prompt()
        );
        json!({"ok": false, "errors": [{
            "error": self.code.unwrap_or("confirmation_required"),
            "path": "$",
            "message": message,
        }]})
        .to_string()
    }

    /// The weighing for a log: the correction (`original`, `decision`, `findings`), the
    /// earlier call repeated (`duplicate_of`: `label`, `seconds_ago`) and the `fingerprint`,
    /// each when there is one; `None` when there is nothing to say.
    pub fn to_json(&self) -> Option<Value> {
        let mut out = serde_json::Map::new();
        if let Some(review) = &self.review {
            out.insert(
                "correction".to_owned(),
                json!({
                    "original": self.original,
                    "decision": review.decision.as_str(),
                    "findings": review.concerns().map(|f| f.to_json()).collect::<Vec<_>>(),
                }),
            );
        }
        if let Some((label, ago)) = &self.duplicate_of {
            out.insert(
                "duplicate_of".to_owned(),
                json!({"label": label, "seconds_ago": ago.as_secs()}),
            );
        }
        if let Some(fingerprint) = &self.fingerprint {
            out.insert(
                "fingerprint".to_owned(),
                Value::String(fingerprint.to_hex()),
            );
        }
        (!out.is_empty()).then_some(Value::Object(out))
    }
}

/// Whether a call to `profile`'s tool is an action a repeat would do twice: its tool writes,
/// deletes, pays or notifies, and is not `idempotent`.
fn acts(profile: &Profile, idempotent: bool) -> bool {
    profile.effect() != Effect::ReadOnly && !idempotent
}

impl Session {
    /// A session with `options` and no calls yet.
    pub fn new(options: SessionOptions) -> Session {
        Session {
            options,
            ..Session::default()
        }
    }

    /// The session remembers its actions in `actions`, which other sessions may share: an
    /// action that ran in any of them is a duplicate in all.
    pub fn sharing(mut self, actions: Actions) -> Session {
        self.actions = actions;
        self
    }

    /// Where the session remembers its actions (to share them with a session made later).
    pub fn actions(&self) -> &Actions {
        &self.actions
    }

    /// The session's options.
    pub fn options(&self) -> SessionOptions {
        self.options
    }

    /// Counts a call to `tool` about to be judged: one after the tool's call was rejected is
    /// a correction. False when the corrections are spent: the call is refused
    /// `retry_budget_exhausted`, unjudged.
    pub fn admit(&mut self, tool: &str) -> bool {
        if !self.originals.contains_key(tool) {
            return true;
        }
        let made = self.corrections.get(tool).copied().unwrap_or(0);
        if made >= self.options.corrections_per_tool
            || self.spent >= self.options.corrections_per_session
        {
            return false;
        }
        self.corrections.insert(tool.to_owned(), made + 1);
        self.spent += 1;
        true
    }

    /// A call to `tool` with `arguments` (the JSON text as received) was rejected: it is the
    /// original of the corrections that follow, unless one is kept already.
    pub fn rejected(&mut self, tool: &str, arguments: &str) {
        self.originals
            .entry(tool.to_owned())
            .or_insert_with(|| arguments.to_owned());
    }

    /// What a call to `profile`'s tool with `arguments` (as judged: repaired perhaps, absent
    /// properties given their defaults) means for the session, `sent` its arguments as JSON
    /// text as received: a correction is compared with its original, both as the model wrote
    /// them (a default filled in was not written, and the original had it too), and the
    /// tool's effect decides; an action of a tool that acts and is not `idempotent` is
    /// compared with those that ran within the window.
    pub fn weigh(
        &self,
        profile: &Profile,
        idempotent: bool,
        arguments: &Value,
        sent: &str,
    ) -> Weighing {
        let semantic = SemanticGate::new();
        let mut weighing = Weighing::proceed();
        if let Some(original) = self.originals.get(profile.name()) {
            let corrected = match serde_json::from_str::<Value>(sent) {
                Ok(sent) => written(arguments, &sent),
                Err(_) => arguments.clone(),
            };
            let sent: Value = serde_json::from_str(original).unwrap_or(Value::Null);
            let review = semantic.compare(profile, &sent, &corrected);
            weighing.decision = review.decision;
            weighing.code = match review.decision {
                Decision::Reject => Some("meaning_changed"),
                Decision::Confirm => Some("confirmation_required"),
                Decision::Proceed | Decision::ProceedAndReport => None,
            };
            weighing.original = Some(original.clone());
            weighing.review = Some(review);
        }
        if !acts(profile, idempotent) {
            return weighing;
        }
        let fingerprint = semantic.fingerprint(profile, arguments);
        let earlier = self
            .actions
            .ran_within(&fingerprint, self.options.duplicate_window);
        if let Some(earlier) = earlier {
            weighing.duplicate_of = Some(earlier);
            if weighing.decision != Decision::Reject {
                weighing.decision = Decision::Confirm;
                weighing.code = Some("duplicate_action");
            }
        }
        weighing.fingerprint = Some(fingerprint);
        weighing
    }

    /// A call to `tool` ran, under `label` (an id, say): the tool's corrections are over,
    /// and its action, when it has a `fingerprint`, is remembered for the window.
    pub fn executed(&mut self, tool: &str, fingerprint: Option<Fingerprint>, label: &str) {
        self.originals.remove(tool);
        self.corrections.remove(tool);
        if let Some(fingerprint) = fingerprint {
            self.actions.ran(fingerprint, label);
        }
    }

    /// Judges a call to `profile`'s tool within the session, its arguments `sent` as JSON text
    /// as received: when the tool's corrections are spent it is refused unjudged;
    /// else `judge` (the tool's schema) judges it, a rejection is kept as the original of the
    /// corrections that follow, and a call that passes is weighed. The Python and npm
    /// packages' sessions are this.
    pub fn judge(
        &mut self,
        profile: &Profile,
        idempotent: bool,
        judge: &dyn Judge,
        sent: &str,
        options: &ParseOptions,
    ) -> Judged {
        if !self.admit(profile.name()) {
            return Judged {
                parsed: None,
                weighing: None,
            };
        }
        let parsed = judge.parse_json(&sent.into(), options);
        let weighing = match &parsed {
            Ok(parsed) => Some(self.weigh(profile, idempotent, &parsed.args, sent)),
            Err(_) => {
                self.rejected(profile.name(), sent);
                None
            }
        };
        Judged {
            parsed: Some(parsed),
            weighing,
        }
    }

    /// A call to `profile`'s tool with `arguments` ran, under `label`: [`Session::executed`]
    /// with the fingerprint of its action.
    pub fn executed_call(
        &mut self,
        profile: &Profile,
        idempotent: bool,
        arguments: &Value,
        label: &str,
    ) {
        let fingerprint =
            acts(profile, idempotent).then(|| SemanticGate::new().fingerprint(profile, arguments));
        self.executed(profile.name(), fingerprint, label);
    }

    /// Whether `tool`'s call was rejected and no call of it ran since: the next is a
    /// correction.
    pub fn corrects(&self, tool: &str) -> bool {
        self.originals.contains_key(tool)
    }
}

/// `arguments` without what the parse filled in: the members of each object that `sent` (the
/// same call as written) does not have, at any depth where both hold an object, or lists of
/// one length.
fn written(arguments: &Value, sent: &Value) -> Value {
    match (arguments, sent) {
        (Value::Object(judged), Value::Object(sent)) => Value::Object(
            judged
                .iter()
                .filter_map(|(key, value)| Some((key.clone(), written(value, sent.get(key)?))))
                .collect(),
        ),
        (Value::Array(judged), Value::Array(sent)) if judged.len() == sent.len() => Value::Array(
            judged
                .iter()
                .zip(sent)
                .map(|(v, s)| written(v, s))
                .collect(),
        ),
        _ => arguments.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn profile() -> Profile {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        Profile::from_schema("act", Effect::Additive, &schema)
    }

    #[test]
    fn a_default_the_parse_filled_in_is_not_a_change_of_the_correction() {
        let schema = json!({"type": "object", "properties": {
            "due": {"type": "string", "default": ""}, "n": {"type": "integer"}}});
        let meanings: crate::Meanings =
            serde_json::from_value(json!({"due": {"semantic": "date"}})).unwrap();
        let profile = Profile::declared("invoice", Effect::Additive, &schema, &meanings).unwrap();
        let mut session = Session::new(SessionOptions::default());
        session.rejected("invoice", r#"{"n": 1, "memo": "invented"}"#);
        // The parse gave `due` its default: the model wrote neither it nor, before, the original.
        let judged = json!({"n": 1, "due": ""});
        let weighing = session.weigh(&profile, false, &judged, r#"{"n": 1}"#);
        assert_eq!(weighing.code, None, "{weighing:?}");
        // Written by the model, the same value is weighed.
        let written = session.weigh(&profile, false, &judged, r#"{"n": 1, "due": ""}"#);
        assert_eq!(written.code, Some("confirmation_required"), "{written:?}");
    }

    #[test]
    fn sessions_sharing_actions_see_each_others_and_keep_their_own_corrections() {
        let profile = profile();
        let actions = Actions::default();
        let mut first = Session::new(SessionOptions::default()).sharing(actions.clone());
        let second = Session::new(SessionOptions::default()).sharing(actions);
        let alone = Session::new(SessionOptions::default());
        first.rejected("act", r#"{"n": "one"}"#);
        first.executed_call(&profile, false, &json!({"n": 1}), "call 1");
        let again = second.weigh(
            &profile,
            false,
            &json!({"n": 1}),
            &json!({"n": 1}).to_string(),
        );
        assert_eq!(again.code, Some("duplicate_action"));
        assert_eq!(
            again.duplicate_of.map(|(label, _)| label),
            Some("call 1".to_owned())
        );
        assert_eq!(
            alone
                .weigh(
                    &profile,
                    false,
                    &json!({"n": 1}),
                    &json!({"n": 1}).to_string()
                )
                .code,
            None
        );
        // What a session corrects is its own.
        first.rejected("act", r#"{"n": "two"}"#);
        assert!(first.corrects("act") && !second.corrects("act"));
    }

    #[test]
    fn an_action_is_a_duplicate_within_the_window_and_until_forgotten() {
        let profile = profile();
        let mut session = Session::new(SessionOptions::default());
        for n in 0..=MAX_REMEMBERED {
            session.executed_call(&profile, false, &json!({"n": n}), &n.to_string());
        }
        // The oldest was forgotten; the newest is remembered under its label.
        assert_eq!(
            session
                .weigh(
                    &profile,
                    false,
                    &json!({"n": 0}),
                    &json!({"n": 0}).to_string()
                )
                .duplicate_of,
            None
        );
        let newest = session.weigh(
            &profile,
            false,
            &json!({"n": MAX_REMEMBERED}),
            &json!({"n": MAX_REMEMBERED}).to_string(),
        );
        assert_eq!(
            newest.duplicate_of.map(|(label, _)| label),
            Some(MAX_REMEMBERED.to_string())
        );
        assert_eq!(newest.code, Some("duplicate_action"));
        // Idempotent, or past the window: not a duplicate.
        assert_eq!(
            session
                .weigh(
                    &profile,
                    true,
                    &json!({"n": 5}),
                    &json!({"n": 5}).to_string()
                )
                .fingerprint,
            None
        );
        let mut brief =
            Session::new(SessionOptions::default().with_duplicate_window(Duration::ZERO));
        brief.executed_call(&profile, false, &json!({"n": 1}), "1");
        assert_eq!(
            brief
                .weigh(
                    &profile,
                    false,
                    &json!({"n": 1}),
                    &json!({"n": 1}).to_string()
                )
                .decision,
            Decision::Proceed
        );
    }
}
