use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Refund {
    #[arg(min = "1", max_len = 9)]
    amount_cents: i64,
    #[arg(rename = order, max_len = -1)]
    order_id: String,
}

fn main() {}
