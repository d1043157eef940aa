use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Lookup {
    #[arg(patern = "ord_[0-9]+")]
    order_id: String,
}

#[derive(ToolArgs)]
enum Reason {
    #[arg(alias = "broken")]
    Damaged,
    Late,
}

#[derive(ToolArgs)]
struct Refund {
    #[arg(min = 1)]
    #[arg(max = 100, min = 2)]
    amount_cents: i64,
}

#[derive(ToolArgs)]
struct StrictRefund {
    #[arg(strict = true)]
    amount_cents: i64,
}

#[derive(ToolArgs)]
struct LiteralRefund {
    #[arg(min = "1", max_len = 9)]
    amount_cents: i64,
    #[arg(rename = order, max_len = -1)]
    order_id: String,
}

fn main() {}
