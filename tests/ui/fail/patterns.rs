use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Lookup {
    #[arg(pattern = "ord_[A-Z")]
    order_id: String,
}

#[derive(ToolArgs)]
struct EcmaLookup {
    #[arg(pattern = r"ord_\d{8}")]
    order_id: String,
    #[arg(pattern = "(?i)eur|usd")]
    currency: String,
}

fn main() {}
