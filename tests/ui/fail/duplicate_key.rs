use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Refund {
    #[arg(min = 1)]
    #[arg(max = 100, min = 2)]
    amount_cents: i64,
}

fn main() {}
