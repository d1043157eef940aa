use toolargs::ToolArgs;

#[derive(ToolArgs)]
#[toolargs(effect = "sends")]
struct SendEmail {
    to: String,
}

fn main() {}
