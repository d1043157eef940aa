use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Refund {
    #[arg(strict = true)]
    amount_cents: i64,
}

fn main() {}
