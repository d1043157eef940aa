#![deny(warnings)]

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use toolargs::ToolArgs;

/// Why the refund is issued.
#[derive(ToolArgs, Debug, Default, PartialEq)]
enum Reason {
    #[default]
    Damaged,
    Late,
    #[arg(rename = "double_charged")]
    Duplicate,
    #[toolargs(rename = "other_reason")]
    Other,
}

/// A line of the order.
#[derive(ToolArgs, Debug)]
struct Line {
    #[arg(pattern = "sku_[A-Z0-9]{6}")]
    sku: String,
    #[arg(min = 1, max = 99)]
    quantity: u16,
}

/// Where the refund goes.
#[derive(ToolArgs, Debug)]
struct Account {
    #[arg(min_len = 2, max_len = 34)]
    iban: String,
}

/// Refund part of an order.
#[derive(ToolArgs, Debug)]
#[toolargs(name = "issue_refund", description = "Refund part of an order.")]
#[toolargs(unknown = "strip", effect = "read_only")]
struct Everything {
    /// The order to refund.
    #[arg(pattern = "ord_[A-Za-z0-9]{8}", min_len = 12, max_len = 12)]
    order_id: String,
    #[arg(default, description = "Tell the customer by email.")]
    notify: bool,
    #[arg(min = -100, max = 100, strict)]
    tiny: i8,
    #[arg(default = 7)]
    small: i16,
    #[arg(min = 1, max = 50000)]
    amount_cents: i32,
    wide: i64,
    #[arg(max = 1024)]
    index: isize,
    #[arg(max = 200)]
    percent: u8,
    #[arg(min = 1)]
    port: u16,
    count: u32,
    bytes: u64,
    #[arg(rename = "page_size", default = 20)]
    limit: usize,
    #[arg(min = -1, max = 1)]
    weight: f32,
    #[arg(min = 0.0, max = 1.5)]
    ratio: f64,
    effective_date: NaiveDate,
    placed_at: DateTime<FixedOffset>,
    logged_at: Option<DateTime<Utc>>,
    #[arg(default = "manual")]
    source: String,
    #[arg(default, min_items = 0, max_items = 5, min_len = 1, max_len = 20)]
    tags: Vec<String>,
    #[arg(min_items = 1, max_items = 3, min = 1, max = 5)]
    scores: Vec<u8>,
    #[arg(pattern = "[a-z]+")]
    note: Option<String>,
    #[arg(default)]
    reason: Reason,
    account: Account,
    #[arg(max_items = 10)]
    lines: Vec<Line>,
    backup: Option<Account>,
    #[arg(min_items = 1)]
    reasons: Option<Vec<Reason>>,
}

/// A struct that also carries another derive's `#[arg(...)]` keys.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "external", unknown = "reject")]
struct Shared {
    #[toolargs(min = 1, max = 10)]
    #[arg(long, short = 'n')]
    count: u8,
    #[arg(long)]
    dry_run: bool,
}

fn main() {
    let payload = r#"{
        "order_id": "ord_A1b2C3d4",
        "tiny": -5,
        "amount_cents": "1999",
        "wide": 1,
        "index": 3,
        "percent": 50,
        "port": 8080,
        "count": 1,
        "bytes": 2,
        "weight": 0.5,
        "ratio": 1,
        "effective_date": "2024-05-01",
        "placed_at": "2024-05-01T10:00:00+02:00",
        "scores": [1, 2],
        "account": {"iban": "DE00"},
        "lines": [{"sku": "sku_ABC123", "quantity": 2}],
        "reasons": ["late", "double_charged"],
        "ghost": true
    }"#;
    let parsed = Everything::parse(payload).unwrap();
    let args = &parsed.args;
    assert_eq!(args.amount_cents, 1999);
    assert_eq!(args.small, 7);
    assert_eq!(args.limit, 20);
    assert_eq!(args.source, "manual");
    assert_eq!(args.reason, Reason::Damaged);
    assert_eq!(args.reasons, Some(vec![Reason::Late, Reason::Duplicate]));
    assert!(!args.notify && args.tags.is_empty() && args.note.is_none());
    assert!(args.logged_at.is_none() && args.backup.is_none());
    assert_eq!(args.lines[0].quantity, 2);
    assert_eq!(args.lines[0].sku, "sku_ABC123");
    assert_eq!(args.account.iban, "DE00");
    assert_eq!(
        args.effective_date,
        NaiveDate::from_ymd_opt(2024, 5, 1).unwrap()
    );
    assert_eq!(args.placed_at.offset().local_minus_utc(), 7200);
    assert_eq!(
        (args.tiny, args.wide, args.index, args.percent, args.port),
        (-5, 1, 3, 50, 8080)
    );
    assert_eq!((args.count, args.bytes, args.scores.len()), (1, 2, 2));
    assert!(args.weight > 0.0 && args.ratio == 1.0);
    let rules: Vec<String> = parsed.repairs.iter().map(|r| r.rule.to_string()).collect();
    assert!(
        rules.contains(&"numeric_string_to_int".to_owned()),
        "{rules:?}"
    );
    assert!(
        rules.contains(&"strip_unknown_field".to_owned()),
        "{rules:?}"
    );
    assert_eq!(Everything::NAME, "issue_refund");
    assert_eq!(Everything::json_schema()["title"], "issue_refund");

    let shared = Shared::parse(r#"{"count": 3, "dry_run": false}"#).unwrap();
    assert_eq!(shared.args.count, 3);
    assert!(!shared.args.dry_run);
    assert!(Shared::parse(r#"{"count": 11, "dry_run": false}"#).is_err());
}
