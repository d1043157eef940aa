//! The collector a parse writes into: repairs, errors, and the tool's unknown-key policy.

use serde_json::Value;

use crate::options::{Limits, ParseOptions};
use crate::path::Path;
use crate::report::{ArgumentError, Code, Parsed, Rejection, Repair, Rule};
use crate::spec::UnknownPolicy;

/// Collects every repair and every error of one call, so all errors are reported at once.
#[derive(Debug)]
pub struct Cx {
    repairs: Vec<Repair>,
    errors: Vec<ArgumentError>,
    omitted: usize,
    unknown: UnknownPolicy,
    null_as_absent: bool,
    /// Errors are recorded without their message ([`Cx::set_omit_messages`]).
    omit_messages: bool,
    /// The limits the payload was read under, for text decoded while coercing.
    limits: Limits,
}

impl Cx {
    /// A collector for a tool with the given unknown-key policy.
    pub fn new(unknown: UnknownPolicy) -> Self {
        Cx {
            repairs: Vec::new(),
            errors: Vec::new(),
            omitted: 0,
            unknown,
            null_as_absent: false,
            omit_messages: false,
            limits: Limits::DEFAULT,
        }
    }

    /// A collector set from a parse's `options` (`unknown` when they name no policy),
    /// holding `repairs` already made (the envelope's).
    pub(crate) fn under(
        options: &ParseOptions,
        unknown: UnknownPolicy,
        repairs: Vec<Repair>,
    ) -> Self {
        Cx {
            repairs,
            null_as_absent: options.null_as_absent,
            omit_messages: options.omit_messages,
            limits: options.limits,
            ..Cx::new(options.unknown.unwrap_or(unknown))
        }
    }

    /// Records errors without their message (see
    /// [`ParseOptions::omit_messages`](crate::ParseOptions::omit_messages)): a message given to
    /// [`Cx::error_with`] is then not written at all.
    pub fn set_omit_messages(&mut self, on: bool) {
        self.omit_messages = on;
    }

    /// The limits the payload was read under.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Whether `null` for an optional field is read as absent without a repair.
    pub fn null_as_absent(&self) -> bool {
        self.null_as_absent
    }

    /// The tool's policy for keys it does not declare; it holds at every depth.
    pub fn unknown_policy(&self) -> UnknownPolicy {
        self.unknown
    }

    /// Records a repair. On a `strict` field the repair is refused instead: a `repair_forbidden`
    /// error is recorded and `false` returned, and the caller must not use the repaired value.
    pub fn repair(
        &mut self,
        path: &Path<'_>,
        strict: bool,
        rule: Rule,
        before: Value,
        after: Value,
    ) -> bool {
        if strict {
            self.error_with(path, Code::RepairForbidden, || {
                format!(
                    "this field must be sent exactly as the schema says; {} would have changed {} into {}",
                    rule,
                    truncate_json(&before),
                    truncate_json(&after)
                )
            });
            return false;
        }
        self.repairs.push(Repair {
            path: path.render(),
            rule,
            before,
            after,
        });
        true
    }

    /// Records an error at `path`; a collector that [omits messages](Cx::set_omit_messages)
    /// keeps an empty one instead of `message`.
    pub fn error(&mut self, path: &Path<'_>, code: Code, message: impl Into<String>) {
        if self.errors.len() >= Rejection::MAX_ERRORS {
            self.omitted += 1;
            return;
        }
        let message = match self.omit_messages {
            true => String::new(),
            false => message.into(),
        };
        self.errors.push(ArgumentError {
            path: path.render(),
            code,
            message,
        });
    }

    /// Records an error at `path` whose message is written only when it is kept: a collector
    /// that [omits messages](Cx::set_omit_messages) records the error with an empty message,
    /// without calling `message`. For messages that cost more to write than the check that
    /// failed.
    pub fn error_with(&mut self, path: &Path<'_>, code: Code, message: impl FnOnce() -> String) {
        if self.omit_messages {
            self.error(path, code, String::new());
        } else {
            self.error(path, code, message());
        }
    }

    /// True once any error was recorded.
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// True when nothing was recorded: no repair and no error.
    pub fn is_empty(&self) -> bool {
        self.repairs.is_empty() && self.error_count() == 0
    }

    /// How many errors were recorded, counting those left out past the cap.
    pub fn error_count(&self) -> usize {
        self.errors.len() + self.omitted
    }

    /// An empty collector under the same options, for trying a reading whose repairs and
    /// errors must not count until it is chosen ([`Cx::absorb`]).
    pub fn scratch(&self) -> Cx {
        Cx {
            null_as_absent: self.null_as_absent,
            omit_messages: self.omit_messages,
            limits: self.limits,
            ..Cx::new(self.unknown)
        }
    }

    /// A [scratch](Cx::scratch) collector for a reading that only asks whether anything
    /// failed or was repaired: it records as any collector does, but [without
    /// messages](Cx::set_omit_messages), and so do its own scratch collectors. Its errors are
    /// never shown, so it is dropped, never [absorbed](Cx::absorb) into a collector that keeps
    /// messages.
    ///
    /// ```
    /// use toolargs_core::cx::Cx;
    /// use toolargs_core::path::Path;
    /// use toolargs_core::report::Code;
    /// use toolargs_core::spec::UnknownPolicy;
    ///
    /// let mut cx = Cx::new(UnknownPolicy::Reject);
    /// let mut quiet = cx.quiet_scratch();
    /// quiet.error_with(&Path::ROOT, Code::Pattern, || unreachable!("never written"));
    /// assert_eq!(quiet.error_count(), 1);
    ///
    /// cx.error_with(&Path::ROOT, Code::Pattern, || "expected an id".to_owned());
    /// let rejection = cx.finish(Some(())).unwrap_err();
    /// assert_eq!(rejection.errors()[0].message, "expected an id");
    /// ```
    pub fn quiet_scratch(&self) -> Cx {
        Cx {
            omit_messages: true,
            ..self.scratch()
        }
    }

    /// Takes over what a scratch collector recorded, in order, as if recorded here.
    pub fn absorb(&mut self, other: Cx) {
        debug_assert!(
            self.omit_messages || !other.omit_messages,
            "a quiet collector's errors have no message"
        );
        self.repairs.extend(other.repairs);
        for error in other.errors {
            if self.errors.len() >= Rejection::MAX_ERRORS {
                self.omitted += 1;
            } else {
                self.errors.push(error);
            }
        }
        self.omitted += other.omitted;
    }

    /// Repairs recorded so far.
    pub fn repairs(&self) -> &[Repair] {
        &self.repairs
    }

    /// Errors recorded so far (without those left out past the cap).
    pub fn errors(&self) -> &[ArgumentError] {
        &self.errors
    }

    /// Everything collected, whatever the outcome: the repairs and the errors (without those
    /// left out past the cap). For a reading judged piece by piece, as a stream judges each
    /// member of a call alone.
    pub fn into_parts(self) -> (Vec<Repair>, Vec<ArgumentError>) {
        (self.repairs, self.errors)
    }

    /// Turns the collected outcome into the result of a parse.
    pub fn finish<T>(self, value: Option<T>) -> Result<Parsed<T>, Rejection> {
        match value {
            Some(args) if self.errors.is_empty() => Ok(Parsed {
                args,
                repairs: self.repairs,
            }),
            _ if !self.errors.is_empty() => Err(Rejection::new(self.errors, self.omitted)),
            // A coercer returned nothing without saying why; never let that pass as success.
            _ => Err(Rejection::single(ArgumentError {
                path: Path::ROOT.render(),
                code: Code::Type,
                message: match self.omit_messages {
                    true => String::new(),
                    false => "the arguments could not be read".to_owned(),
                },
            })),
        }
    }
}

fn truncate_json(value: &Value) -> String {
    match value {
        Value::String(s) => crate::text::preview_str(s),
        other => {
            let text = other.to_string();
            match text.char_indices().nth(crate::text::PREVIEW_CHARS) {
                Some((at, _)) => format!("{}…", &text[..at]),
                None => text,
            }
        }
    }
}
