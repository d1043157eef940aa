use toolargs::ToolArgs;

#[derive(ToolArgs)]
#[toolargs(name = "issue_refund_for_an_order_that_arrived_damaged_late_or_not_at_all_xyz")]
struct IssueRefund {
    order_id: String,
}

fn main() {}
