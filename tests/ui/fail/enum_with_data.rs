use toolargs::ToolArgs;

#[derive(ToolArgs)]
enum Target {
    Order { id: String },
    Customer(String),
    Everyone,
}

fn main() {}
