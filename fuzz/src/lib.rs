//! What the fuzz targets share: the refund tool of the policy's running example, a nested
//! shipment tool, and the invariants every outcome must satisfy.

use chrono::NaiveDate;
use serde_json::Value;
use toolargs::{Parsed, Rejection, Spec, ToolArgs};

// The refund tool of the integration tests, so that the fuzzers check the same contract.
#[path = "../../tests/it/common.rs"]
mod common;
pub use common::{IssueRefund, Reason};

// The random schemas, instances and check of the `differential_schema` integration tests.
#[path = "../../tests/it/schema_gen.rs"]
pub mod schema_gen;

/// Create a shipment: a list of objects, a nested object, optional and defaulted fields.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(name = "create_shipment", effect = "additive")]
pub struct CreateShipment {
    #[arg(pattern = r"cus_[A-Za-z0-9]{6}")]
    pub customer_id: String,
    #[arg(min_items = 1, max_items = 50)]
    pub items: Vec<LineItem>,
    pub address: Address,
    #[arg(default)]
    pub express: bool,
    pub notes: Option<String>,
    pub ship_on: Option<NaiveDate>,
}

/// One line of a shipment.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
pub struct LineItem {
    #[arg(pattern = r"[A-Z]{3}-[0-9]{4}")]
    pub sku: String,
    #[arg(min = 1, max = 1000)]
    pub quantity: u32,
    #[arg(min = 0.0)]
    pub unit_price: f64,
    #[arg(default)]
    pub options: Vec<String>,
    pub gift: Option<bool>,
}

/// Where a shipment goes.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
pub struct Address {
    pub line1: String,
    pub city: String,
    #[arg(pattern = r"[A-Z]{2}")]
    pub country: String,
    pub postal_code: String,
}

/// The derived parser of `T` and `spec` (loaded from `T`'s emitted schema) agree on `data`:
/// both accept or both reject, with the same canonical arguments, the same (rule, path)
/// repairs and the same (code, path) errors. Sets are compared sorted, since a loaded schema
/// reads properties in the map's order.
pub fn check_agreement<T: ToolArgs + std::fmt::Debug>(spec: &Spec, data: &[u8]) {
    let errors = |rejection: &Rejection| {
        let mut all: Vec<_> = rejection
            .errors()
            .iter()
            .map(|e| (e.code.to_string(), e.path.clone()))
            .collect();
        all.sort();
        all
    };
    match (T::parse(data), spec.parse(data)) {
        (Ok(derived), Ok(dynamic)) => {
            assert_eq!(
                derived.args.to_json(),
                dynamic.args,
                "canonical arguments differ"
            );
            let mut a: Vec<_> = derived
                .repairs
                .iter()
                .map(|r| (r.rule, r.path.clone()))
                .collect();
            let mut b: Vec<_> = dynamic
                .repairs
                .iter()
                .map(|r| (r.rule, r.path.clone()))
                .collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "repairs differ");
        }
        (Err(derived), Err(dynamic)) => {
            let total = |r: &Rejection| r.errors().len() + r.omitted();
            assert_eq!(total(&derived), total(&dynamic), "error counts differ");
            // Past the cap each door keeps the errors it met first, in its own field order.
            if derived.omitted() == 0 {
                assert_eq!(errors(&derived), errors(&dynamic), "errors differ");
            }
        }
        (Ok(derived), Err(dynamic)) => {
            panic!(
                "derived accepted {:?}, spec rejected: {dynamic}",
                derived.args
            )
        }
        (Err(derived), Ok(dynamic)) => {
            panic!(
                "spec accepted {}, derived rejected: {derived}",
                dynamic.args
            )
        }
    }
}

/// A rejection is never empty, every path starts at the payload, and the message for the model
/// is one JSON object listing them all.
pub fn check_rejection(rejection: &Rejection) {
    assert!(!rejection.errors().is_empty(), "empty rejection");
    for error in rejection.errors() {
        assert!(error.path.starts_with('$'), "path {:?}", error.path);
        assert!(!error.message.is_empty(), "no message at {}", error.path);
    }
    let body: Value = serde_json::from_str(&rejection.for_model()).expect("for_model is JSON");
    let listed = body["errors"].as_array().map_or(0, Vec::len);
    assert_eq!(listed, rejection.errors().len());
    assert!(!rejection.to_string().is_empty());
}

/// Repairs name their place, and the canonical output reads back clean and equal.
pub fn check_parsed<T: ToolArgs>(parsed: &Parsed<T>) {
    for repair in &parsed.repairs {
        assert!(repair.path.starts_with('$'), "path {:?}", repair.path);
    }
    let canonical = parsed.args.to_json();
    match T::parse(&canonical) {
        Ok(again) => {
            assert!(
                again.repairs.is_empty(),
                "canonical form needed {:?}",
                again.repairs
            );
            assert_eq!(again.args.to_json(), canonical, "canonical form changed");
        }
        Err(rejection) => panic!("canonical form {canonical} rejected: {rejection}"),
    }
}

/// A stream of `data`, cut where its bytes say, gets `parse`'s verdict on each door, and
/// never rejects a call `parse` accepts. The cuts are byte offsets, so `feed_bytes` may split
/// a character.
pub fn check_stream<T: ToolArgs + std::fmt::Debug + PartialEq>(spec: &Spec, data: &[u8]) {
    // Cut after every byte whose low bits are zero: about one cut in eight, anywhere.
    let cuts: Vec<usize> = (1..data.len()).filter(|&i| data[i] & 7 == 0).collect();
    let pieces = || {
        let mut from = 0;
        cuts.iter()
            .copied()
            .chain(std::iter::once(data.len()))
            .map(move |to| {
                let piece = &data[from..to];
                from = to;
                piece
            })
    };
    let mut derived = T::stream();
    let mut early = false;
    for piece in pieces() {
        early |= derived.feed_bytes(piece).is_err();
    }
    let whole = T::parse(data);
    assert!(
        !(early && whole.is_ok()),
        "an accepted call was rejected early"
    );
    assert_eq!(
        derived.finish(),
        whole,
        "the stream's verdict differs from parse"
    );
    let mut loaded = spec.stream();
    let mut early = false;
    for piece in pieces() {
        early |= loaded.feed_bytes(piece).is_err();
    }
    let whole = spec.parse(data);
    assert!(
        !(early && whole.is_ok()),
        "an accepted call was rejected early by the spec"
    );
    assert_eq!(
        loaded.finish(),
        whole,
        "the spec stream's verdict differs from parse"
    );
}
