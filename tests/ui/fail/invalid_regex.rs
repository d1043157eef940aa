use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Lookup {
    #[arg(pattern = "ord_[A-Z")]
    order_id: String,
}

fn main() {}
