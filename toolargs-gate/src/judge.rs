//! The verdict on one `tools/call`: its tool's spec judges the arguments as sent, and the
//! verdict decides where the call goes (on, repaired, or back with the errors); each call's
//! span lasts until its answer.

use toolargs_core::json::skim;
use toolargs_core::judge::Judge;

use crate::door::Call;
use crate::meaning::Ask;
use crate::message::{self, Params};
use crate::trace::CallSpan;
use crate::{reply, CallVerdict, Gate, Handled, Outcome, Route, Unchecked, Unlisted};

impl Gate {
    /// Judges a `tools/call` request, in its span.
    pub(crate) fn call(&mut self, line: &str, call: &Call<'_>) -> Handled {
        let (id, params, name) = (call.id, &call.params, call.name.as_str());
        let span = CallSpan::start(name, id);
        if self.must_wait(name) {
            return self.hold(line, id, params, span);
        }
        let listed = self.listed_lately();
        let handled = span.in_scope(|| self.judge(line, id, name, params, listed));
        self.track(id, span, &handled);
        handled
    }

    /// Records the verdict of a call on its span, and keeps the span of a call forwarded or
    /// held until its answer; the span of a call the gate answered itself ends here.
    pub(crate) fn track(&mut self, id: &str, span: CallSpan, handled: &Handled) {
        if let Some(verdict) = &handled.verdict {
            span.judged(verdict);
        }
        let forwarded = handled
            .routes
            .iter()
            .any(|route| matches!(route, Route::ToServer(_)));
        // Waiting for the answer to the gate's elicitation request.
        let held = handled.verdict.is_none() && self.held.values().any(|held| held.id == id);
        if forwarded && self.per_exchange {
            self.exchange_span = Some(span);
        } else if forwarded || held {
            self.spans.insert(id.to_owned(), span);
        }
    }

    /// The span of the call [`Gate::from_client`] just forwarded, for a transport that
    /// matches each answer to its request itself; it ends when dropped.
    pub(crate) fn take_exchange_span(&mut self) -> Option<CallSpan> {
        self.exchange_span.take()
    }

    /// The verdict on a call to `name`, and where it goes; `listed` when the gate has just
    /// asked the server for its tools for this call (a tool it does not list then is
    /// unlisted, not merely unknown to the gate).
    pub(crate) fn judge(
        &mut self,
        line: &str,
        id: &str,
        name: &str,
        params: &Params<'_>,
        listed: bool,
    ) -> Handled {
        let sent = params.arguments.map_or("{}", |raw| raw.get());
        let mut verdict = CallVerdict::new(name, params, self.tools.get(name).is_some());
        if self.tools.is_duplicated(name) {
            let reply = reply::duplicate_tool(id, name, self.shape(name, params.tagged));
            return self.refuse_for(id, Outcome::Refused, "duplicate_tool", reply, verdict);
        }
        if let Some(mismatch) = self.tools.pin_mismatch(name) {
            let code = mismatch.code();
            verdict.changed = mismatch.changes.as_ref().map(|_| mismatch.describe());
            let reply = reply::pin_refused(id, name, code, self.shape(name, params.tagged));
            return self.refuse_for(id, Outcome::Refused, code, reply, verdict);
        }
        if let Some(why) = self.tools.meaning_invalid(name) {
            let why = format!("the meaning declared for `{name}` does not fit its schema: {why}");
            let reply =
                reply::refused(id, self.shape(name, params.tagged), "meaning_invalid", &why);
            return self.refuse_for(id, Outcome::Refused, "meaning_invalid", reply, verdict);
        }
        if self.corrections_spent(name, params) {
            let why = format!("calls to `{name}` were corrected as often as the gate allows; do not retry it, ask the user what they want");
            let code = "retry_budget_exhausted";
            let reply = reply::refused(id, self.shape(name, params.tagged), code, &why);
            return self.refuse_for(id, Outcome::Refused, code, reply, verdict);
        }
        let spec = match self.tools.get(name) {
            None if listed && self.unlisted == Unlisted::Refuse => {
                let reply = reply::unknown_tool(id, name, self.shape(name, params.tagged));
                return self.refuse(id, Outcome::UnknownTool, reply, verdict);
            }
            Some(Ok(spec)) => spec,
            Some(Err(_)) if self.unchecked == Unchecked::Block => {
                self.pending.remove(id);
                verdict.outcome = Outcome::Blocked;
                return Handled {
                    routes: vec![Route::ToClient(reply::blocked(
                        id,
                        name,
                        self.shape(name, params.tagged),
                    ))],
                    verdict: Some(verdict),
                    listing: false,
                };
            }
            // Passed on unchecked: only arguments read one way only.
            _ if skim::skip_strict(sent, 0, skim::MAX_DEPTH).is_none() => {
                let why = "the arguments repeat a member or hold a string that is not Unicode";
                let code = "invalid_arguments";
                let reply = reply::refused(id, self.shape(name, params.tagged), code, why);
                return self.refuse_for(id, Outcome::Refused, code, reply, verdict);
            }
            _ => {
                return self.forward_call(
                    id,
                    name,
                    params,
                    line.to_owned(),
                    || sent.to_owned(),
                    verdict,
                    Ask::Nothing,
                )
            }
        };
        match spec.parse_json(&sent.into(), &self.options) {
            Ok(parsed) if parsed.repairs.is_empty() => {
                verdict.outcome = Outcome::Clean;
                let ask = self.weigh(name, &parsed.args, sent, &mut verdict);
                self.forward_call(
                    id,
                    name,
                    params,
                    line.to_owned(),
                    || sent.to_owned(),
                    verdict,
                    ask,
                )
            }
            Ok(parsed) => {
                verdict.outcome = Outcome::Repaired;
                for repair in &parsed.repairs {
                    verdict.rules.push(repair.rule.to_string());
                    verdict.paths.push(repair.path.clone());
                }
                let line = message::with_arguments(line, params, &parsed.args);
                let ask = self.weigh(name, &parsed.args, sent, &mut verdict);
                let arguments = || parsed.args.to_string();
                self.forward_call(id, name, params, line, arguments, verdict, ask)
            }
            Err(rejection) => {
                self.pending.remove(id);
                self.rejected_original(name, sent);
                verdict.outcome = Outcome::Rejected;
                for error in rejection.errors() {
                    verdict.codes.push(error.code.to_string());
                    verdict.paths.push(error.path.clone());
                }
                Handled {
                    routes: vec![Route::ToClient(reply::rejected(
                        id,
                        &rejection,
                        self.shape(name, params.tagged),
                    ))],
                    verdict: Some(verdict),
                    listing: false,
                }
            }
        }
    }

    /// Answers a call the gate does not forward with `reply`; its verdict is `outcome`, with
    /// the outcome's name as its code.
    pub(crate) fn refuse(
        &mut self,
        id: &str,
        outcome: Outcome,
        reply: String,
        verdict: CallVerdict,
    ) -> Handled {
        let code = outcome.as_str();
        self.refuse_for(id, outcome, code, reply, verdict)
    }

    /// [`Gate::refuse`], with `code` as the verdict's code.
    pub(crate) fn refuse_for(
        &mut self,
        id: &str,
        outcome: Outcome,
        code: &str,
        reply: String,
        mut verdict: CallVerdict,
    ) -> Handled {
        self.pending.remove(id);
        verdict.codes.push(code.to_owned());
        verdict.outcome = outcome;
        Handled {
            routes: vec![Route::ToClient(reply)],
            verdict: Some(verdict),
            listing: false,
        }
    }

    /// How the gate writes its own error results for `tool`: with the errors as
    /// `structuredContent` too, unless the tool declares an `outputSchema`, which MCP holds
    /// every `structuredContent` of its results to; `tagged` for a call of a revision that
    /// requires `resultType`.
    pub(crate) fn shape(&self, tool: &str, tagged: bool) -> reply::Shape {
        reply::Shape {
            structured: !self.tools.declares_output_schema(tool),
            tagged,
        }
    }
}

impl CallVerdict {
    /// The verdict on a call to `tool` with `params`, before it is judged: unchecked.
    /// `listed` when the server lists the tool.
    pub(crate) fn new(tool: &str, params: &Params<'_>, listed: bool) -> CallVerdict {
        CallVerdict {
            tool: tool.to_owned(),
            method: "tools/call".to_owned(),
            outcome: Outcome::Unchecked,
            codes: Vec::new(),
            rules: Vec::new(),
            paths: Vec::new(),
            arguments: params.arguments.map_or("{}", |raw| raw.get()).to_owned(),
            confirmed: false,
            held: false,
            listed,
            meaning: None,
            fingerprint: None,
            changed: None,
        }
    }
}
