use chrono::NaiveDate;

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

#[derive(ToolArgs)]
struct Rental {
    #[arg(semantic = "money")]
    price: f64,
    #[arg(semantic = "duration")]
    length: f64,
    #[arg(semantic = "quantity", unit = "l")]
    volume: f64,
}

#[derive(ToolArgs)]
struct Charge {
    #[arg(semantic = "mony", currency = "USD")]
    amount: f64,
    #[arg(semantic = "weight", unit = "kg")]
    parcel: f64,
}

#[derive(ToolArgs)]
struct Part {
    sku: String,
}

#[derive(ToolArgs)]
struct Order {
    #[arg(semantic = "money", currency = "USD")]
    paid: bool,
    #[arg(semantic = "date")]
    day: i64,
    #[arg(semantic = "datetime")]
    at: NaiveDate,
    #[arg(semantic = "entity")]
    part: Part,
    #[arg(semantic = "duration", unit = "h")]
    window: Vec<bool>,
}

fn main() {}
