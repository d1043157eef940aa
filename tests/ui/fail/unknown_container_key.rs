use toolargs::ToolArgs;

#[derive(ToolArgs)]
#[toolargs(nmae = "lookup")]
struct Lookup {
    order_id: String,
}

fn main() {}
