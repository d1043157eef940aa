use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(min = 1, max = 100, default = 0)]
    limit: u32,
    #[arg(pattern = "[a-z]+", default = "Relevance")]
    order_by: String,
    #[arg(max_len = 3, default = "newest")]
    sort: String,
}

fn main() {}
