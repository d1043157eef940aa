use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Refund {
    order_id: String,
    #[arg(rename = "order_id")]
    order: String,
}

fn main() {}
