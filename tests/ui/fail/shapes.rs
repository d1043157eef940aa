use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Range(i64, i64);

#[derive(ToolArgs)]
struct Ping;

#[derive(ToolArgs)]
union Bits {
    int: u32,
    float: f32,
}

#[derive(ToolArgs)]
struct Page<T> {
    items: Vec<T>,
}

#[derive(ToolArgs)]
enum Reason {}

#[derive(ToolArgs)]
enum Target {
    Order { id: String },
    Customer(String),
    Everyone,
}

fn main() {}
