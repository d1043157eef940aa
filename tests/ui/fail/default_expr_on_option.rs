use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(default = Some(10))]
    limit: Option<u32>,
}

fn main() {}
