use toolargs::ToolArgs;

#[derive(ToolArgs)]
#[arg(name = "issue_refund")]
struct IssueRefund {
    order_id: String,
}

#[derive(ToolArgs)]
#[toolargs(nmae = "lookup")]
struct Lookup {
    order_id: String,
}

#[derive(ToolArgs)]
#[toolargs(effect = "sends")]
struct SendEmail {
    to: String,
}

#[derive(ToolArgs)]
#[toolargs(unknown = "drop")]
struct LookupPolicy {
    order_id: String,
}

#[derive(ToolArgs)]
#[toolargs(name = "issue refund!")]
struct SpacedRefund {
    order_id: String,
}

#[derive(ToolArgs)]
#[toolargs(name = "issue_refund_for_an_order_that_arrived_damaged_late_or_not_at_all_xyz")]
struct LongRefund {
    order_id: String,
}

fn main() {}
