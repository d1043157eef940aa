use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(min = 1, max = 80)]
    query: String,
}

fn main() {}
