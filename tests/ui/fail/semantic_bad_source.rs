use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Invoice {
    #[arg(semantic = "money", currency = "usd")]
    amount: f64,
    #[arg(semantic = "money", currency = "curency")]
    fee: f64,
    #[arg(semantic = "money", currency = "tax")]
    tax: f64,
    #[arg(semantic = "money", currency = "rate")]
    total: f64,
    rate: i64,
    currency: String,
    #[arg(semantic = "duration", unit = "hourz")]
    labour: f64,
}

fn main() {}
