use toolargs::ToolArgs;

// A struct is an object already: it takes no tag.
#[derive(ToolArgs)]
#[toolargs(tag = "type")]
struct Click {
    x: i64,
}

// A union is tagged or untagged, not both.
#[derive(ToolArgs)]
#[toolargs(tag = "type", untagged)]
enum Both {
    Click { x: i64 },
}

// The tag sits beside the fields, so no field may take its name; a tuple variant of several
// fields has no JSON names; a tagged union has no newtype variants.
#[derive(ToolArgs)]
#[toolargs(tag = "kind")]
enum Action {
    Click {
        #[arg(rename = "kind")]
        button: String,
    },
    Move(i64, i64),
    Type(String),
}

// An untagged union needs data in its variants.
#[derive(ToolArgs)]
#[toolargs(untagged)]
enum Color {
    Red,
    Green,
}

// Data without `tag` or `untagged` is refused, with both ways out.
#[derive(ToolArgs)]
enum Plain {
    Click { x: i64 },
}

// The semantic gate does not read inside variants, so a declaration there is refused.
#[derive(ToolArgs)]
#[toolargs(untagged)]
enum Charge {
    Amount {
        #[arg(critical)]
        cents: i64,
    },
}

// Two untagged variants that read the same values can never be told apart.
#[derive(ToolArgs)]
#[toolargs(untagged)]
enum Contact {
    Email(String),
    Phone(String),
    Named { name: String, id: u32 },
    Person { id: u32, name: String },
    // Different constraints: told apart by the value.
    Code(#[arg(pattern = "[A-Z]{3}")] String),
}

fn main() {}
