//! The verdict on one `tools/call`: its tool's spec judges the arguments as sent, and the
//! verdict decides where the call goes (on, repaired, or back with the errors); each call's
//! span lasts until its answer.

use toolargs_core::judge::Judge;

use crate::message::{self, Params};
use crate::trace::CallSpan;
use crate::{reply, CallVerdict, Gate, Handled, Outcome, Route, Unchecked, Unlisted};

impl Gate {
    /// Judges a `tools/call` request, in its span.
    pub(crate) fn call(&mut self, line: &str, id: &str, params: &Params<'_>) -> Handled {
        let Some(name) = params.name.as_deref() else {
            return Handled {
                routes: vec![Route::ToServer(line.to_owned())],
                verdict: None,
                listing: false,
            };
        };
        let span = CallSpan::start(name, id);
        if self.must_wait(name) {
            return self.hold(line, id, params, span);
        }
        let handled = span.in_scope(|| self.judge(line, id, name, params, false));
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
        let mut verdict = CallVerdict::new(name, params);
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
            _ => {
                return self.forward_call(
                    id,
                    name,
                    params,
                    line.to_owned(),
                    || sent.to_owned(),
                    verdict,
                )
            }
        };
        match spec.parse_json(&sent.into(), &self.options) {
            Ok(parsed) if parsed.repairs.is_empty() => {
                verdict.outcome = Outcome::Clean;
                self.forward_call(
                    id,
                    name,
                    params,
                    line.to_owned(),
                    || sent.to_owned(),
                    verdict,
                )
            }
            Ok(parsed) => {
                verdict.outcome = Outcome::Repaired;
                for repair in &parsed.repairs {
                    verdict.rules.push(repair.rule.to_string());
                    verdict.paths.push(repair.path.clone());
                }
                let line = message::with_arguments(line, params, &parsed.args);
                self.forward_call(id, name, params, line, || parsed.args.to_string(), verdict)
            }
            Err(rejection) => {
                self.pending.remove(id);
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
        mut verdict: CallVerdict,
    ) -> Handled {
        self.pending.remove(id);
        verdict.codes.push(outcome.as_str().to_owned());
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
    pub(crate) fn new(tool: &str, params: &Params<'_>) -> CallVerdict {
        CallVerdict {
            tool: tool.to_owned(),
            outcome: Outcome::Unchecked,
            codes: Vec::new(),
            rules: Vec::new(),
            paths: Vec::new(),
            arguments: params.arguments.map_or("{}", |raw| raw.get()).to_owned(),
            confirmed: false,
            held: false,
        }
    }
}
