use toolargs::ToolArgs;

#[derive(ToolArgs)]
#[toolargs(name = "issue refund!")]
struct IssueRefund {
    order_id: String,
}

fn main() {}
