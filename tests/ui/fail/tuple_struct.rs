use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct OrderId(String);

fn main() {}
