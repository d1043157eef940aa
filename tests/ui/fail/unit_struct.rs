use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Ping;

fn main() {}
