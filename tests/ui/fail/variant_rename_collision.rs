use toolargs::ToolArgs;

#[derive(ToolArgs)]
enum Reason {
    Damaged,
    #[arg(rename = "damaged")]
    Broken,
}

fn main() {}
