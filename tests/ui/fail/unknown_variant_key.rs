use toolargs::ToolArgs;

#[derive(ToolArgs)]
enum Reason {
    #[arg(alias = "broken")]
    Damaged,
    Late,
}

fn main() {}
