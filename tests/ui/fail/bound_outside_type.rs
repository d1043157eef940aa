use toolargs::ToolArgs;

#[derive(ToolArgs)]
struct Volume {
    #[arg(max = 300)]
    level: u8,
}

fn main() {}
