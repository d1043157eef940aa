use toolargs::ToolArgs;

#[derive(ToolArgs)]
#[toolargs(unknown = "drop")]
struct Lookup {
    order_id: String,
}

fn main() {}
