use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(min_items = 1, max_items = 5)]
    query: String,
}

fn main() {}
