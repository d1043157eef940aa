use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Refund {
    #[arg(max = 99.5)]
    amount_cents: i64,
}

fn main() {}
