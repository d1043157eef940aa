use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Point {
    at: (i64, i64),
}

fn main() {}
