use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Booking {
    #[arg(semantic = "money")]
    price: f64,
    #[arg(semantic = "duration")]
    length: f64,
    #[arg(semantic = "quantity", unit = "l")]
    volume: f64,
}

fn main() {}
