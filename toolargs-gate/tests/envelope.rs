//! No `tools/call` reaches the server unjudged, whatever its envelope.
//!
//! Client lines are generated as text, so that what a parsed value cannot hold is expressed
//! too: a member written twice (at the envelope, in `params`, in `arguments`, in `_meta`; under
//! the same key or an escaped spelling of it), a lone surrogate in a key or a value, an id or
//! params of any type, no id at all. For every line, whatever the gate sends the server is
//! read completely and one way only (no key twice, no lone surrogate), and a `tools/call`
//! among it is one the gate judged clean or repaired, and judges clean when it comes again.
//! A call without an id (or with a null one) never reaches the server; what the gate answers
//! the client is one line of JSON.
//!
//! The plain tests below pin what the gate answers for each of the named envelopes.

use std::fmt;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::FileFailurePersistence;
use serde_json::{json, Value};
use toolargs_core::json::skim;
use toolargs_gate::{CallVerdict, Gate, Outcome, Route};

/// The client's listing; the server's answer to it is [`tools`].
const LIST: &str = r#"{"jsonrpc":"2.0","id":0,"method":"tools/list"}"#;

/// The definition of `refund`: destructive (no annotations), so unknown keys are rejected.
const REFUND: &str = r#"{"name":"refund","inputSchema":{"type":"object","properties":{
"order_id":{"type":"string","pattern":"^ord_[0-9]{4}$"},
"amount_cents":{"type":"integer","minimum":1,"maximum":50000}},
"required":["order_id","amount_cents"]}}"#;

/// The definition of `search`: read-only, so unknown keys are stripped.
const SEARCH: &str = r#"{"name":"search","annotations":{"readOnlyHint":true},"inputSchema":{
"type":"object","properties":{"q":{"type":"string","maxLength":20},"limit":{"type":"integer"}}}}"#;

/// The server's answer to the listing `id` (JSON text), naming `definitions`.
fn tools(id: &str, definitions: &[&str]) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{}]}}}}"#,
        definitions.join(",")
    )
    .replace('\n', "")
}

/// A gate that learned `definitions` from a listing the client asked for.
fn learned_from(definitions: &[&str]) -> Gate {
    let mut gate = Gate::new();
    gate.from_client(LIST);
    gate.from_server(&tools("0", definitions));
    gate
}

/// A gate that learned `refund` and `search`.
fn learned() -> Gate {
    learned_from(&[REFUND, SEARCH])
}

// ---------------------------------------------------------------------------------------
// Lines as text.

/// A JSON value as the generator writes it: an object's members are a list (a key may
/// repeat), and keys and scalars are kept as written, escapes and lone surrogates included.
#[derive(Clone, Debug)]
enum Text {
    /// A value as written.
    Raw(String),
    /// Members in order; each key is the inside of its quotes, as written.
    Object(Vec<(String, Text)>),
    /// Items in order.
    Array(Vec<Text>),
}

fn raw(text: &str) -> Text {
    Text::Raw(text.to_owned())
}

fn object(members: &[(&str, Text)]) -> Text {
    Text::Object(
        members
            .iter()
            .map(|(key, value)| ((*key).to_owned(), value.clone()))
            .collect(),
    )
}

impl Text {
    fn write(&self, out: &mut String) {
        match self {
            Text::Raw(text) => out.push_str(text),
            Text::Object(members) => {
                out.push('{');
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('"');
                    out.push_str(key);
                    out.push_str("\":");
                    value.write(out);
                }
                out.push('}');
            }
            Text::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
        }
    }

    /// The members of an object, `None` for any other value.
    fn members_mut(&mut self) -> Option<&mut Vec<(String, Text)>> {
        match self {
            Text::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The first member whose key decodes to `name`.
    fn member_mut(&mut self, name: &str) -> Option<&mut Text> {
        self.members_mut()?
            .iter_mut()
            .find(|(key, _)| decoded(key).as_deref() == Some(name))
            .map(|(_, value)| value)
    }

    /// Every value under a key that decodes to `name`, in order.
    fn members_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Text> + 'a {
        let members = match self {
            Text::Object(members) => members.as_slice(),
            _ => &[],
        };
        members
            .iter()
            .filter(move |(key, _)| decoded(key).as_deref() == Some(name))
            .map(|(_, value)| value)
    }
}

/// A key (the inside of its quotes) decoded, `None` when it does not decode (a lone
/// surrogate).
fn decoded(key: &str) -> Option<String> {
    serde_json::from_str(&format!("\"{key}\"")).ok()
}

/// `key` with its first character written as a `\u` escape (`method` as `\u006dethod`).
fn escaped(key: &str) -> String {
    match key.chars().next() {
        Some(first) if first.is_ascii_alphanumeric() || first == '_' => {
            format!("\\u{:04x}{}", u32::from(first), &key[1..])
        }
        _ => key.to_owned(),
    }
}

/// Where a mutation applies: the envelope, or the first `params`, its `arguments` or its
/// `_meta` (none when that is not an object).
#[derive(Clone, Copy, Debug)]
enum Level {
    Envelope,
    Params,
    Arguments,
    Meta,
}

/// A change to the text of a line, beyond what a parsed value could say.
#[derive(Clone, Debug)]
enum Mutation {
    /// A member written again, before or after it: under its own key or an escaped
    /// spelling of it, with its own value or `value`.
    Repeat {
        level: Level,
        member: Index,
        value: Option<&'static str>,
        escape_key: bool,
        before: bool,
    },
    /// A member with a lone surrogate as its key or its value.
    Surrogate {
        level: Level,
        at: Index,
        in_key: bool,
    },
    /// Two members swapped.
    Swap { level: Level, a: Index, b: Index },
}

/// The values a repeated member may take instead of its own.
const OTHER_VALUES: &[&str] = &[
    r#""tools/call""#,
    r#""ping""#,
    r#""search""#,
    "1",
    "null",
    "{}",
    "999999",
    r#"{"order_id":"ord_1234","amount_cents":999999}"#,
];

fn at_level(envelope: &mut Text, level: Level) -> Option<&mut Vec<(String, Text)>> {
    match level {
        Level::Envelope => envelope.members_mut(),
        Level::Params => envelope.member_mut("params")?.members_mut(),
        Level::Arguments => envelope
            .member_mut("params")?
            .member_mut("arguments")?
            .members_mut(),
        Level::Meta => envelope
            .member_mut("params")?
            .member_mut("_meta")?
            .members_mut(),
    }
}

impl Mutation {
    fn apply(&self, envelope: &mut Text) {
        match self {
            Mutation::Repeat {
                level,
                member,
                value,
                escape_key,
                before,
            } => {
                let Some(members) = at_level(envelope, *level).filter(|m| !m.is_empty()) else {
                    return;
                };
                let i = member.index(members.len());
                let (key, own) = members[i].clone();
                let key = if *escape_key { escaped(&key) } else { key };
                let value = value.map_or(own, raw);
                members.insert(if *before { i } else { i + 1 }, (key, value));
            }
            Mutation::Surrogate { level, at, in_key } => {
                let Some(members) = at_level(envelope, *level) else {
                    return;
                };
                let member = if *in_key {
                    (r"\ud800".to_owned(), raw("1"))
                } else {
                    ("s".to_owned(), raw(r#""\udc00""#))
                };
                members.insert(at.index(members.len() + 1), member);
            }
            Mutation::Swap { level, a, b } => {
                let Some(members) = at_level(envelope, *level).filter(|m| !m.is_empty()) else {
                    return;
                };
                let (a, b) = (a.index(members.len()), b.index(members.len()));
                members.swap(a, b);
            }
        }
    }
}

/// The arguments of a generated call, written for the tool it names (`refund` when it
/// names another).
#[derive(Clone, Copy, Debug)]
enum Arguments {
    Clean,
    /// A number sent as a string.
    Repairable,
    OutOfRange,
    UnknownKey,
    NotAnObject,
    Null,
    /// A key written twice, with another value.
    KeyTwice,
    Absent,
}

impl Arguments {
    fn text(self, search: bool) -> Option<Text> {
        let s = |text: &str| raw(&format!("\"{text}\""));
        let order = ("order_id", s("ord_1234"));
        Some(match (self, search) {
            (Arguments::Absent, _) => return None,
            (Arguments::NotAnObject, _) => s("x"),
            (Arguments::Null, _) => raw("null"),
            (Arguments::Clean, false) => object(&[order, ("amount_cents", raw("1999"))]),
            (Arguments::Repairable, false) => object(&[order, ("amount_cents", s("1999"))]),
            (Arguments::OutOfRange, false) => object(&[order, ("amount_cents", raw("999999"))]),
            (Arguments::UnknownKey, false) => {
                object(&[order, ("amount_cents", raw("1999")), ("note", s("x"))])
            }
            (Arguments::KeyTwice, false) => object(&[
                order,
                ("amount_cents", raw("1999")),
                ("amount_cents", raw("999999")),
            ]),
            (Arguments::Clean, true) => object(&[("q", s("x"))]),
            (Arguments::Repairable, true) => object(&[("q", s("x")), ("limit", s("5"))]),
            (Arguments::OutOfRange, true) => object(&[("q", s(&"x".repeat(40)))]),
            (Arguments::UnknownKey, true) => object(&[("q", s("x")), ("extra", raw("1"))]),
            (Arguments::KeyTwice, true) => object(&[("q", s("x")), ("q", s("rm -rf"))]),
        })
    }
}

/// What a generated line's `params` are.
#[derive(Clone, Debug)]
enum Params {
    Absent,
    /// Any value but an object, as written.
    Other(&'static str),
    /// `[name, arguments]`.
    Positional,
    /// An object: its name (as written, or none), arguments, an extra member, a `_meta`.
    Object {
        name: Option<&'static str>,
        arguments: Arguments,
        extra: bool,
        meta: bool,
    },
}

/// One generated line, and whether any reading of it is a `tools/call` without an id.
#[derive(Clone)]
struct Line {
    text: String,
    call_without_id: bool,
}

impl fmt::Debug for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn build(
    id: Option<&str>,
    method: Option<&str>,
    params: &Params,
    extra: bool,
    mutations: &[Mutation],
) -> Line {
    let mut members = vec![("jsonrpc".to_owned(), raw(r#""2.0""#))];
    if let Some(id) = id {
        members.push(("id".to_owned(), raw(id)));
    }
    if let Some(method) = method {
        members.push(("method".to_owned(), raw(method)));
    }
    let params = match params {
        Params::Absent => None,
        Params::Other(text) => Some(raw(text)),
        Params::Positional => Some(Text::Array(vec![
            raw(r#""refund""#),
            Arguments::Clean.text(false).unwrap(),
        ])),
        Params::Object {
            name,
            arguments,
            extra,
            meta,
        } => {
            let mut params = Vec::new();
            if let Some(name) = name {
                params.push(("name".to_owned(), raw(name)));
            }
            if let Some(arguments) = arguments.text(*name == Some(r#""search""#)) {
                params.push(("arguments".to_owned(), arguments));
            }
            if *extra {
                params.push(("task".to_owned(), raw(r#"{"ttl":60}"#)));
            }
            if *meta {
                params.push((
                    "_meta".to_owned(),
                    object(&[("progressToken", raw(r#""p1""#))]),
                ));
            }
            Some(Text::Object(params))
        }
    };
    if let Some(params) = params {
        members.push(("params".to_owned(), params));
    }
    if extra {
        members.push(("x-trace".to_owned(), raw(r#""t1""#)));
    }
    let mut envelope = Text::Object(members);
    for mutation in mutations {
        mutation.apply(&mut envelope);
    }
    // A call in any reading: some `method` member says `tools/call`; without an id in any
    // reading: no `id` member, or one that is null.
    let is_call = envelope.members_named("method").any(|method| {
        matches!(method, Text::Raw(method)
            if serde_json::from_str::<String>(method).is_ok_and(|m| m == "tools/call"))
    });
    let mut ids = envelope.members_named("id").peekable();
    let without_id =
        ids.peek().is_none() || ids.any(|id| matches!(id, Text::Raw(id) if id == "null"));
    let mut text = String::new();
    envelope.write(&mut text);
    Line {
        text,
        call_without_id: is_call && without_id,
    }
}

fn level() -> impl Strategy<Value = Level> {
    prop_oneof![
        Just(Level::Envelope),
        Just(Level::Params),
        Just(Level::Arguments),
        Just(Level::Meta),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (
            level(),
            any::<Index>(),
            prop::option::of(prop::sample::select(OTHER_VALUES)),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(level, member, value, escape_key, before)| Mutation::Repeat {
                level,
                member,
                value,
                escape_key,
                before,
            }),
        1 => (level(), any::<Index>(), any::<bool>())
            .prop_map(|(level, at, in_key)| Mutation::Surrogate { level, at, in_key }),
        2 => (level(), any::<Index>(), any::<Index>())
            .prop_map(|(level, a, b)| Mutation::Swap { level, a, b }),
    ]
}

fn arguments() -> impl Strategy<Value = Arguments> {
    weighted(&[
        (3, Arguments::Clean),
        (3, Arguments::Repairable),
        (2, Arguments::UnknownKey),
        (1, Arguments::OutOfRange),
        (1, Arguments::NotAnObject),
        (1, Arguments::Null),
        (1, Arguments::KeyTwice),
        (1, Arguments::Absent),
    ])
}

/// One of `choices`, each as often as its weight says.
fn weighted<T: Clone + fmt::Debug + 'static>(choices: &[(usize, T)]) -> impl Strategy<Value = T> {
    let all: Vec<T> = choices
        .iter()
        .flat_map(|(weight, choice)| std::iter::repeat_n(choice.clone(), *weight))
        .collect();
    prop::sample::select(all)
}

fn params() -> impl Strategy<Value = Params> {
    let name = weighted(&[
        (3, Some(r#""refund""#)),
        (2, Some(r#""search""#)),
        (1, Some(r#""\u0072efund""#)),
        (1, Some(r#""nope""#)),
        (1, Some("5")),
        (1, None),
    ]);
    prop_oneof![
        1 => Just(Params::Absent),
        1 => prop::sample::select(vec!["null", "[]", r#""x""#]).prop_map(Params::Other),
        1 => Just(Params::Positional),
        12 => (name, arguments(), any::<bool>(), any::<bool>()).prop_map(
            |(name, arguments, extra, meta)| Params::Object { name, arguments, extra, meta }
        ),
    ]
}

fn line() -> impl Strategy<Value = Line> {
    let id = weighted(&[
        (5, Some("1")),
        (3, Some(r#""a""#)),
        (2, None),
        (2, Some("null")),
        (1, Some("true")),
        (1, Some("{}")),
        (1, Some("[]")),
        (1, Some("1.5")),
        (1, Some(r#""\ud800""#)),
    ]);
    let method = weighted(&[
        (6, Some(r#""tools/call""#)),
        (2, Some(r#""\u0074ools/call""#)),
        (1, Some(r#""tools/list""#)),
        (1, Some(r#""ping""#)),
        (1, Some(r#""Tools/Call""#)),
        (1, None),
        (1, Some("7")),
    ]);
    // Half the lines as generated, half changed once to three times.
    let mutations = prop_oneof![Just(Vec::new()), prop::collection::vec(mutation(), 1..4)];
    (id, method, params(), any::<bool>(), mutations).prop_map(
        |(id, method, params, extra, mutations)| build(id, method, &params, extra, &mutations),
    )
}

// ---------------------------------------------------------------------------------------
// The property.

/// `line` is one line of JSON.
fn one_json_line(line: &str) -> Result<Value, TestCaseError> {
    prop_assert!(!line.contains('\n'), "a newline in {line}");
    serde_json::from_str(line).map_err(|e| TestCaseError::fail(format!("not JSON ({e}): {line}")))
}

/// The id of `line` when it is one of the gate's own `tools/list` requests.
fn own_listing(line: &str) -> Option<String> {
    let request: Value = serde_json::from_str(line).ok()?;
    let id = request["id"].as_str()?;
    (request["method"] == "tools/list" && id.starts_with("toolargs-gate-list-"))
        .then(|| Value::from(id).to_string())
}

/// A line on its way to the server is read completely and one way only; a `tools/call`
/// among them was judged clean or repaired (`verdict`), and is judged clean, and sent on
/// unchanged, when it comes again.
fn check_forwarded(
    gate: &mut Gate,
    line: &str,
    forwarded: &str,
    verdict: Option<&CallVerdict>,
) -> Result<(), TestCaseError> {
    let read = skim::skip_strict(forwarded, 0, 128);
    prop_assert!(
        read.is_some_and(|span| forwarded[span.end..].trim().is_empty()),
        "forwarded, not read one way only: {forwarded}\n from: {line}"
    );
    let Ok(sent) = serde_json::from_str::<Value>(forwarded) else {
        return Ok(());
    };
    if sent["method"] != "tools/call" {
        return Ok(());
    }
    let outcome = verdict.map(|v| v.outcome.clone());
    prop_assert!(
        matches!(outcome, Some(Outcome::Clean | Outcome::Repaired)),
        "a call forwarded with the verdict {outcome:?}: {forwarded}\n from: {line}"
    );
    let again = gate.from_client(forwarded);
    prop_assert_eq!(
        again.verdict.map(|v| v.outcome),
        Some(Outcome::Clean),
        "a forwarded call not clean when sent again: {}",
        forwarded
    );
    prop_assert_eq!(again.routes, vec![Route::ToServer(forwarded.to_owned())]);
    Ok(())
}

fn check(line: &Line) -> Result<(), TestCaseError> {
    let mut gate = learned();
    let handled = gate.from_client(&line.text);
    if line.call_without_id {
        prop_assert!(
            !handled
                .routes
                .iter()
                .any(|r| matches!(r, Route::ToServer(_))),
            "a call without an id reached the server: {:?}",
            handled.routes
        );
    }
    for route in &handled.routes {
        match route {
            Route::ToClient(answer) => {
                one_json_line(answer)?;
            }
            Route::ToServer(forwarded) => {
                if let Some(id) = own_listing(forwarded) {
                    // The call waits for the gate's own listing: answered, it comes out judged.
                    let routes = gate.from_server(&tools(&id, &[REFUND, SEARCH]));
                    let released = gate.take_released();
                    let verdict = released.first().map(|r| &r.verdict);
                    for route in routes {
                        match route {
                            Route::ToClient(answer) => {
                                one_json_line(&answer)?;
                            }
                            Route::ToServer(forwarded) => {
                                check_forwarded(&mut gate, &line.text, &forwarded, verdict)?;
                            }
                        }
                    }
                    continue;
                }
                check_forwarded(&mut gate, &line.text, forwarded, handled.verdict.as_ref())?;
            }
        }
    }
    Ok(())
}

/// How many lines the property tries: `PROPTEST_CASES`, or 2 000.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(2_000)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/envelope.txt",
        ))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn no_call_reaches_the_server_unjudged(line in line()) {
        check(&line)?;
    }
}

// ---------------------------------------------------------------------------------------
// The named envelopes.

const CLEAN: &str = r#"{"order_id":"ord_1234","amount_cents":1999}"#;

/// A call of `refund` with id `id` (as written) and `arguments`.
fn call(id: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"refund","arguments":{arguments}}}}}"#
    )
}

/// The gate's one answer, a JSON-RPC error: its id and code.
fn error(routes: &[Route]) -> (Value, i64) {
    let [Route::ToClient(answer)] = routes else {
        panic!("not one answer to the client: {routes:?}");
    };
    let answer: Value = serde_json::from_str(answer).unwrap();
    let code = answer["error"]["code"].as_i64();
    (
        answer["id"].clone(),
        code.unwrap_or_else(|| panic!("not an error: {answer}")),
    )
}

/// A verdict's outcome and codes, by name.
fn named(verdict: Option<CallVerdict>) -> (String, Vec<String>) {
    let verdict = verdict.expect("no verdict");
    (verdict.outcome.as_str().to_owned(), verdict.codes)
}

fn refused(code: &str) -> (String, Vec<String>) {
    ("refused".to_owned(), vec![code.to_owned()])
}

#[test]
fn a_call_with_a_null_or_unusable_id_is_an_invalid_request() {
    for id in ["null", "true", "{}", "[]", r#""\ud800""#] {
        let handled = learned().from_client(&call(id, CLEAN));
        assert_eq!(error(&handled.routes), (Value::Null, -32600), "id {id}");
    }
}

#[test]
fn a_call_sent_as_a_notification_goes_nowhere() {
    let line = format!(
        r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"refund","arguments":{CLEAN}}}}}"#
    );
    let handled = learned().from_client(&line);
    assert_eq!(handled.routes, []);
    assert_eq!(named(handled.verdict), refused("invalid_request"));
}

#[test]
fn params_that_name_no_tool_are_invalid_params() {
    for params in [
        format!(r#""params":["refund",{CLEAN}]"#),
        r#""params":"x""#.to_owned(),
        r#""params":null"#.to_owned(),
        format!(r#""params":{{"name":5,"arguments":{CLEAN}}}"#),
        format!(r#""params":{{"arguments":{CLEAN}}}"#),
    ] {
        let line = format!(r#"{{"jsonrpc":"2.0","id":5,"method":"tools/call",{params}}}"#);
        let handled = learned().from_client(&line);
        assert_eq!(error(&handled.routes), (json!(5), -32602), "{line}");
        assert_eq!(named(handled.verdict), refused("invalid_params"), "{line}");
    }
}

#[test]
fn a_lone_surrogate_outside_the_arguments_is_invalid_unicode() {
    for line in [
        format!(
            r#"{{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{{"name":"refund","\ud800":1,"arguments":{CLEAN}}}}}"#
        ),
        format!(
            r#"{{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{{"name":"refund","arguments":{CLEAN},"_meta":{{"t":"\udc00"}}}}}}"#
        ),
    ] {
        let handled = learned().from_client(&line);
        assert_eq!(error(&handled.routes), (json!(6), -32600), "{line}");
        assert_eq!(named(handled.verdict), refused("invalid_unicode"), "{line}");
    }
}

#[test]
fn a_lone_surrogate_inside_the_arguments_is_rejected() {
    let line = call(
        "6",
        r#"{"order_id":"ord_1234","amount_cents":1999,"\ud800":1}"#,
    );
    let handled = learned().from_client(&line);
    assert_rejected(&handled.routes, json!(6));
    assert_eq!(handled.verdict.unwrap().outcome, Outcome::Rejected);
}

/// The gate's one answer is a tool result with `isError`, to `id`.
fn assert_rejected(routes: &[Route], id: Value) {
    let [Route::ToClient(answer)] = routes else {
        panic!("not one answer to the client: {routes:?}");
    };
    let answer: Value = serde_json::from_str(answer).unwrap();
    assert_eq!(answer["id"], id, "{answer}");
    assert_eq!(answer["result"]["isError"], true, "{answer}");
}

#[test]
fn a_method_sent_twice_is_a_duplicate_key() {
    let params = format!(r#""params":{{"name":"refund","arguments":{CLEAN}}}"#);
    for methods in [
        r#""method":"ping","method":"tools/call""#,
        r#""method":"tools/call","method":"ping""#,
        r#""method":"tools/call","\u006dethod":"tools/list""#,
    ] {
        let line = format!(r#"{{"jsonrpc":"2.0","id":3,{methods},{params}}}"#);
        let handled = learned().from_client(&line);
        assert_eq!(error(&handled.routes), (json!(3), -32600), "{line}");
        assert_eq!(named(handled.verdict), refused("duplicate_key"), "{line}");
    }
}

#[test]
fn arguments_sent_twice_are_a_duplicate_key() {
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"refund","arguments":{CLEAN},"arguments":{{"order_id":"ord_1234","amount_cents":999999}}}}}}"#
    );
    let handled = learned().from_client(&line);
    assert_eq!(error(&handled.routes), (json!(4), -32600));
    assert_eq!(named(handled.verdict), refused("duplicate_key"));
}

#[test]
fn a_key_sent_twice_inside_the_arguments_is_rejected() {
    let line = call(
        "4",
        r#"{"order_id":"ord_1234","amount_cents":1999,"amount_cents":999999}"#,
    );
    let handled = learned().from_client(&line);
    assert_rejected(&handled.routes, json!(4));
    let verdict = handled.verdict.unwrap();
    assert_eq!(verdict.outcome, Outcome::Rejected);
    assert!(
        verdict.codes.iter().any(|c| c == "duplicate_key"),
        "{verdict:?}"
    );
}

#[test]
fn an_id_sent_twice_is_answered_with_a_null_id() {
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{{"name":"refund","arguments":{CLEAN}}}}}"#
    );
    let handled = learned().from_client(&line);
    assert_eq!(error(&handled.routes), (Value::Null, -32600));
    assert_eq!(named(handled.verdict), refused("duplicate_key"));
}

#[test]
fn a_tool_listed_twice_refuses_its_calls() {
    let open = REFUND.replace(r#""required""#, r#""additionalProperties":true,"required""#);
    let strict = REFUND.replace(
        r#""required""#,
        r#""additionalProperties":false,"required""#,
    );
    for definitions in [[&strict, &open], [&open, &strict]] {
        let mut gate = learned_from(&[definitions[0], definitions[1], SEARCH]);
        let handled = gate.from_client(&call(
            "9",
            r#"{"order_id":"ord_1234","amount_cents":1999,"note":"x"}"#,
        ));
        assert!(
            !handled
                .routes
                .iter()
                .any(|r| matches!(r, Route::ToServer(_))),
            "forwarded: {:?}",
            handled.routes
        );
        let [Route::ToClient(answer)] = &handled.routes[..] else {
            panic!("not one answer to the client: {:?}", handled.routes);
        };
        assert_eq!(serde_json::from_str::<Value>(answer).unwrap()["id"], 9);
        assert_eq!(named(handled.verdict), refused("duplicate_tool"));
    }
}
