use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Lookup {
    order_id: &'static str,
}

fn main() {}
