//! What judges a call: a derived type ([`Typed`]) or a loaded [`Spec`].

use std::marker::PhantomData;

use serde_json::Value;
use toolargs_core::decode::{LoggedPayload, RawArgs};
use toolargs_core::options::ParseOptions;
use toolargs_core::report::{Parsed, Rejection};
use toolargs_core::tool::{parse_with, ToolArgs};
use toolargs_dynamic::{LoadWarning, Spec};

use crate::outcome::{Judgement, Outcome};

/// Something that can judge one call: a derived type or a loaded spec.
pub trait Gate: Send + Sync {
    /// Parses one call, giving the arguments in canonical JSON.
    fn parse_json(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Value>, Rejection>;

    /// Parses one call and reports only the outcome.
    fn outcome(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Outcome {
        Outcome::from_result(self.parse_json(raw, options).map(|p| p.repairs))
    }

    /// Parses one call and reports the outcome with the path of every repair or error, which
    /// the replay's drill-down counts. The default reads them from [`Gate::parse_json`].
    fn judge(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Judgement {
        Judgement::from_result(self.parse_json(raw, options).map(|p| p.repairs))
    }

    /// Judges arguments read from a log's text as they stand there: inside a JSON string,
    /// without being unescaped ([`read_logged`](toolargs_core::decode::read_logged)), or as
    /// a JSON object ([`read_embedded`](toolargs_core::decode::read_embedded)). `None` when
    /// the gate does not judge them so: the caller hands their text (unescaped) to
    /// [`Gate::judge`], which gives the same judgement. The default judges none so.
    fn judge_logged(
        &self,
        payload: &LoggedPayload<'_>,
        options: &ParseOptions,
    ) -> Option<Judgement> {
        let _ = (payload, options);
        None
    }

    /// What loading the gate's definition noticed but did not refuse
    /// ([`Spec::warnings`]); none for a derived type.
    fn load_warnings(&self) -> &[LoadWarning] {
        &[]
    }
}

impl Gate for Spec {
    fn parse_json(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Value>, Rejection> {
        self.parse_with(raw, options)
    }

    fn outcome(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Outcome {
        Outcome::from_result(self.check_with(raw, options))
    }

    fn judge(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Judgement {
        Judgement::from_result(self.check_with(raw, options))
    }

    fn judge_logged(
        &self,
        payload: &LoggedPayload<'_>,
        options: &ParseOptions,
    ) -> Option<Judgement> {
        Some(Judgement::from_result(self.check_logged(payload, options)))
    }

    fn load_warnings(&self) -> &[LoadWarning] {
        self.warnings()
    }
}

/// A derived [`ToolArgs`] type as a [`Gate`]: `Typed::<IssueRefund>::new()`.
pub struct Typed<T>(PhantomData<fn() -> T>);

impl<T> Typed<T> {
    /// The gate of `T`.
    pub fn new() -> Self {
        Typed(PhantomData)
    }
}

impl<T> Default for Typed<T> {
    fn default() -> Self {
        Typed::new()
    }
}

impl<T: ToolArgs> Gate for Typed<T> {
    fn parse_json(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Value>, Rejection> {
        parse_with::<T>(raw, options).map(|p| Parsed {
            args: p.args.to_json(),
            repairs: p.repairs,
        })
    }

    // Skips writing the canonical JSON, which an outcome does not need.
    fn outcome(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Outcome {
        Outcome::from_result(parse_with::<T>(raw, options).map(|p| p.repairs))
    }

    fn judge(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Judgement {
        Judgement::from_result(parse_with::<T>(raw, options).map(|p| p.repairs))
    }
}
