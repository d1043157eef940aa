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

fn main() {}
