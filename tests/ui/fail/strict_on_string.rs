use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Lookup {
    #[arg(strict)]
    order_id: String,
}

fn main() {}
