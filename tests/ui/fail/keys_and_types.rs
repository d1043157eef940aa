use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Volume {
    #[arg(max = 300)]
    level: u8,
}

#[derive(ToolArgs)]
struct Search {
    #[arg(min = 1, max = 80)]
    query: String,
}

#[derive(ToolArgs)]
struct FloatRefund {
    #[arg(max = 99.5)]
    amount_cents: i64,
}

#[derive(ToolArgs)]
struct ItemSearch {
    #[arg(min_items = 1, max_items = 5)]
    query: String,
}

#[derive(ToolArgs)]
struct SwappedRefund {
    #[arg(min = 100, max = 10)]
    amount_cents: i64,
    #[arg(min_len = 8, max_len = 4)]
    note: String,
    #[arg(min_items = 3, max_items = 1)]
    tags: Vec<String>,
}

#[derive(ToolArgs)]
struct TextRefund {
    #[arg(pattern = "[0-9]+", min_len = 1, max_len = 9)]
    amount_cents: i64,
}

#[derive(ToolArgs)]
struct Lookup {
    #[arg(strict)]
    order_id: String,
}

fn main() {}
