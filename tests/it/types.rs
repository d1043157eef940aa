//! Field types beyond the ones the derive knows by name: each is read through `ArgType`, parses
//! clean, repaired and rejected calls with stable codes and paths, writes a canonical form that
//! reads back with zero repairs, and states a schema that accepts what the parser accepts
//! cleanly.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use jsonschema::Validator;
use serde_json::{json, Value};
use toolargs::ext::{ArgType, Capabilities, Cx, FieldSpec, Node, Path};
use toolargs::{Code, Dialect, ToolArgs};

fn validator<T: ToolArgs>() -> Validator {
    crate::common::validator(&T::json_schema())
}

/// `payload` parses with no repair, the schema accepts it, and the canonical form reads back
/// to an equal value with no repair.
fn clean<T: ToolArgs + PartialEq + std::fmt::Debug>(payload: Value) -> T {
    let parsed = T::parse(payload.to_string()).expect("parses");
    assert!(parsed.is_clean(), "{payload}: {:?}", parsed.repairs);
    assert!(validator::<T>().is_valid(&payload), "{payload}");
    round_trip(&parsed.args);
    parsed.args
}

fn round_trip<T: ToolArgs + PartialEq + std::fmt::Debug>(value: &T) {
    let json = value.to_json();
    let again = T::parse(json.to_string()).expect("the canonical form parses");
    assert!(again.is_clean(), "{json}: {:?}", again.repairs);
    assert_eq!(&again.args, value);
    assert!(validator::<T>().is_valid(&json), "{json}");
}

/// `payload` is rejected with `code` at `path`, and the schema rejects it too unless
/// `schema_can_say` is false.
fn rejected<T: ToolArgs + std::fmt::Debug>(
    payload: Value,
    code: Code,
    path: &str,
    schema_can_say: bool,
) {
    let rejection = T::parse(payload.to_string()).expect_err("rejected");
    assert!(
        rejection
            .errors()
            .iter()
            .any(|e| e.code == code && e.path == path),
        "{payload}: {:?}",
        rejection.errors()
    );
    if schema_can_say {
        assert!(!validator::<T>().is_valid(&payload), "{payload}");
    }
}

// Part one: types read through the trait, not by name.

type OrderId = String;

/// A ticket number: a positive integer, on top of the integer coercer.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Ticket(u32);

impl ArgType for Ticket {
    const HONOURS: Capabilities = Capabilities::NONE.with_bounds(true);

    fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        let n = u32::coerce(node, spec, path, cx)?;
        if n == 0 {
            cx.error(path, Code::OutOfRange, "expected a ticket number, got 0");
            return None;
        }
        Some(Ticket(n))
    }

    fn canonical(&self) -> Value {
        self.0.canonical()
    }

    fn schema(spec: &FieldSpec<'_>) -> Value {
        let mut schema = u32::schema(spec);
        if spec.min.is_none() {
            schema["minimum"] = json!(1);
        }
        schema
    }
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(effect = "read_only", unknown = "reject")]
struct LookUp {
    #[arg(pattern = "ord_[0-9]{4}", max_len = 8)]
    order: OrderId,
    #[arg(max = 9999)]
    ticket: Ticket,
    #[arg(min_items = 1, max = 500)]
    related: Vec<Ticket>,
    note: Option<OrderId>,
}

#[test]
fn an_alias_is_read_as_the_type_it_names() {
    let args: LookUp = clean(json!({"order": "ord_1234", "ticket": 7, "related": [1, 2]}));
    assert_eq!(args.order, "ord_1234");
    let schema = LookUp::json_schema();
    assert_eq!(schema["properties"]["order"]["type"], "string");
    assert_eq!(schema["properties"]["order"]["maxLength"], 8);
    assert!(schema["properties"]["order"]["pattern"].is_string());
    rejected::<LookUp>(
        json!({"order": "ord_12", "ticket": 7, "related": [1]}),
        Code::Pattern,
        "$.order",
        true,
    );
    rejected::<LookUp>(
        json!({"order": 1234, "ticket": 7, "related": [1]}),
        Code::Type,
        "$.order",
        true,
    );
}

#[test]
fn a_hand_written_newtype_keeps_the_inner_policy_and_adds_its_own() {
    let parsed = LookUp::parse(r#"{"order": "ord_1234", "ticket": "42", "related": [3]}"#)
        .expect("repaired");
    assert_eq!(parsed.args.ticket, Ticket(42));
    // The numeric string is repaired by the integer coercer, as for a `u32`.
    assert_eq!(parsed.repairs.len(), 1, "{:?}", parsed.repairs);
    assert_eq!(parsed.repairs[0].path, "$.ticket");
    round_trip(&parsed.args);
    // A lone string is no list of tickets: they are not read from strings.
    rejected::<LookUp>(
        json!({"order": "ord_1234", "ticket": 1, "related": "3"}),
        Code::Type,
        "$.related",
        true,
    );
    rejected::<LookUp>(
        json!({"order": "ord_1234", "ticket": 0, "related": [1]}),
        Code::OutOfRange,
        "$.ticket",
        true,
    );
    rejected::<LookUp>(
        json!({"order": "ord_1234", "ticket": 10000, "related": [1]}),
        Code::OutOfRange,
        "$.ticket",
        true,
    );
    rejected::<LookUp>(
        json!({"order": "ord_1234", "ticket": 1, "related": [2, 501]}),
        Code::OutOfRange,
        "$.related[1]",
        true,
    );
    rejected::<LookUp>(
        json!({"order": "ord_1234", "ticket": 1, "related": []}),
        Code::Length,
        "$.related",
        true,
    );
}

#[test]
fn trait_constants_say_which_attributes_apply() {
    const {
        assert!(<OrderId as ArgType>::HONOURS.pattern && <OrderId as ArgType>::HONOURS.length);
        assert!(<Ticket as ArgType>::HONOURS.bounds && !<Ticket as ArgType>::HONOURS.pattern);
        assert!(
            <Vec<Ticket> as ArgType>::HONOURS.items && <Vec<Ticket> as ArgType>::HONOURS.bounds
        );
        assert!(<Option<String> as ArgType>::HONOURS.pattern);
        assert!(!<LookUp as ArgType>::HONOURS.pattern && !<LookUp as ArgType>::HONOURS.items);
    }
}

// Part two: tuple newtypes.

/// An order identifier.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct OrderRef(#[arg(pattern = "ord_[A-Za-z0-9]{8}")] String);

#[derive(ToolArgs, Debug, Clone, Copy, PartialEq)]
struct Quantity(#[arg(min = 1, max = 100)] u16);

#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct Labels(#[arg(min_items = 1, max_items = 3, max_len = 10)] Vec<String>);

#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(effect = "additive")]
struct Reorder {
    order: OrderRef,
    quantity: Quantity,
    labels: Option<Labels>,
    #[arg(max_items = 2)]
    also: Vec<OrderRef>,
}

#[test]
fn a_newtype_is_its_inner_type_under_its_constraints() {
    let args: Reorder = clean(json!({
        "order": "ord_abcd1234", "quantity": 3, "labels": ["gift"], "also": ["ord_00000000"]
    }));
    assert_eq!(args.order, OrderRef("ord_abcd1234".to_owned()));
    assert_eq!(args.labels, Some(Labels(vec!["gift".to_owned()])));
    let schema = Reorder::json_schema();
    assert_eq!(
        schema["properties"]["order"],
        json!({"type": "string", "pattern": "^(?:ord_[A-Za-z0-9]{8})$", "description": "An order identifier."})
    );
    assert_eq!(schema["properties"]["quantity"]["minimum"], 1);
    assert_eq!(schema["properties"]["quantity"]["maximum"], 100);
    assert_eq!(schema["properties"]["labels"]["maxItems"], 3);
    assert_eq!(schema["properties"]["labels"]["items"]["maxLength"], 10);
    assert_eq!(schema["properties"]["also"]["maxItems"], 2);
    const { assert!(!<OrderRef as ToolArgs>::OBJECT) };
}

#[test]
fn a_newtype_repairs_and_rejects_as_its_inner_type() {
    let parsed = Reorder::parse(
        r#"{"order": "ord_abcd1234", "quantity": "3", "labels": "gift", "also": []}"#,
    )
    .expect("repaired");
    assert_eq!(parsed.repairs.len(), 2, "{:?}", parsed.repairs);
    assert_eq!(parsed.args.quantity, Quantity(3));
    round_trip(&parsed.args);
    let base = json!({"order": "ord_abcd1234", "quantity": 3, "also": []});
    let with = |key: &str, value: Value| {
        let mut payload = base.clone();
        payload[key] = value;
        payload
    };
    rejected::<Reorder>(
        with("order", json!("ord_1")),
        Code::Pattern,
        "$.order",
        true,
    );
    rejected::<Reorder>(
        with("quantity", json!(0)),
        Code::OutOfRange,
        "$.quantity",
        true,
    );
    rejected::<Reorder>(with("labels", json!([])), Code::Length, "$.labels", true);
    rejected::<Reorder>(
        with("labels", json!(["a much too long label"])),
        Code::Length,
        "$.labels[0]",
        true,
    );
    rejected::<Reorder>(
        with("also", json!(["ord_x"])),
        Code::Pattern,
        "$.also[0]",
        true,
    );
    // A newtype is a tool argument of its own, read from a bare value.
    let alone = OrderRef::parse(r#""ord_abcd1234""#).expect("parses");
    assert!(alone.is_clean());
}

// Part three: maps.

#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct Site {
    city: String,
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(effect = "read_only", unknown = "strip")]
struct Tag {
    #[arg(key_pattern = "[a-z_]+", max_items = 3, max_len = 20)]
    labels: BTreeMap<String, String>,
    #[arg(default, max = 100)]
    counts: HashMap<String, u32>,
    sites: Option<BTreeMap<String, Site>>,
}

#[test]
fn a_map_reads_every_key_it_is_sent() {
    let args: Tag = clean(json!({
        "labels": {"env": "prod", "team": "core"},
        "counts": {"b": 2, "a": 1},
        "sites": {"main": {"city": "Lyon"}}
    }));
    assert_eq!(args.labels.len(), 2);
    assert_eq!(args.counts["b"], 2);
    // The unknown-key policy (strip, here) does not apply to a map's own keys.
    let parsed = Tag::parse(r#"{"labels": {"anything_at_all": "x"}}"#).expect("parses");
    assert!(parsed.is_clean(), "{:?}", parsed.repairs);
    // It does apply inside a struct held by the map.
    let parsed = Tag::parse(r#"{"labels": {}, "sites": {"a": {"city": "Lyon", "zip": 1}}}"#)
        .expect("parses");
    assert_eq!(parsed.repairs.len(), 1);
    assert_eq!(parsed.repairs[0].path, "$.sites.a.zip");
}

#[test]
fn a_hash_map_writes_its_keys_sorted() {
    let args: Tag = clean(json!({"labels": {}, "counts": {"zeta": 1, "alpha": 2, "mid": 3}}));
    let json = args.to_json();
    let keys: Vec<&String> = json["counts"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["alpha", "mid", "zeta"]);
    assert_eq!(json.to_string(), args.to_json().to_string());
}

#[test]
fn map_values_are_repaired_and_rejected_at_their_key() {
    let parsed = Tag::parse(r#"{"labels": {}, "counts": {"a": "3"}}"#).expect("repaired");
    assert_eq!(parsed.repairs.len(), 1);
    assert_eq!(parsed.repairs[0].path, "$.counts.a");
    round_trip(&parsed.args);
    let labels = |value: Value| json!({ "labels": value });
    rejected::<Tag>(
        labels(json!({"Env": "x"})),
        Code::Pattern,
        "$.labels.Env",
        true,
    );
    rejected::<Tag>(
        labels(json!({"a": "x", "b": "x", "c": "x", "d": "x"})),
        Code::Length,
        "$.labels",
        true,
    );
    rejected::<Tag>(
        labels(json!({"a": "a label far too long to pass"})),
        Code::Length,
        "$.labels.a",
        true,
    );
    rejected::<Tag>(labels(json!({"a": 1})), Code::Type, "$.labels.a", true);
    rejected::<Tag>(labels(json!(["a"])), Code::Type, "$.labels", true);
    rejected::<Tag>(
        json!({"labels": {}, "counts": {"a": 101}}),
        Code::OutOfRange,
        "$.counts.a",
        true,
    );
    let duplicate = Tag::parse(r#"{"labels": {"a": "x", "a": "y"}}"#).expect_err("rejected");
    assert!(duplicate.has_code(Code::DuplicateKey), "{duplicate:?}");
}

#[test]
fn a_map_schema_states_values_keys_and_counts() {
    let schema = Tag::json_schema();
    assert_eq!(
        schema["properties"]["labels"],
        json!({
            "type": "object",
            "additionalProperties": {"type": "string", "maxLength": 20},
            "propertyNames": {"pattern": "^(?:[a-z_]+)$"},
            "maxProperties": 3
        })
    );
    assert_eq!(
        schema["properties"]["counts"]["additionalProperties"]["maximum"],
        100
    );
}

#[test]
fn a_tool_with_a_map_is_sent_without_strict_mode() {
    for (strict, plain) in [
        (
            Dialect::OpenAiChat { strict: true },
            Dialect::OpenAiChat { strict: false },
        ),
        (
            Dialect::OpenAiResponses { strict: true },
            Dialect::OpenAiResponses { strict: false },
        ),
    ] {
        assert_eq!(Tag::tool_definition(strict), Tag::tool_definition(plain));
    }
    let chat = Tag::tool_definition(Dialect::OpenAiChat { strict: true });
    assert_eq!(chat["function"]["strict"], false);
    let labels = &chat["function"]["parameters"]["properties"]["labels"];
    assert_eq!(labels["additionalProperties"]["maxLength"], 20);
    assert_eq!(labels["propertyNames"]["pattern"], "^(?:[a-z_]+)$");
    // A tool without a map keeps strict mode.
    let strict = LookUp::tool_definition(Dialect::OpenAiChat { strict: true });
    assert_eq!(strict["function"]["strict"], true);
    // Anthropic and MCP take the map as written; so does Gemini, through its JSON Schema
    // field, since its OpenAPI subset has no open keys (and refuses an object without
    // properties).
    let anthropic = Tag::tool_definition(Dialect::Anthropic);
    assert_eq!(
        anthropic["input_schema"]["properties"]["labels"],
        Tag::json_schema()["properties"]["labels"]
    );
    let gemini = Tag::tool_definition(Dialect::Gemini);
    assert!(gemini.get("parameters").is_none(), "{gemini}");
    assert_eq!(
        gemini["parametersJsonSchema"]["properties"]["labels"],
        Tag::json_schema()["properties"]["labels"]
    );
    assert!(gemini["parametersJsonSchema"].get("$schema").is_none());
}

// Part four: sets.

#[derive(ToolArgs, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Channel {
    Email,
    Sms,
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(effect = "additive")]
struct Notify {
    #[arg(min_items = 1, max = 1000)]
    users: BTreeSet<u32>,
    #[arg(default)]
    channels: HashSet<Channel>,
    #[arg(default, pattern = "[a-z]+")]
    topics: BTreeSet<String>,
}

#[test]
fn a_set_reads_distinct_items() {
    let args: Notify = clean(json!({"users": [3, 1, 2], "channels": ["sms", "email"]}));
    assert_eq!(args.users, BTreeSet::from([1, 2, 3]));
    let json = args.to_json();
    assert_eq!(json["users"], json!([1, 2, 3]));
    // A hash set writes its items sorted, whatever the hasher.
    assert_eq!(json["channels"], json!(["email", "sms"]));
    let schema = Notify::json_schema();
    assert_eq!(schema["properties"]["users"]["uniqueItems"], true);
    assert_eq!(schema["properties"]["users"]["minItems"], 1);
    assert_eq!(schema["properties"]["users"]["items"]["maximum"], 1000);
}

#[test]
fn a_set_is_repaired_like_a_list() {
    let parsed = Notify::parse(r#"{"users": ["7"], "channels": "email", "topics": "billing"}"#)
        .expect("repaired");
    let rules: Vec<(&str, &str)> = parsed
        .repairs
        .iter()
        .map(|r| (r.path.as_str(), r.rule.as_str()))
        .collect();
    assert_eq!(
        rules,
        [
            ("$.users[0]", "numeric_string_to_int"),
            ("$.channels", "scalar_to_list"),
            ("$.topics", "scalar_to_list"),
        ]
    );
    round_trip(&parsed.args);
}

#[test]
fn a_repeated_item_is_rejected_at_its_second_occurrence() {
    rejected::<Notify>(
        json!({"users": [1, 2, 1]}),
        Code::DuplicateItem,
        "$.users[2]",
        true,
    );
    // Equal once read: "1" and 1 are the same integer. The schema cannot say this one
    // (it refuses the string for its type instead).
    rejected::<Notify>(
        json!({"users": [1, "1"]}),
        Code::DuplicateItem,
        "$.users[1]",
        false,
    );
    rejected::<Notify>(
        json!({"users": [1], "channels": ["sms", "Sms"]}),
        Code::DuplicateItem,
        "$.channels[1]",
        false,
    );
    rejected::<Notify>(
        json!({"users": [1], "topics": ["a", "b", "a", "a"]}),
        Code::DuplicateItem,
        "$.topics[3]",
        true,
    );
    let rejection = Notify::parse(r#"{"users": [1, 1, 1]}"#).expect_err("rejected");
    assert_eq!(rejection.errors().len(), 2, "every repeat is reported");
    rejected::<Notify>(json!({"users": []}), Code::Length, "$.users", true);
    rejected::<Notify>(
        json!({"users": [1001]}),
        Code::OutOfRange,
        "$.users[0]",
        true,
    );
    rejected::<Notify>(
        json!({"users": [1], "topics": "a,b"}),
        Code::AmbiguousList,
        "$.topics",
        true,
    );
}

#[test]
fn dialects_without_unique_items_say_it_in_words() {
    let strict = Notify::tool_definition(Dialect::OpenAiChat { strict: true });
    let users = &strict["function"]["parameters"]["properties"]["users"];
    assert!(users.get("uniqueItems").is_none(), "{users}");
    assert_eq!(users["description"], "Each item at most once.");
    let anthropic = Notify::tool_definition(Dialect::Anthropic);
    assert_eq!(
        anthropic["input_schema"]["properties"]["users"]["uniqueItems"],
        true
    );
}

// Part five: open values.

#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(effect = "external")]
struct Webhook {
    #[arg(pattern = "https://[a-z.]+/[a-z/]*")]
    url: String,
    /// Sent to the hook as given.
    #[arg(any)]
    body: Value,
    #[arg(any)]
    headers: Option<Value>,
    #[arg(any, default)]
    extra: Vec<Value>,
}

#[test]
fn an_open_value_passes_unchanged() {
    let body = json!({"a": [1, "2", null], "b": {"c": true}, "n": 1.0});
    let args: Webhook =
        clean(json!({"url": "https://h.example/x", "body": body, "extra": [null, 3]}));
    assert_eq!(args.body, body);
    assert_eq!(args.extra, [Value::Null, json!(3)]);
    assert_eq!(args.headers, None);
    let schema = Webhook::json_schema();
    assert_eq!(
        schema["properties"]["body"],
        json!({"description": "Sent to the hook as given."})
    );
    // Nothing inside is repaired or refused: no unknown-key policy, no coercion.
    let parsed =
        Webhook::parse(r#"{"url": "https://h.example/x", "body": "12", "headers": {"X": 1}}"#)
            .expect("parses");
    assert!(parsed.is_clean());
    assert_eq!(parsed.args.body, json!("12"));
    // Null is the absence of a field, as for every field: a required open value is missing.
    rejected::<Webhook>(
        json!({"url": "https://h.example/x", "body": null}),
        Code::Missing,
        "$.body",
        false,
    );
    rejected::<Webhook>(
        json!({"url": "https://h.example/x"}),
        Code::Missing,
        "$.body",
        true,
    );
}

#[test]
fn a_tool_with_an_open_value_is_sent_without_strict_mode() {
    let chat = Webhook::tool_definition(Dialect::OpenAiChat { strict: true });
    assert_eq!(
        chat,
        Webhook::tool_definition(Dialect::OpenAiChat { strict: false })
    );
    assert_eq!(chat["function"]["strict"], false);
    let mcp = Webhook::tool_definition(Dialect::Mcp);
    assert_eq!(
        mcp["inputSchema"]["properties"]["body"],
        json!({"description": "Sent to the hook as given."})
    );
}
