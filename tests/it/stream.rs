//! Streams: a call judged while it arrives, on both front doors.
//!
//! - `finish` equals `parse` on the whole text, for every way of cutting it (random cuts down
//!   to one byte, and byte cuts inside characters), over generated calls written clean,
//!   repairable, malformed and hostile;
//! - soundness: no piece of a call that `parse` accepts is ever rejected, and an early
//!   rejection is always a rejection at the end;
//! - the early rejections the policy makes certain, and where they come;
//! - the partial view: complete members, as the parser passes them on.

use proptest::prelude::*;
use serde_json::{json, Value};
use toolargs::stream::ArgStream;
use toolargs::{Code, Judge, Parsed, Rejection, Spec, ToolArgs};

use crate::common::IssueRefund;
use crate::properties::{call_strategy, json_value};

fn spec() -> Spec {
    Spec::from_tool_definition(&IssueRefund::tool_definition(toolargs::Dialect::Mcp)).unwrap()
}

/// Feeds `text` cut at `cuts` (byte offsets, any order; those inside a character are moved
/// to its start); returns the byte count at the first rejection and the verdict.
fn feed_str<C: Judge>(
    mut stream: ArgStream<C>,
    text: &str,
    cuts: &[usize],
) -> (Option<usize>, Result<Parsed<C::Output>, Rejection>) {
    let mut cuts: Vec<usize> = cuts
        .iter()
        .map(|&c| {
            let mut c = c.min(text.len());
            while !text.is_char_boundary(c) {
                c -= 1;
            }
            c
        })
        .collect();
    cuts.push(text.len());
    cuts.sort_unstable();
    let (mut from, mut rejected_at) = (0, None);
    for cut in cuts {
        let fed = stream.feed(&text[from..cut]);
        assert_eq!(stream.received(), cut, "every byte fed is counted");
        if fed.is_err() && rejected_at.is_none() {
            rejected_at = Some(cut);
        }
        if rejected_at.is_some() {
            assert!(fed.is_err(), "a rejection is final");
        }
        from = cut;
    }
    (rejected_at, stream.finish())
}

/// [`feed_str`] for bytes cut anywhere.
fn feed_bytes<C: Judge>(
    mut stream: ArgStream<C>,
    bytes: &[u8],
    cuts: &[usize],
) -> (Option<usize>, Result<Parsed<C::Output>, Rejection>) {
    let mut cuts: Vec<usize> = cuts.iter().map(|&c| c.min(bytes.len())).collect();
    cuts.push(bytes.len());
    cuts.sort_unstable();
    let (mut from, mut rejected_at) = (0, None);
    for cut in cuts {
        let fed = stream.feed_bytes(&bytes[from..cut]);
        assert_eq!(stream.received(), cut, "every byte fed is counted");
        if fed.is_err() && rejected_at.is_none() {
            rejected_at = Some(cut);
        }
        from = cut;
    }
    (rejected_at, stream.finish())
}

/// The texts a generated call is sent as: compact, spaced as Python writes it, and the ways
/// real traffic and hostile input break it.
fn renderings(call: &Value) -> Vec<String> {
    let compact = call.to_string();
    let spaced = serde_json::to_string_pretty(call).unwrap();
    let mut texts = vec![
        compact.clone(),
        spaced.clone(),
        format!("```json\n{compact}\n```"),
        Value::String(compact.clone()).to_string(),
        format!("  {compact}\n"),
        // A form feed is not JSON whitespace, after the object or inside it.
        format!("{compact}\u{c}"),
        compact.replacen('{', "{\u{c}", 1),
        format!("{compact} trailing"),
        compact[..compact.len() / 2].to_owned(),
        compact.replacen('{', r#"{"order_id": "ord_A1b2C3d4", "#, 1),
        compact.replacen(':', ": [[[[", 1),
        compact.replacen(',', ",,", 1),
        compact.replacen('}', ",}", 1),
        compact.replacen("true", "True", 1),
        compact.replacen('"', "'", 2),
        compact.replacen("\"", "\"caf\u{e9} \u{1F980}", 1),
    ];
    if let Some(last) = compact.rfind('}') {
        texts.push(format!("{}, \"ghost\": 1}}", &compact[..last]));
    }
    texts
}

/// Checks both properties on one text for one contract.
fn check<C: Judge>(
    make: impl Fn() -> ArgStream<C>,
    whole: Result<Parsed<C::Output>, Rejection>,
    text: &str,
    cuts: &[usize],
) -> Result<(), TestCaseError>
where
    C::Output: PartialEq + std::fmt::Debug,
{
    let (rejected_at, verdict) = feed_str(make(), text, cuts);
    prop_assert_eq!(
        &verdict,
        &whole,
        "finish differs from parse on {:?} cut at {:?}",
        text,
        cuts
    );
    let byte_cuts: Vec<usize> = cuts.iter().map(|c| c + 1).collect();
    let (bytes_rejected_at, bytes_verdict) = feed_bytes(make(), text.as_bytes(), &byte_cuts);
    prop_assert_eq!(
        &bytes_verdict,
        &whole,
        "finish differs from parse on bytes {:?}",
        text
    );
    if whole.is_ok() {
        prop_assert_eq!(
            rejected_at,
            None,
            "an accepted call was rejected early: {:?}",
            text
        );
        prop_assert_eq!(bytes_rejected_at, None);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn finish_is_parse_and_an_accepted_call_is_never_rejected(
        call in call_strategy(),
        cuts in proptest::collection::vec(0usize..400, 0..12),
    ) {
        let spec = spec();
        for text in renderings(&call) {
            check(IssueRefund::stream, IssueRefund::parse(text.as_str()), &text, &cuts)?;
            check(|| spec.stream(), spec.parse(text.as_str()), &text, &cuts)?;
        }
    }

    #[test]
    fn arbitrary_json_streams_as_it_parses(value in json_value(), cuts in proptest::collection::vec(0usize..200, 0..8)) {
        let spec = spec();
        let text = value.to_string();
        check(IssueRefund::stream, IssueRefund::parse(text.as_str()), &text, &cuts)?;
        check(|| spec.stream(), spec.parse(text.as_str()), &text, &cuts)?;
        let every: Vec<usize> = (0..text.len()).collect();
        check(|| spec.stream(), spec.parse(text.as_str()), &text, &every)?;
    }

    #[test]
    fn json_like_text_streams_as_it_parses(text in r#"[\[\]{}",:0-9a-z\\. \-eEnul]{0,80}"#, cuts in proptest::collection::vec(0usize..80, 0..8)) {
        let spec = spec();
        check(IssueRefund::stream, IssueRefund::parse(text.as_str()), &text, &cuts)?;
        check(|| spec.stream(), spec.parse(text.as_str()), &text, &cuts)?;
        // And one byte at a time, the pieces the scan takes without a call of its own.
        let every: Vec<usize> = (0..text.len()).collect();
        check(IssueRefund::stream, IssueRefund::parse(text.as_str()), &text, &every)?;
        let tight = toolargs::ParseOptions::DEFAULT.with_limits(toolargs::Limits::DEFAULT.with_max_depth(3));
        check(|| spec.stream_with(tight), spec.parse_with(&text.as_str().into(), &tight), &text, &every)?;
    }
}

#[test]
fn one_byte_at_a_time_every_prefix_of_accepted_calls() {
    let spec = spec();
    let calls = [
        json!({"order_id": "ord_A1b2C3d4", "amount_cents": "1999", "reason": "LATE", "tags": "fragile", "notify_customer": null}),
        json!({"order_id": "ord_A1b2C3d4", "amount_cents": 1999.0, "reason": "late", "effective_date": "2026-03-04", "tags": ["caf\u{e9}", "\u{1F980}"]}),
    ];
    for call in calls {
        for text in [
            call.to_string(),
            serde_json::to_string_pretty(&call).unwrap(),
        ] {
            let every: Vec<usize> = (0..text.len()).collect();
            let whole = IssueRefund::parse(text.as_str());
            assert!(whole.is_ok(), "{text}");
            let (rejected, verdict) = feed_str(IssueRefund::stream(), &text, &every);
            assert_eq!((rejected, verdict), (None, whole));
            let (rejected, verdict) = feed_bytes(spec.stream(), text.as_bytes(), &every);
            assert_eq!((rejected, verdict), (None, spec.parse(text.as_str())));
        }
    }
}

/// Where a text is first rejected, fed one byte at a time, and the code of that rejection.
fn first_rejection<C: Judge>(stream: ArgStream<C>, text: &str) -> Option<(usize, String)> {
    let mut stream = stream;
    for (at, _) in text.char_indices() {
        let end = text[at..].chars().next().map_or(0, char::len_utf8) + at;
        if let Err(rejection) = stream.feed(&text[at..end]) {
            return Some((end, rejection.errors()[0].code.to_string()));
        }
    }
    None
}

#[test]
fn rejections_come_as_soon_as_they_are_certain() {
    let spec = spec();
    // (text, the text at which the rejection is certain, its code)
    let cases = [
        (
            r#"{"amount_cents": 19.99, "order_id": "ord_A1b2C3d4""#,
            r#"{"amount_cents": 19.99,"#,
            "lossy_number",
        ),
        (
            r#"{"amount_cents": 90000, "#,
            r#"{"amount_cents": 90000,"#,
            "out_of_range",
        ),
        (
            r#"{"order_id": "ord_1", "#,
            r#"{"order_id": "ord_1","#,
            "pattern",
        ),
        (
            r#"{"reason": "broken", "#,
            r#"{"reason": "broken","#,
            "enum",
        ),
        (
            r#"{"notify_customer": "yes", "#,
            r#"{"notify_customer": "yes","#,
            "ambiguous_boolean",
        ),
        (
            r#"{"ghost": 1, "amount_cents": 5"#,
            r#"{"ghost": 1,"#,
            "unknown_field",
        ),
        // A key sent twice: at its closing quote, before its value.
        (
            r#"{"tags": [], "tags": [], "#,
            r#"{"tags": [], "tags""#,
            "duplicate_key",
        ),
        (
            r#"{"tags": [], "t\u0061gs": []}"#,
            r#"{"tags": [], "t\u0061gs""#,
            "duplicate_key",
        ),
        (r#"{"tags": [1 2], "#, r#"{"tags": [1 2],"#, "invalid_json"),
        (r#"{"a" 1, "#, r#"{"a" 1,"#, "invalid_json"),
        (r#"{, "#, r#"{,"#, "invalid_json"),
        (
            r#"{"order_id": "ord_A1b2C3d4", "amount_cents": 5, "reason": "late"} x"#,
            r#"{"order_id": "ord_A1b2C3d4", "amount_cents": 5, "reason": "late"} x"#,
            "invalid_json",
        ),
        (
            r#"{"amount_cents": 5}"#,
            r#"{"amount_cents": 5}"#,
            "missing",
        ),
    ];
    for (text, certain_at, code) in cases {
        let expected = Some((certain_at.len(), code.to_owned()));
        assert_eq!(
            first_rejection(IssueRefund::stream(), text),
            expected,
            "derived: {text}"
        );
        assert_eq!(
            first_rejection(spec.stream(), text),
            expected,
            "spec: {text}"
        );
    }
    // Too deep: at the bracket past the limit, long before the member ends.
    let options =
        toolargs::ParseOptions::DEFAULT.with_limits(toolargs::Limits::DEFAULT.with_max_depth(4));
    let deep = r#"{"tags": [[[[["#;
    let mut stream = IssueRefund::stream_with(options);
    assert!(stream.feed(&deep[..deep.len() - 2]).is_ok());
    let rejection = stream.feed(&deep[deep.len() - 2..]).unwrap_err();
    assert_eq!(rejection.errors()[0].code, Code::TooDeep);
    // Too large: at the byte past the limit.
    let options = toolargs::ParseOptions::DEFAULT
        .with_limits(toolargs::Limits::DEFAULT.with_max_payload_bytes(16));
    let mut stream = IssueRefund::stream_with(options);
    assert!(stream.feed(r#"{"order_id": "or"#).is_ok());
    assert_eq!(
        stream.feed("d").unwrap_err().errors()[0].code,
        Code::TooLarge
    );
    assert_eq!(
        stream.finish().unwrap_err().errors()[0].code,
        Code::TooLarge
    );
    // The same, one quiet byte at a time inside a string: counted as they come, and the
    // rejection is the one `parse` gives the whole text (which names its size).
    let mut stream = IssueRefund::stream_with(options);
    let mut text = String::from(r#"{"order_id": ""#);
    assert!(stream.feed(&text).is_ok());
    while stream.feed("x").is_ok() {
        text.push('x');
    }
    text.push_str("xx");
    assert!(stream.feed("x").is_err());
    assert_eq!((text.len(), stream.received()), (18, 18));
    assert_eq!(
        stream.finish(),
        toolargs::parse_with::<IssueRefund>(&toolargs::RawArgs::from(text.as_str()), &options)
    );
    // Bytes that can never be UTF-8, and a character split across two pieces.
    let mut stream = IssueRefund::stream();
    assert!(stream.feed_bytes(b"{\"tags\": [\"caf\xc3").is_ok());
    assert!(stream.feed_bytes(b"\xa9\"], ").is_ok());
    assert_eq!(
        stream.feed_bytes(b"\"\xff").unwrap_err().errors()[0].code,
        Code::InvalidJson
    );
}

#[test]
fn what_no_member_alone_can_decide_waits_for_the_end() {
    let spec = spec();
    // A missing required field, a value that a later member cannot change but that is only
    // known at the end (the last member), and a payload that is not an object as it starts.
    for text in [
        r#"{"amount_cents": 5, "reason": "late", "#,
        r#"{"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "reason": "broken""#,
        r#""{\"amount_cents\": 19.99, \"order_id\": 1}""#,
        "```json\n{\"amount_cents\": 19.99, \"order_id\": 1,\n",
    ] {
        assert_eq!(first_rejection(IssueRefund::stream(), text), None, "{text}");
        assert_eq!(first_rejection(spec.stream(), text), None, "{text}");
    }
    // A read-only tool strips what the tool does not declare: nothing to reject.
    let read_only = Spec::from_tool_definition(&json!({
        "name": "lookup",
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
        "annotations": {"readOnlyHint": true}
    }))
    .unwrap();
    let mut stream = read_only.stream();
    assert!(stream.feed(r#"{"ghost": 1, "q": "a", "#).is_ok());
    assert_eq!(stream.partial(), json!({"q": "a"}));
    // A schema that judges the object as a whole: only text and limits reject early.
    let whole = Spec::from_schema(&json!({
        "type": "object",
        "properties": {"kind": {"type": "string"}, "n": {"type": "integer"}},
        "if": {"properties": {"kind": {"const": "a"}}},
        "then": {"properties": {"n": {"maximum": 1}}}
    }))
    .unwrap();
    let mut stream = whole.stream();
    assert!(stream.feed(r#"{"n": 5, "#).is_ok());
    assert!(stream.feed(r#""kind": "b"}"#).is_ok());
    assert!(stream.finish().is_ok());
    let mut stream = whole.stream();
    assert!(stream.feed(r#"{"n": 5, "kind": "a"}"#).is_err());
}

#[test]
fn the_partial_view_holds_complete_members_as_the_parser_passes_them() {
    let mut stream = IssueRefund::stream();
    stream
        .feed(r#"{"amount_cents": "1999", "tags": "fragile", "notify_customer": nu"#)
        .unwrap();
    assert_eq!(
        stream.partial(),
        json!({"amount_cents": 1999, "tags": ["fragile"]})
    );
    stream
        .feed(r#"ll, "reason": "LATE", "order_id": "ord_A1b"#)
        .unwrap();
    assert_eq!(
        stream.partial(),
        json!({"amount_cents": 1999, "tags": ["fragile"], "notify_customer": false, "reason": "late"})
    );
    stream.feed(r#"2C3d4"}"#).unwrap();
    let view = stream.partial();
    let parsed = stream.finish().unwrap();
    assert_eq!(view["order_id"], json!("ord_A1b2C3d4"));
    for (key, value) in view.as_object().unwrap() {
        assert_eq!(&parsed.args.to_json()[key], value, "{key}");
    }
    // Never a prefix of a value: an open string, number or list is not shown.
    let mut stream = IssueRefund::stream();
    stream.feed(r#"{"tags": ["a", "b"#).unwrap();
    assert_eq!(stream.partial(), json!({}));
    // A key written with escapes is shown by its name, on both doors, for the last member
    // too (with the repairs of the whole call).
    let text =
        r#"{"tags": "x", "reason": "late", "order_id": "ord_A1b2C3d4", "amount_cents": "5"}"#;
    let spec = spec();
    let mut derived = IssueRefund::stream();
    let mut loaded = spec.stream();
    derived.feed(text).unwrap();
    loaded.feed(text).unwrap();
    let shown =
        json!({"tags": ["x"], "reason": "late", "order_id": "ord_A1b2C3d4", "amount_cents": 5});
    assert_eq!(derived.partial(), shown);
    assert_eq!(loaded.partial(), shown);
}

/// Feeds `text` in pieces of `size` bytes as text (moved to character boundaries) and of
/// `size + 2` bytes as bytes; checks both against `whole` and that an accepted call is never
/// rejected early. Returns whether the text pieces were rejected before the end.
fn stream_agrees<C: Judge>(
    make: impl Fn() -> ArgStream<C>,
    whole: &Result<Parsed<C::Output>, Rejection>,
    text: &str,
    size: usize,
) -> bool
where
    C::Output: PartialEq + std::fmt::Debug,
{
    let cuts: Vec<usize> = (1..text.len()).step_by(size).collect();
    let (early, verdict) = feed_str(make(), text, &cuts);
    assert_eq!(&verdict, whole, "{text}");
    let cuts: Vec<usize> = (1..text.len()).step_by(size + 2).collect();
    let (bytes_early, verdict) = feed_bytes(make(), text.as_bytes(), &cuts);
    assert_eq!(&verdict, whole, "{text}");
    if whole.is_ok() {
        assert_eq!((early, bytes_early), (None, None), "rejected early: {text}");
    }
    early.is_some_and(|at| at < text.len())
}

/// A record's arguments as text: as logged when a string, written when decoded.
fn arguments_text(record: &Value) -> Option<String> {
    match &record["arguments"] {
        Value::String(text) => Some(text.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

/// BFCL's ground-truth calls against their own definitions (written by `scripts/bfcl.py`):
/// each call streamed in pieces gets `parse`'s verdict, and no accepted call is rejected early.
#[test]
#[ignore = "needs BFCL's calls in TOOLARGS_BFCL (scripts/bfcl.py; .ci/run's bfcl step)"]
fn bfcl_calls_stream_as_they_parse() {
    let folder = crate::common::bfcl_folder();
    let tools = std::fs::read_to_string(folder.join("tools.json")).unwrap();
    let list = toolargs::dynamic::load_tool_list_lenient(&tools).unwrap();
    let specs: std::collections::HashMap<String, Spec> = list
        .specs
        .into_iter()
        .filter_map(|spec| Some((spec.name()?.to_owned(), spec)))
        .collect();
    let calls = std::fs::read_to_string(folder.join("calls.jsonl")).unwrap();
    let (mut seen, mut rejected, mut early) = (0, 0, 0);
    for line in calls.lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        let (Some(spec), Some(text)) = (
            record["tool"].as_str().and_then(|tool| specs.get(tool)),
            arguments_text(&record),
        ) else {
            continue;
        };
        let whole = spec.parse(text.as_str());
        seen += 1;
        rejected += usize::from(whole.is_err());
        early += usize::from(stream_agrees(|| spec.stream(), &whole, &text, 5));
    }
    eprintln!("bfcl: {seen} calls streamed, {rejected} rejected, {early} of them early");
    assert!(seen > 7_000 && early > 0);
}

/// The refund corpus (`TOOLARGS_CORPUS`, written by `scripts/corpus.sh`), through the derived
/// parser and the dynamic one: each call streamed in pieces gets `parse`'s verdict.
#[test]
#[ignore = "needs the refund corpus in TOOLARGS_CORPUS (scripts/corpus.sh; .ci/run's bfcl step)"]
fn the_refund_corpus_streams_as_it_parses() {
    let path = std::env::var_os("TOOLARGS_CORPUS")
        .expect("TOOLARGS_CORPUS names the corpus scripts/corpus.sh wrote");
    let spec = spec();
    let corpus = std::fs::read_to_string(path).unwrap();
    let (mut seen, mut early) = (0, 0);
    for line in corpus.lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        let Some(text) = arguments_text(&record) else {
            continue;
        };
        seen += 1;
        let whole = IssueRefund::parse(text.as_str());
        early += usize::from(stream_agrees(IssueRefund::stream, &whole, &text, 3));
        stream_agrees(|| spec.stream(), &spec.parse(text.as_str()), &text, 7);
    }
    eprintln!("refund corpus: {seen} calls streamed, {early} rejected early");
    assert!(seen > 1_000 && early > 0);
}

/// A tool whose fields have defaults, an optional value, a nested struct and a list, and
/// that strips undeclared keys: what the members read one at a time must assemble to.
#[derive(ToolArgs, Debug, PartialEq)]
#[toolargs(unknown = "strip")]
struct Assembled {
    #[arg(min = 1, max = 9)]
    count: i64,
    #[arg(default = "eu")]
    region: String,
    note: Option<String>,
    tags: Vec<String>,
    inner: Inner,
}

#[derive(ToolArgs, Debug, PartialEq)]
struct Inner {
    #[arg(pattern = "^[a-z]+$")]
    name: String,
    flag: Option<bool>,
}

#[test]
fn members_read_one_at_a_time_assemble_to_the_parse() {
    // More errors than a rejection keeps, for the cap and the omitted count.
    let many_ghosts: String = (0..120).map(|i| format!(r#""ghost{i}": {i}, "#)).collect();
    let texts = [
        r#"{"count": 3, "tags": ["a"], "inner": {"name": "x"}}"#.to_owned(),
        r#"{"ghost": 1, "count": "3", "inner": {"name": "x", "flag": "true", "more": 2}, "tags": "a", "ghost2": [1]}"#.to_owned(),
        r#"{"inner": {"name": "X1"}, "count": 10, "note": null, "region": null, "tags": ["a", 2]}"#.to_owned(),
        r#"{"tags": [], "count": 2.5, "zzz": null, "inner": "{\"name\": \"abc\"}"}"#.to_owned(),
        r#"{"note": 5, "ghost": {"deep": [1, 2]}}"#.to_owned(),
        format!(r#"{{{many_ghosts}"count": 0}}"#),
        "{}".to_owned(),
        r#"{ "count" : 1 , "tags" : [ ] , "inner" : { "name" : "q" } }  "#.to_owned(),
        // Closed by a `]`: each member is JSON, the object is not.
        "{\r\r\r]".to_owned(),
        r#"{"count": 1, "tags": []]"#.to_owned(),
    ];
    let option_sets = [
        toolargs::ParseOptions::DEFAULT,
        toolargs::ParseOptions::DEFAULT.with_unknown(toolargs::UnknownPolicy::Reject),
        toolargs::ParseOptions::DEFAULT.with_null_as_absent(true),
        toolargs::ParseOptions::DEFAULT.with_omit_messages(true),
    ];
    for options in option_sets {
        for text in &texts {
            let whole = toolargs::parse_with::<Assembled>(
                &toolargs::RawArgs::from(text.as_str()),
                &options,
            );
            for size in [1, 3, 17, text.len()] {
                stream_agrees(|| Assembled::stream_with(options), &whole, text, size);
            }
        }
    }
    // The undeclared keys come first, then the fields in declaration order, whatever order
    // the members came in.
    let text = r#"{"inner": {"name": "x"}, "tags": "a", "ghost": 1, "count": "3"}"#;
    let mut stream = Assembled::stream();
    for piece in text.as_bytes().chunks(2) {
        stream.feed_bytes(piece).unwrap();
    }
    let rules: Vec<(String, toolargs::Rule)> = stream
        .finish()
        .unwrap()
        .repairs
        .into_iter()
        .map(|r| (r.path, r.rule))
        .collect();
    assert_eq!(
        rules,
        [
            ("$.ghost".to_owned(), toolargs::Rule::StripUnknownField),
            ("$.count".to_owned(), toolargs::Rule::NumericStringToInt),
            ("$.tags".to_owned(), toolargs::Rule::ScalarToList),
        ]
    );
}

/// A loaded schema whose root is an object of its own keywords reads each member once and
/// assembles the verdict as the walk of the whole object records it: keys in payload order
/// (`propertyNames`, undeclared keys), declared properties in declaration order (absent ones
/// too), the other members in payload order, then the key count and the keys required.
#[test]
fn a_loaded_schemas_members_assemble_to_the_parse() {
    let schemas = [
        json!({"type": "object",
               "properties": {"n": {"type": "integer", "minimum": 1}, "s": {"type": "string", "default": "x"},
                              "list": {"type": "array", "items": {"type": "integer"}}},
               "required": ["n", "missing_too"],
               "minProperties": 2, "maxProperties": 4}),
        json!({"type": "object", "propertyNames": {"pattern": "^[a-z]+$"},
               "patternProperties": {"^p": {"type": "number", "maximum": 10}},
               "additionalProperties": {"type": "string", "maxLength": 3},
               "properties": {"pa": {"type": "boolean"}},
               "dependentRequired": {"pa": ["q"]}}),
        json!({"properties": {"a": {"enum": ["red", "green"]}, "b": {"type": ["integer", "null"]}},
               "additionalProperties": false}),
        json!({"type": "object", "properties": {"deep": {"type": "object",
               "properties": {"x": {"type": "integer"}}, "required": ["x"]}}}),
    ];
    let many: String = (0..110).map(|i| format!(r#""K{i}": {i}, "#)).collect();
    let texts = [
        r#"{"n": 3, "s": "a", "list": [1, 2]}"#.to_owned(),
        r#"{"list": "1", "ghost": 1, "n": "7", "s": 5}"#.to_owned(),
        r#"{"pa": "true", "p1": "12", "zz": "long", "Bad": "x", "q": "ok"}"#.to_owned(),
        r#"{"pa": true, "p2": 3.5, "abc": "xy"}"#.to_owned(),
        r#"{"a": "Red", "b": null, "c": 1}"#.to_owned(),
        r#"{"b": "4", "a": "blue"}"#.to_owned(),
        r#"{"deep": {"y": 1}, "n": 0}"#.to_owned(),
        r#"{"deep": "{\"x\": \"2\"}"}"#.to_owned(),
        format!(r#"{{{many}"n": 0}}"#),
        "{}".to_owned(),
        " { \"n\" : 1 , \"s\" : \"b\" }\n".to_owned(),
    ];
    let option_sets = [
        toolargs::ParseOptions::DEFAULT,
        toolargs::ParseOptions::DEFAULT.with_unknown(toolargs::UnknownPolicy::Strip),
        toolargs::ParseOptions::DEFAULT.with_null_as_absent(true),
        toolargs::ParseOptions::DEFAULT.with_omit_messages(true),
    ];
    for schema in &schemas {
        let spec = Spec::from_schema(schema).unwrap();
        for options in option_sets {
            for text in &texts {
                let whole = spec.parse_with(&toolargs::RawArgs::from(text.as_str()), &options);
                for size in [1, 3, 17, text.len()] {
                    stream_agrees(|| spec.stream_with(options), &whole, text, size);
                }
            }
        }
    }
}

/// Streams move between threads (an async task that reads a provider's stream may run on
/// any worker): both doors' streams are `Send` and `Sync`.
#[test]
fn streams_are_send_and_sync() {
    fn send<T: Send + Sync>(_: &T) {}
    send(&IssueRefund::stream());
    let spec = spec();
    send(&spec.stream());
    send(&Assembled::stream());
}

/// The budget of evaluations is the whole call's: spent across the members a stream reads
/// one at a time, it runs out where the walk of the whole call runs out, and the verdict is
/// the parse's (every member alone within the budget, all of them together past it).
#[test]
fn a_loaded_schemas_budget_is_spent_across_the_members() {
    // Shared references that double the work at every level.
    let defs = crate::common::doubling_defs();
    let properties: serde_json::Map<String, Value> = (0..8)
        .map(|i| (format!("p{i}"), json!({"$ref": "#/$defs/l26"})))
        .collect();
    let spec =
        Spec::from_schema(&json!({"type": "object", "$defs": defs, "properties": properties}))
            .unwrap();
    let one = r#"{"p0": true}"#;
    let all: String = format!(
        "{{{}}}",
        (0..8)
            .map(|i| format!(r#""p{i}": true"#))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let codes = |text: &str| -> Vec<String> {
        let whole = spec.parse(text);
        for size in [1, 7, text.len()] {
            stream_agrees(|| spec.stream(), &whole, text, size);
        }
        whole
            .err()
            .map(|r| r.errors().iter().map(|e| e.code.to_string()).collect())
            .unwrap_or_default()
    };
    assert!(!codes(one).contains(&"too_deep".to_owned()), "{one}");
    assert!(codes(&all).contains(&"too_deep".to_owned()), "{all}");
}

/// `max_keys` counts the keys of the payload object as the parse counts them: a stream
/// takes as many, and the one past them rejects the call as the parse does, on both doors
/// and with keys written with escapes.
#[test]
fn the_key_limit_is_the_parses() {
    let options = toolargs::ParseOptions::DEFAULT
        .with_limits(toolargs::Limits::DEFAULT.with_max_keys(3))
        .with_unknown(toolargs::UnknownPolicy::Strip);
    let loaded = Spec::from_schema(&json!({"type": "object"})).unwrap();
    for text in [
        r#"{"count": 1, "tags": [], "inner": {"name": "a"}}"#,
        r#"{"count": 1, "tags": [], "inner": {"name": "a"}, "g": 1}"#,
        r#"{"count": 1, "t\u0061gs": [], "\u0067": 1, "inner": {"name": "a"}}"#,
        r#"{"a": 1, "b": 2, "\u0061": 3}"#,
        r#"{"a": 1, "b": 2, "c": 3, "d"#,
    ] {
        let whole = toolargs::parse_with::<Assembled>(&toolargs::RawArgs::from(text), &options);
        let spec_whole = loaded.parse_with(&toolargs::RawArgs::from(text), &options);
        for size in [1, 4, text.len()] {
            stream_agrees(|| Assembled::stream_with(options), &whole, text, size);
            stream_agrees(|| loaded.stream_with(options), &spec_whole, text, size);
        }
    }
    let codes = |text: &str| {
        let mut stream = loaded.stream_with(options);
        let early = stream.feed(text).err();
        early.map(|r| r.errors()[0].code.to_string())
    };
    assert_eq!(codes(r#"{"a": 1, "b": 2, "c": 3, "#), None);
    assert_eq!(
        codes(r#"{"a": 1, "b": 2, "c": 3, "d": 4, "#).as_deref(),
        Some("too_many_keys")
    );
    assert_eq!(
        codes(r#"{"a": 1, "b": 2, "\u0061""#).as_deref(),
        Some("duplicate_key")
    );
}
