use toolargs::ToolArgs;

#[derive(ToolArgs)]
enum Speed {
    #[arg(synonym = "slow", synonym = "Express")]
    Standard,
    #[arg(synonym = "fast", synonym = "")]
    Express,
    #[arg(synonym = "FAST", synonym = "next_day", synonym = "next_day")]
    Overnight,
}

fn main() {}
