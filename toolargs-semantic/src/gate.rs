//! The semantic gate: what the caller pins (exchange rates, an entity resolver, extra unit
//! families), and the review of a corrected call against its original.

use std::borrow::Cow;

use serde_json::Value;

use super::attempt::Correction;
use super::compare::{compare_fields, semantic_form, Env};
use super::currency::Rate;
use super::decision::{decide, Finding, Review, Verdict};
use super::entity::Resolver;
use super::fingerprint::Fingerprint;
use super::profile::Profile;
use super::units::{builtin, UnitFamily};
use toolargs_core::tool::ToolArgs;

/// Compares a corrected call with its original, value by value in canonical form, and
/// decides by the tool's effect whether it runs.
///
/// ```
/// use serde_json::json;
/// use toolargs_semantic::{Decision, Kind, Profile, Semantics, SemanticGate, Source};
/// use toolargs_core::Effect;
///
/// let schema = json!({"type": "object", "properties": {
///     "amount": {"type": "number"}, "currency": {"type": "string"}}});
/// let profile = Profile::from_schema("create_invoice", Effect::External, &schema)
///     .with(&Semantics::new().declare("amount", Kind::money(Source::field("currency"), false)))
///     .unwrap();
/// let gate = SemanticGate::new();
/// let review = gate.compare(&profile,
///     &json!({"amount": 100, "currency": "USD"}),
///     &json!({"amount": 100, "currency": "CAD"}));
/// assert_eq!(review.decision, Decision::Confirm);
/// ```
pub struct SemanticGate<'a> {
    rates: Vec<Rate>,
    resolver: Option<Box<dyn Resolver + 'a>>,
    /// The built-in families, shared until one is added.
    families: Cow<'static, [UnitFamily]>,
}

impl<'a> SemanticGate<'a> {
    /// A gate with the built-in unit families, no rates and no resolver.
    pub fn new() -> SemanticGate<'a> {
        SemanticGate {
            rates: Vec::new(),
            resolver: None,
            families: Cow::Borrowed(builtin()),
        }
    }

    /// Pins an exchange rate: an amount in `rate.from()` is then the same as its conversion
    /// into `rate.to()`, rounded half to even to the minor unit. Only this direction is used.
    pub fn with_rate(mut self, rate: Rate) -> SemanticGate<'a> {
        self.rates
            .retain(|r| (r.from(), r.to()) != (rate.from(), rate.to()));
        self.rates.push(rate);
        self
    }

    /// Resolves entity references to ids. Without a resolver, references compare as written,
    /// and different text is `unverified`.
    pub fn with_resolver(mut self, resolver: impl Resolver + 'a) -> SemanticGate<'a> {
        self.resolver = Some(Box::new(resolver));
        self
    }

    /// Adds a unit family, or replaces the one of the same name.
    pub fn with_family(mut self, family: UnitFamily) -> SemanticGate<'a> {
        let families = self.families.to_mut();
        families.retain(|f| f.name() != family.name());
        families.push(family);
        self
    }

    fn env<'e>(&'e self, twice: &'e [String]) -> Env<'e> {
        Env {
            rates: &self.rates,
            resolver: self.resolver.as_deref().map(|r| r as &dyn Resolver),
            families: &self.families,
            twice,
        }
    }

    /// Reviews the last attempt of a derived tool's call against its first. `None` when the
    /// last attempt did not parse: there is no corrected call to run yet.
    pub fn review<T: ToolArgs>(&self, correction: &Correction) -> Option<Review> {
        self.review_with(&Profile::of::<T>(), correction)
    }

    /// [`SemanticGate::review`] with an explicit profile (for a tool loaded from a schema).
    pub fn review_with(&self, profile: &Profile, correction: &Correction) -> Option<Review> {
        let corrected = correction.corrected()?;
        let original = correction.original().and_then(|a| a.arguments());
        let twice = correction.duplicate_paths();
        Some(self.run(profile, original.as_ref(), corrected, &twice))
    }

    /// Compares an original call's arguments (as received, decoded) with the corrected call's
    /// canonical arguments.
    pub fn compare(&self, profile: &Profile, original: &Value, corrected: &Value) -> Review {
        self.run(profile, Some(original), corrected, &[])
    }

    fn run(
        &self,
        profile: &Profile,
        original: Option<&Value>,
        corrected: &Value,
        twice: &[String],
    ) -> Review {
        let env = self.env(twice);
        let mut findings = Vec::new();
        match original {
            Some(Value::Object(o)) => compare_fields(
                profile.fields(),
                Some(o),
                corrected.as_object(),
                &toolargs_core::path::Path::ROOT,
                &env,
                &mut findings,
            ),
            other => findings.push(Finding {
                path: "$".to_owned(),
                meaning: "object",
                verdict: Verdict::Unverified,
                critical: false,
                original: other.cloned(),
                corrected: Some(corrected.clone()),
                readings: Vec::new(),
                canonical: None,
                reason: "the original arguments were not a JSON object, so nothing can be compared"
                    .to_owned(),
            }),
        }
        Review {
            tool: profile.name().to_owned(),
            effect: profile.effect(),
            decision: decide(profile.effect(), &findings),
            findings,
            fingerprint: self.fingerprint(profile, corrected),
        }
    }

    /// The semantic fingerprint of a call: its tool name and arguments with every declared
    /// kind in canonical form, so `{"minutes": 90}` and `{"hours": 1.5}` of one duration field
    /// match, as do `1500` and `1500.0`, any key order and any whitespace.
    pub fn fingerprint(&self, profile: &Profile, arguments: &Value) -> Fingerprint {
        let env = self.env(&[]);
        let form = match arguments {
            Value::Object(map) => semantic_form(profile.fields(), map, &env),
            other => other.clone(),
        };
        Fingerprint::of(profile.name(), &form)
    }
}

impl Default for SemanticGate<'_> {
    fn default() -> Self {
        SemanticGate::new()
    }
}

impl std::fmt::Debug for SemanticGate<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SemanticGate")
            .field("rates", &self.rates)
            .field("resolver", &self.resolver.is_some())
            .field(
                "families",
                &self
                    .families
                    .iter()
                    .map(UnitFamily::name)
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::{Decision, EntityId, Kind, ResolveError, Semantics, Source};
    use toolargs_core::effect::Effect;

    fn invoice() -> Profile {
        let schema = json!({"type": "object", "properties": {
            "customer": {"type": "string"},
            "amount": {"type": "number"},
            "currency": {"type": "string"},
            "due": {"type": "string", "format": "date"},
            "hours": {"type": "number"},
            "length": {"type": "number"},
            "unit": {"type": "string"},
            "recipient": {"type": "string"}
        }, "required": ["amount", "currency"]});
        Profile::from_schema("create_invoice", Effect::External, &schema)
            .with(
                &Semantics::new()
                    .declare("amount", Kind::money(Source::field("currency"), false))
                    .declare("hours", Kind::quantity("duration", Source::fixed("hours")))
                    .declare("length", Kind::quantity("duration", Source::field("unit")))
                    .declare("recipient", Kind::entity("person")),
            )
            .unwrap()
    }

    fn one(review: &Review) -> (&str, Verdict) {
        let concerns: Vec<&Finding> = review.concerns().collect();
        assert_eq!(concerns.len(), 1, "{:#?}", review.findings);
        (concerns[0].path.as_str(), concerns[0].verdict)
    }

    #[test]
    fn currency_swap_needs_confirmation_even_with_a_rate() {
        let gate = SemanticGate::new();
        let review = gate.compare(
            &invoice(),
            &json!({"amount": 100, "currency": "usd"}),
            &json!({"amount": 100.0, "currency": "CAD"}),
        );
        assert_eq!(one(&review), ("$.amount", Verdict::Changed));
        assert_eq!(review.decision, Decision::Confirm);
        assert!(
            review.findings[0].reason.contains("no USD to CAD rate"),
            "{review:#?}"
        );

        let gate = SemanticGate::new().with_rate(Rate::new("USD", "CAD", "1.37").unwrap());
        let review = gate.compare(
            &invoice(),
            &json!({"amount": "$100", "currency": "USD"}),
            &json!({"amount": 137, "currency": "CAD"}),
        );
        assert_eq!(review.decision, Decision::Proceed, "{review:#?}");
    }

    #[test]
    fn quantities() {
        let gate = SemanticGate::new();
        let review = gate.compare(
            &invoice(),
            &json!({"amount": 1, "currency": "USD", "hours": "1.5 hours"}),
            &json!({"amount": 1, "currency": "USD", "hours": 36}),
        );
        assert_eq!(one(&review), ("$.hours", Verdict::Changed));
        let reason = &review.concerns().next().unwrap().reason;
        assert!(reason.contains("unit flip"), "{reason}");

        let review = gate.compare(
            &invoice(),
            &json!({"amount": 1, "currency": "USD", "length": 1.5}),
            &json!({"amount": 1, "currency": "USD", "length": 36, "unit": "hours"}),
        );
        assert_eq!(one(&review), ("$.length", Verdict::Ambiguous));

        let review = gate.compare(
            &invoice(),
            &json!({"amount": 1, "currency": "USD", "length": 90, "unit": "minutes"}),
            &json!({"amount": 1, "currency": "USD", "length": 1.5, "unit": "h"}),
        );
        assert_eq!(review.decision, Decision::Proceed, "{review:#?}");
        assert_eq!(
            gate.fingerprint(
                &invoice(),
                &json!({"amount": 1, "currency": "USD", "length": 90, "unit": "minutes"})
            ),
            gate.fingerprint(
                &invoice(),
                &json!({"currency": "USD", "amount": 1.0, "length": 1.5, "unit": "h"})
            ),
        );
    }

    #[test]
    fn dates_and_defaults() {
        let gate = SemanticGate::new();
        let review = gate.compare(
            &invoice(),
            &json!({"amount": 1, "currency": "USD", "due": "04/03/2026"}),
            &json!({"amount": 1, "currency": "USD", "due": "2026-03-04"}),
        );
        assert_eq!(one(&review), ("$.due", Verdict::Ambiguous));
        let review = gate.compare(
            &invoice(),
            &json!({"amount": 1, "currency": "USD"}),
            &json!({"amount": 1, "currency": "USD", "due": "2026-03-04"}),
        );
        assert_eq!(one(&review), ("$.due", Verdict::Unverified));
    }

    #[test]
    fn entities() {
        let directory = |_: &str, reference: &str| -> Result<Vec<EntityId>, ResolveError> {
            Ok(match reference {
                "Bob" | "usr_bob" => vec![EntityId::new("usr_bob")],
                "usr_alice" => vec![EntityId::new("usr_alice")],
                "Sam" => vec![EntityId::new("usr_sam_1"), EntityId::new("usr_sam_2")],
                "usr_sam_1" => vec![EntityId::new("usr_sam_1")],
                _ => vec![],
            })
        };
        struct Directory<F>(F);
        impl<F: Fn(&str, &str) -> Result<Vec<EntityId>, ResolveError>> Resolver for Directory<F> {
            fn resolve(&self, kind: &str, reference: &str) -> Result<Vec<EntityId>, ResolveError> {
                (self.0)(kind, reference)
            }
        }
        let gate = SemanticGate::new().with_resolver(Directory(directory));
        let call =
            |recipient: &str| json!({"amount": 1, "currency": "USD", "recipient": recipient});
        let verdict = |o: &str, c: &str| one(&gate.compare(&invoice(), &call(o), &call(c))).1;
        assert_eq!(verdict("Bob", "usr_alice"), Verdict::Changed);
        assert_eq!(verdict("Sam", "usr_sam_1"), Verdict::Ambiguous);
        assert_eq!(verdict("Zed", "usr_bob"), Verdict::Unverified);
        assert_eq!(verdict("Bob", "Sam"), Verdict::Invalid);
        let review = gate.compare(&invoice(), &call("Bob"), &call("usr_bob"));
        assert_eq!(review.decision, Decision::Proceed);
    }
}
