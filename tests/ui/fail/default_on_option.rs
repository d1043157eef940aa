use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(default)]
    limit: Option<u32>,
}

fn main() {}
