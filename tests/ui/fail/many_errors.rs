use toolargs::ToolArgs;

#[derive(ToolArgs)]
#[toolargs(name = "issue refund", effect = "pays")]
struct IssueRefund {
    #[arg(patern = "ord_[0-9]+")]
    order_id: String,
    #[arg(min = 100, max = 10)]
    amount_cents: i64,
    #[arg(min_len = 3)]
    notify: bool,
    #[arg(rename = "order_id")]
    order: String,
    labels: std::collections::HashMap<u64, String>,
}

fn main() {}
