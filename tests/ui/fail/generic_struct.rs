use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Page<T> {
    items: Vec<T>,
}

fn main() {}
