use toolargs::ToolArgs;

#[derive(ToolArgs)]
enum Reason {
    #[arg(rename = "")]
    Damaged,
    Late,
}

#[derive(ToolArgs)]
struct Refund {
    #[arg(rename = " ")]
    reason: Reason,
}

#[derive(ToolArgs)]
struct OrderRefund {
    order_id: String,
    #[arg(rename = "order_id")]
    order: String,
}

#[derive(ToolArgs)]
enum Cause {
    Damaged,
    #[arg(rename = "damaged")]
    Broken,
}

#[derive(ToolArgs)]
enum Unit {
    #[arg(rename = "MB")]
    Megabyte,
    #[arg(rename = "mb")]
    Millibyte,
}

#[derive(ToolArgs)]
enum Speed {
    #[arg(synonym = "slow", synonym = "Express")]
    Standard,
    #[arg(synonym = "fast", synonym = "")]
    Express,
    #[arg(synonym = "FAST", synonym = "next_day", synonym = "next_day")]
    Overnight,
}

fn main() {}
