use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Update {
    note: Option<Option<String>>,
}

fn main() {}
