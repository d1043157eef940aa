use toolargs::ToolArgs;

#[derive(ToolArgs)]
#[arg(name = "issue_refund")]
struct IssueRefund {
    order_id: String,
}

fn main() {}
