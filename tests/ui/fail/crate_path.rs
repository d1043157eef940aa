use toolargs::ToolArgs;

// Not a path.
#[derive(ToolArgs)]
#[toolargs(crate = "not a path")]
struct Malformed {
    a: i64,
}

// A path, but nothing is there: the generated code is written against it, so the compiler
// says so at the attribute's item.
#[derive(ToolArgs)]
#[toolargs(crate = "nowhere")]
struct Elsewhere {
    a: i64,
}

fn main() {}
