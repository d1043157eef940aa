//! One verdict per string, whichever door it comes through: every string test of the vendored
//! suite's format files is judged by a derived field of the format's Rust type and by a loaded
//! schema of `type: string` with that `format`, and the two agree on acceptance, repairs and
//! codes. Both call `toolargs_core::coerce::format::Format::check`; this proves nothing in
//! between (the type's own parser, the walker) changes the verdict.

use std::net::{Ipv4Addr, Ipv6Addr};

use chrono::{DateTime, FixedOffset, NaiveDate};
use serde_json::{json, Value};
use toolargs::dynamic::Spec;
use toolargs::{Parsed, Rejection, ToolArgs};
use url::Url;
use uuid::Uuid;

macro_rules! one_field {
    ($name:ident, $ty:ty) => {
        /// One value of a format.
        #[derive(ToolArgs, Debug)]
        #[toolargs(effect = "read_only")]
        struct $name {
            #[allow(dead_code)]
            v: $ty,
        }
    };
}
one_field!(UuidArg, Uuid);
one_field!(UrlArg, Url);
one_field!(DateArg, NaiveDate);
one_field!(DateTimeArg, DateTime<FixedOffset>);
one_field!(Ipv4Arg, Ipv4Addr);
one_field!(Ipv6Arg, Ipv6Addr);

/// Accepted (with the rules of its repairs) or rejected (with its codes and paths).
type Verdict = Result<Vec<String>, Vec<(String, String)>>;

fn verdict<T>(result: Result<Parsed<T>, Rejection>) -> Verdict {
    match result {
        Ok(parsed) => Ok(parsed.repairs.iter().map(|r| r.rule.to_string()).collect()),
        Err(rejection) => Err(rejection
            .errors()
            .iter()
            .map(|e| (e.code.to_string(), e.path.clone()))
            .collect()),
    }
}

fn derived(format: &str, call: &Value) -> Verdict {
    match format {
        "uuid" => verdict(UuidArg::parse(call)),
        "uri" => verdict(UrlArg::parse(call)),
        "date" => verdict(DateArg::parse(call)),
        "date-time" => verdict(DateTimeArg::parse(call)),
        "ipv4" => verdict(Ipv4Arg::parse(call)),
        "ipv6" => verdict(Ipv6Arg::parse(call)),
        other => unreachable!("no Rust type for {other}"),
    }
}

#[test]
fn both_doors_give_one_verdict_on_every_format_test_of_the_suite() {
    let mut compared = 0;
    let mut accepted = 0;
    let mut disagreements = Vec::new();
    for format in ["uuid", "uri", "date", "date-time", "ipv4", "ipv6"] {
        let spec = Spec::from_schema(&json!({
            "type": "object",
            "properties": {"v": {"type": "string", "format": format}},
            "required": ["v"],
            "additionalProperties": false,
        }))
        .unwrap();
        let file = format!(
            "{}/tests/data/json-schema-test-suite/draft2020-12/format/{format}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let groups: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        for test in groups
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["tests"].as_array().unwrap())
        {
            if !test["data"].is_string() {
                continue;
            }
            let call = json!({"v": test["data"]});
            let (typed, loaded) = (derived(format, &call), verdict(spec.parse(&call)));
            compared += 1;
            accepted += usize::from(loaded.is_ok());
            if typed != loaded {
                disagreements.push(format!(
                    "{format} {call}: derived {typed:?}, loaded {loaded:?}"
                ));
            }
        }
    }
    assert!(disagreements.is_empty(), "{disagreements:#?}");
    assert_eq!(compared, 235, "string tests in the six format files");
    assert!(
        accepted > 60 && accepted < compared - 60,
        "{accepted} of {compared} accepted"
    );
}

/// What the URI check accepts under the URL standard's schemes, the `url` crate reads; what it
/// refuses there, URL readers read otherwise than RFC 3986 does.
#[test]
fn a_uri_accepted_under_a_url_scheme_is_one_the_url_standard_reads() {
    let uri = toolargs::ext::Format::Uri;
    for (text, accepted) in [
        ("http://example.com/a?b#c", true),
        ("https://user:pw@example.com:8080/", true),
        ("http://192.0.2.1/", true),
        ("http://[2001:db8::1]:80/", true),
        ("file:///etc/hosts", true),
        ("file:/etc/hosts", true),
        ("ftp://ftp.example.org/pub", true),
        ("mailto:joe@example.com", true),
        ("urn:isbn:0451450523", true),
        ("http://087.10.0.1/", false),
        ("http://1.2.3/", false),
        ("http://0x7f.1/", false),
        ("http://192.0.2.1./", false),
        ("http://example.com:65536/", false),
        ("http:example.com", false),
        ("http:///example.com", false),
        ("http://ex%41mple.com/", false),
        ("http://[v1.x]/", false),
        ("//example.com/a", false),
        ("http://exa mple.com/", false),
    ] {
        assert_eq!(uri.accepts(text), accepted, "{text}");
        if accepted {
            assert!(Url::parse(text).is_ok(), "{text}");
            assert!(UrlArg::parse(json!({"v": text})).is_ok(), "{text}");
        } else {
            assert!(UrlArg::parse(json!({"v": text})).is_err(), "{text}");
        }
    }
}
