use toolargs::ToolArgs;

// The constraint must fit the inner type.
#[derive(ToolArgs)]
struct Count(#[arg(pattern = "[0-9]+")] u32);

// A newtype has no keys and no JSON name of its own.
#[derive(ToolArgs)]
#[toolargs(unknown = "strip", description = "An order.")]
struct OrderRef(#[arg(rename = "id", default, critical)] String);

// Constraints belong inside the newtype: where it is used, they are not honoured.
#[derive(ToolArgs)]
struct Code(#[arg(max_len = 8)] String);

#[derive(ToolArgs)]
struct Lookup {
    #[arg(pattern = "[A-Z]+")]
    code: Code,
}

fn main() {}
