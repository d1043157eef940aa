use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Transfer {
    amount: i128,
}

fn main() {}
