use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Booking {
    #[arg(currency = "USD", minor_units)]
    price: i64,
    #[arg(semantic = "money", currency = "USD", unit = "hours")]
    fee: f64,
    #[arg(semantic = "duration", unit = "hours", family = "time")]
    length: f64,
    #[arg(semantic = "date", entity = "person")]
    day: String,
    #[arg(semantic = "money", currency = "EUR", minor_units)]
    deposit: f64,
    #[arg(semantic = "quantity", family = "Volume", unit = "l")]
    volume: f64,
}

fn main() {}
