use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Invoice {
    #[arg(semantic = "mony", currency = "USD")]
    amount: f64,
    #[arg(semantic = "weight", unit = "kg")]
    parcel: f64,
}

fn main() {}
