use std::collections::HashMap;

use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Tag {
    labels: HashMap<u64, String>,
}

#[derive(ToolArgs)]
struct Transfer {
    amount: i128,
}

#[derive(ToolArgs)]
struct Update {
    note: Option<Option<String>>,
}

#[derive(ToolArgs)]
struct Lookup {
    order_id: &'static str,
}

#[derive(ToolArgs)]
struct Point {
    at: (i64, i64),
}

fn main() {}
