use toolargs::ToolArgs;

#[derive(ToolArgs)]
enum Reason {
    Damaged,
    Late,
}

#[derive(ToolArgs)]
struct Refund {
    #[arg(default)]
    reason: Reason,
}

fn main() {}
