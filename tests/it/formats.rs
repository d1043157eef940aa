//! Third-party types behind features: `uuid::Uuid`, `url::Url` and `indexmap::IndexMap`
//! fields, read through their `ArgType` impls in core.

use indexmap::IndexMap;
use jsonschema::{Draft, Validator};
use serde_json::{json, Value};
use toolargs::{Code, Dialect, ToolArgs};
use url::Url;
use uuid::Uuid;

/// Fetch a page for a customer.
#[derive(ToolArgs, Debug, PartialEq)]
#[toolargs(effect = "read_only")]
struct FetchPage {
    customer: Uuid,
    page: Url,
    #[arg(default)]
    mirrors: Vec<Url>,
    #[arg(default)]
    headers: IndexMap<String, String>,
}

fn validator(schema: &Value) -> Validator {
    jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(true)
        .build(schema)
        .expect("the schema compiles")
}

fn codes(payload: Value) -> Vec<(String, String)> {
    FetchPage::parse(payload)
        .unwrap_err()
        .errors()
        .iter()
        .map(|e| (e.code.to_string(), e.path.clone()))
        .collect()
}

#[test]
fn clean_calls_read_their_values_and_agree_with_the_schema() {
    let call = json!({
        "customer": "123E4567-e89b-12d3-a456-426614174000",
        "page": "https://example.com/docs?q=a%20b#top",
        "mirrors": ["http://mirror.example.org/"],
        "headers": {"x-b": "2", "x-a": "1"},
    });
    assert!(validator(&FetchPage::json_schema()).is_valid(&call));
    let parsed = FetchPage::parse(&call).unwrap();
    assert!(parsed.repairs.is_empty(), "{:?}", parsed.repairs);
    assert_eq!(
        parsed.args.customer,
        Uuid::parse_str("123e4567-e89b-12d3-a456-426614174000").unwrap()
    );
    assert_eq!(parsed.args.page.host_str(), Some("example.com"));
    assert_eq!(
        parsed.args.headers.keys().collect::<Vec<_>>(),
        ["x-b", "x-a"],
        "an IndexMap keeps the order the keys were sent in"
    );

    // Canonical: lower-case UUID, the URL as the standard writes it, keys in their order.
    let canonical = parsed.args.to_json();
    assert_eq!(
        canonical["customer"],
        "123e4567-e89b-12d3-a456-426614174000"
    );
    assert_eq!(canonical["page"], "https://example.com/docs?q=a%20b#top");
    let again = FetchPage::parse(&canonical).unwrap();
    assert!(again.repairs.is_empty());
    assert_eq!(again.args, parsed.args);
    assert_eq!(again.args.to_json().to_string(), canonical.to_string());
}

#[test]
fn a_url_is_read_as_the_standard_reads_it() {
    let parsed = FetchPage::parse(json!({
        "customer": "123e4567-e89b-12d3-a456-426614174000",
        "page": "HTTPS://Example.COM",
    }))
    .unwrap();
    assert!(parsed.repairs.is_empty());
    assert_eq!(parsed.args.to_json()["page"], "https://example.com/");
}

#[test]
fn other_spellings_are_format_errors_at_their_paths() {
    let bad = codes(json!({
        "customer": "123e4567e89b12d3a456426614174000",
        "page": "/relative/path",
        "mirrors": ["https://example.com/a b", " https://example.com", "https://exämple.com"],
    }));
    let (uuid, uri) = (Code::InvalidUuid.to_string(), Code::InvalidUri.to_string());
    assert_eq!(
        bad,
        [
            (uuid, "$.customer".to_owned()),
            (uri.clone(), "$.page".to_owned()),
            (uri.clone(), "$.mirrors[0]".to_owned()),
            (uri.clone(), "$.mirrors[1]".to_owned()),
            (uri, "$.mirrors[2]".to_owned()),
        ]
    );
    // Each of them the schema rejects too.
    let check = validator(&FetchPage::json_schema());
    for (field, value) in [
        ("customer", json!("123e4567e89b12d3a456426614174000")),
        ("customer", json!("{123e4567-e89b-12d3-a456-426614174000}")),
        ("page", json!("/relative/path")),
        ("page", json!("https://example.com/a b")),
    ] {
        let mut call = json!({
            "customer": "123e4567-e89b-12d3-a456-426614174000",
            "page": "https://example.com/",
        });
        call[field] = value;
        assert!(!check.is_valid(&call), "{call}");
        assert!(FetchPage::parse(&call).is_err(), "{call}");
    }
    assert_eq!(
        codes(json!({"customer": 7, "page": true})),
        [
            ("type".to_owned(), "$.customer".to_owned()),
            ("type".to_owned(), "$.page".to_owned())
        ]
    );
}

/// Link a page to a customer (no open map, so strict mode applies).
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "additive")]
struct LinkPage {
    customer: Uuid,
    page: Url,
}

#[test]
fn strict_mode_keeps_uuid_and_describes_uri() {
    let definition = LinkPage::tool_definition(Dialect::OpenAiChat { strict: true });
    assert_eq!(definition["function"]["strict"], true);
    let props = &definition["function"]["parameters"]["properties"];
    assert_eq!(props["customer"]["format"], "uuid");
    assert!(props["page"].get("format").is_none(), "{}", props["page"]);
    assert_eq!(props["page"]["description"], "An absolute URL.");
    let gemini = LinkPage::tool_definition(Dialect::Gemini);
    let props = &gemini["parameters"]["properties"];
    assert!(props["customer"].get("format").is_none());
    assert_eq!(
        props["customer"]["description"],
        "A UUID written 8-4-4-4-12 hexadecimal digits."
    );
}

/// Charge an amount.
#[derive(ToolArgs, Debug, PartialEq)]
#[toolargs(effect = "external")]
struct Charge {
    #[arg(min = 0.01, max = 10000)]
    amount: rust_decimal::Decimal,
    #[arg(default)]
    fees: Vec<rust_decimal::Decimal>,
}

fn decimal(text: &str) -> rust_decimal::Decimal {
    text.parse().unwrap()
}

#[test]
fn decimals_are_read_from_their_digits() {
    let parsed = Charge::parse(r#"{"amount": 19.99, "fees": [0.1, 1.999e1, 3]}"#).unwrap();
    assert!(parsed.repairs.is_empty());
    assert_eq!(parsed.args.amount, decimal("19.99"));
    assert_eq!(
        parsed.args.fees,
        [decimal("0.1"), decimal("19.99"), decimal("3")]
    );
    // The canonical form is a JSON number that reads back as the same decimal.
    let canonical = parsed.args.to_json();
    assert_eq!(
        canonical.to_string(),
        r#"{"amount":19.99,"fees":[0.1,19.99,3]}"#
    );
    let again = Charge::parse(&canonical).unwrap();
    assert!(again.repairs.is_empty());
    assert_eq!(again.args, parsed.args);
    assert!(validator(&Charge::json_schema()).is_valid(&canonical));
}

#[test]
fn a_decimal_string_is_repaired_as_a_number_is() {
    let parsed = Charge::parse(r#"{"amount": "19.99"}"#).unwrap();
    assert_eq!(parsed.args.amount, decimal("19.99"));
    assert_eq!(parsed.repairs.len(), 1);
    assert_eq!(parsed.repairs[0].rule, "numeric_string_to_number");
    assert_eq!(parsed.repairs[0].after, json!(19.99));
}

#[test]
fn decimals_out_of_bounds_or_precision_are_rejected() {
    let bad = Charge::parse(r#"{"amount": "1,999", "fees": [0.12345678901234567, "1e3", true]}"#)
        .unwrap_err();
    let got: Vec<(&str, &str)> = bad
        .errors()
        .iter()
        .map(|e| (e.code.as_str(), e.path.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("ambiguous_number", "$.amount"),
            ("lossy_number", "$.fees[0]"),
            ("ambiguous_number", "$.fees[1]"),
            ("type", "$.fees[2]"),
        ]
    );
    for (amount, code) in [("0.001", "out_of_range"), ("10000.01", "out_of_range")] {
        let err = Charge::parse(format!(r#"{{"amount": {amount}}}"#)).unwrap_err();
        assert_eq!(err.errors()[0].code, code, "{amount}");
    }
    // The bounds are the decimals written in the attribute, not the floats nearest to them.
    assert!(Charge::parse(r#"{"amount": 0.01}"#).is_ok());
    assert!(Charge::parse(r#"{"amount": 10000}"#).is_ok());
}
