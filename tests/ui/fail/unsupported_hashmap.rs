use std::collections::HashMap;

use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Tag {
    labels: HashMap<String, String>,
}

fn main() {}
