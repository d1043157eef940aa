use toolargs::ToolArgs;

/// Implements nothing: a field of this type cannot be read.
struct Opaque;

#[derive(ToolArgs)]
struct Store {
    blob: Opaque,
}

#[derive(ToolArgs)]
struct Address {
    city: String,
}

type OrderId = String;

#[derive(ToolArgs)]
struct Ship {
    // A derived struct takes no pattern and no bounds.
    #[arg(pattern = "[a-z]+")]
    to: Address,
    #[arg(min = 1)]
    from: Address,
    #[arg(min_items = 1)]
    back: Option<Address>,
    // An alias of String takes them: checked through ArgType, not by name.
    #[arg(pattern = "ord_[0-9]+", max_len = 12)]
    order: OrderId,
}

fn main() {}

#[derive(ToolArgs)]
struct Labels {
    // Keys are constrained on maps only, and the pattern must compile.
    #[arg(key_pattern = "[a-z]+")]
    name: String,
    #[arg(key_pattern = "[a-z")]
    tags: std::collections::BTreeMap<String, String>,
    // Values take the constraints of their type.
    #[arg(min = 1)]
    notes: std::collections::HashMap<String, String>,
}

#[derive(ToolArgs)]
struct Visit {
    // A type read through ArgType that is no map takes no key pattern.
    #[arg(key_pattern = "[a-z]+")]
    site: Address,
}

#[derive(ToolArgs)]
struct Audience {
    // A set's items take the constraints of their type.
    #[arg(pattern = "[0-9]+")]
    users: std::collections::BTreeSet<u32>,
}

#[derive(ToolArgs)]
struct Hook {
    // An open value must be asked for with `#[arg(any)]`.
    body: serde_json::Value,
    // And `any` is for open values only.
    #[arg(any)]
    url: String,
}
