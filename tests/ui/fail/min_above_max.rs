use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Refund {
    #[arg(min = 100, max = 10)]
    amount_cents: i64,
    #[arg(min_len = 8, max_len = 4)]
    note: String,
    #[arg(min_items = 3, max_items = 1)]
    tags: Vec<String>,
}

fn main() {}
