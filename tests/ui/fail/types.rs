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
