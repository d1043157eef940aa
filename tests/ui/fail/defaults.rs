use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(default = Some(10))]
    limit: Option<u32>,
}

#[derive(ToolArgs)]
struct DefaultSearch {
    #[arg(default)]
    limit: Option<u32>,
}

#[derive(ToolArgs)]
struct BoundedSearch {
    #[arg(min = 1, max = 100, default = 0)]
    limit: u32,
    #[arg(pattern = "[a-z]+", default = "Relevance")]
    order_by: String,
    #[arg(max_len = 3, default = "newest")]
    sort: String,
}

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
