use toolargs::ToolArgs;

#[derive(ToolArgs)]
enum Unit {
    #[arg(rename = "MB")]
    Megabyte,
    #[arg(rename = "mb")]
    Millibyte,
}

fn main() {}
