use chrono::NaiveDate;
use toolargs::ToolArgs;

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
