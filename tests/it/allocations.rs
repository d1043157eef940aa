//! A clean call allocates no more than its typed output holds: the decoded payload borrows its
//! strings and reuses its arrays and objects from one call to the next.
//!
//! The counting allocator below is the global allocator of the whole test binary. It counts per
//! thread, so the other tests, each on a thread of its own, neither disturb the counts nor are
//! changed by them.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

use crate::common::IssueRefund;
use serde_json::json;
use toolargs::ToolArgs;

/// Counts allocations and reallocations made by the current thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn bump() {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only a
// thread-local integer, which never allocates.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` on this thread, after one warm-up call.
fn allocations<R>(mut f: impl FnMut() -> R) -> usize {
    drop(black_box(f()));
    let before = ALLOCATIONS.with(Cell::get);
    let out = black_box(f());
    let after = ALLOCATIONS.with(Cell::get);
    drop(out);
    after - before
}

/// An order with a list of objects and a nested object.
#[derive(ToolArgs, Debug, Clone)]
#[toolargs(name = "create_order")]
#[allow(dead_code)]
struct CreateOrder {
    #[arg(pattern = r"cus_[A-Za-z0-9]{6}")]
    customer_id: String,
    #[arg(min_items = 1)]
    items: Vec<Item>,
    address: Address,
    #[arg(default)]
    express: bool,
    note: Option<String>,
}

#[derive(ToolArgs, Debug, Clone)]
#[allow(dead_code)]
struct Item {
    sku: String,
    #[arg(min = 1)]
    quantity: u32,
    #[arg(default)]
    options: Vec<String>,
}

#[derive(ToolArgs, Debug, Clone)]
#[allow(dead_code)]
struct Address {
    city: String,
    country: String,
}

#[test]
fn a_clean_refund_allocates_what_its_output_holds() {
    let text = r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"notify_customer":true,"reason":"damaged","tags":["fragile","priority"],"effective_date":"2024-05-01"}"#;
    let parsed = IssueRefund::parse(text).unwrap();
    assert!(parsed.is_clean());
    // The output: `order_id`, the `tags` vector and its two strings.
    let output = allocations(|| parsed.args.clone());
    assert_eq!(output, 4);
    assert_eq!(allocations(|| IssueRefund::parse(text).unwrap()), output);
    // Already decoded: the value's strings are borrowed the same way.
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(allocations(|| IssueRefund::parse(&value).unwrap()), output);
    // Fenced text is read in place too.
    let fenced = format!("```json\n{text}\n```");
    let repaired = IssueRefund::parse(fenced.as_str()).unwrap();
    assert_eq!(repaired.repairs.len(), 1);
}

#[test]
fn a_clean_nested_call_allocates_what_its_output_holds() {
    let call = json!({
        "customer_id": "cus_Ab12Cd",
        "items": [
            {"sku": "ABC-1", "quantity": 2, "options": ["gift_wrap"]},
            {"sku": "ABC-2", "quantity": 1},
            {"sku": "XYZ-3", "quantity": 10, "options": ["bulk", "no_invoice"]},
        ],
        "address": {"city": "Springfield", "country": "US"},
        "express": true,
        "note": "leave at the door",
    });
    let text = call.to_string();
    let parsed = CreateOrder::parse(text.as_str()).unwrap();
    assert!(parsed.is_clean());
    let output = allocations(|| parsed.args.clone());
    assert_eq!(
        allocations(|| CreateOrder::parse(text.as_str()).unwrap()),
        output
    );
    assert_eq!(allocations(|| CreateOrder::parse(&call).unwrap()), output);
}

#[test]
fn strings_with_escapes_allocate_once_more_each() {
    // `\u00e9` cannot be borrowed from the payload: the unescaped key and value are new strings.
    let text = r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"reason":"damaged","tags":["caf\u00e9"]}"#;
    let parsed = IssueRefund::parse(text).unwrap();
    let output = allocations(|| parsed.args.clone());
    assert_eq!(
        allocations(|| IssueRefund::parse(text).unwrap()),
        output + 1
    );
}

/// A small deterministic generator (SplitMix64), so the corpus is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn word(&mut self, alphabet: &[u8], len: usize) -> String {
        (0..len)
            .map(|_| char::from(alphabet[self.below(alphabet.len() as u64) as usize]))
            .collect()
    }
}

const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// Writes `value` with Python's `json.dumps` spacing (`", "` and `": "`), as SDKs log it.
fn spaced(value: &serde_json::Value) -> String {
    let compact = value.to_string();
    let mut out = String::with_capacity(compact.len() * 5 / 4);
    let mut in_string = false;
    let mut escaped = false;
    for c in compact.chars() {
        out.push(c);
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else {
            match c {
                '"' => in_string = true,
                ',' | ':' => out.push(' '),
                _ => {}
            }
        }
    }
    out
}

#[test]
fn clean_calls_of_a_varied_corpus_allocate_what_their_output_holds() {
    let mut rng = Rng(0x5EED);
    let reasons = ["damaged", "late", "duplicate", "other"];
    let tags = [
        "fragile",
        "gift",
        "vip",
        "bulk",
        "a \"quoted\" tag",
        "caf\u{e9}",
    ];
    let mut checked = 0;
    for i in 0..300 {
        let mut refund = json!({
            "order_id": format!("ord_{}", rng.word(ALNUM, 8)),
            "amount_cents": 1 + rng.below(50_000),
            "reason": reasons[rng.below(4) as usize],
        });
        if rng.below(2) == 0 {
            let n = rng.below(4) as usize;
            let list: Vec<&str> = (0..n).map(|_| tags[rng.below(6) as usize]).collect();
            refund["tags"] = json!(list);
        }
        if rng.below(3) == 0 {
            refund["effective_date"] = json!(format!(
                "2026-{:02}-{:02}",
                1 + rng.below(12),
                1 + rng.below(28)
            ));
        }
        if rng.below(3) == 0 {
            refund["notify_customer"] = json!(rng.below(2) == 0);
        }
        let text = if i % 2 == 0 {
            refund.to_string()
        } else {
            spaced(&refund)
        };
        let parsed = IssueRefund::parse(text.as_str()).unwrap();
        assert!(parsed.is_clean(), "{text}");
        let output = allocations(|| parsed.args.clone());
        // A string written with an escape (here a tag with quotes; serde_json writes `é` as
        // is) is unescaped into one allocation of its own, besides the output.
        let escaped_strings = parsed.args.tags.iter().filter(|t| t.contains('"')).count();
        assert_eq!(
            allocations(|| IssueRefund::parse(text.as_str()).unwrap()),
            output + escaped_strings,
            "{text}"
        );
        assert_eq!(allocations(|| IssueRefund::parse(&refund).unwrap()), output);
        checked += 1;

        let items: Vec<serde_json::Value> = (0..1 + rng.below(12))
            .map(|_| {
                let mut item = json!({
                    "sku": format!("SKU-{}", rng.word(ALNUM, 4)),
                    "quantity": 1 + rng.below(40),
                });
                if rng.below(3) == 0 {
                    let n = 1 + rng.below(3) as usize;
                    let list: Vec<String> = (0..n).map(|_| rng.word(ALNUM, 5)).collect();
                    item["options"] = json!(list);
                }
                item
            })
            .collect();
        let mut order = json!({
            "customer_id": format!("cus_{}", rng.word(ALNUM, 6)),
            "items": items,
            "address": {"city": rng.word(ALNUM, 7), "country": rng.word(ALNUM, 2)},
        });
        if rng.below(2) == 0 {
            order["express"] = json!(rng.below(2) == 0);
        }
        if rng.below(2) == 0 {
            order["note"] = json!(rng.word(ALNUM, 12));
        }
        let text = if i % 2 == 0 {
            order.to_string()
        } else {
            spaced(&order)
        };
        let parsed = CreateOrder::parse(text.as_str()).unwrap();
        assert!(parsed.is_clean(), "{text}");
        let output = allocations(|| parsed.args.clone());
        assert_eq!(
            allocations(|| CreateOrder::parse(text.as_str()).unwrap()),
            output,
            "{text}"
        );
        assert_eq!(allocations(|| CreateOrder::parse(&order).unwrap()), output);
        checked += 1;
    }
    assert_eq!(checked, 600);
}
