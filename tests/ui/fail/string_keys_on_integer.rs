use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Refund {
    #[arg(pattern = "[0-9]+", min_len = 1, max_len = 9)]
    amount_cents: i64,
}

fn main() {}
