use toolargs::ToolArgs;

#[derive(ToolArgs)]
enum Reason {}

fn main() {}
