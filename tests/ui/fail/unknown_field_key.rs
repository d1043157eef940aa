use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Lookup {
    #[arg(patern = "ord_[0-9]+")]
    order_id: String,
}

fn main() {}
