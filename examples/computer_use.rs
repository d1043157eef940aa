//! A computer-use tool whose `action` is a union: one of click, type, scroll or screenshot,
//! named by its `type` key. Prints the schema a strict OpenAI model is shown, then a clean, a
//! repaired and a rejected call with what the model reads back. Run with
//! `cargo run --example computer_use`.

use toolargs::{Dialect, ToolArgs};

/// Act on the screen.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "external")]
struct Computer {
    action: Action,
}

/// One step on the screen.
#[derive(ToolArgs, Debug)]
#[toolargs(tag = "type")]
enum Action {
    /// Click at a point, in pixels from the top left.
    Click {
        #[arg(min = 0, max = 7680)]
        x: i64,
        #[arg(min = 0, max = 4320)]
        y: i64,
    },
    /// Type text into the focused field.
    #[arg(rename = "type")]
    TypeText {
        #[arg(min_len = 1)]
        text: String,
    },
    /// Scroll by a number of lines.
    Scroll {
        dx: i64,
        dy: i64,
    },
    Screenshot,
}

fn main() {
    let definition = Computer::tool_definition(Dialect::OpenAiChat { strict: true });
    println!(
        "== the tool, OpenAI strict mode\n{}\n",
        serde_json::to_string_pretty(&definition).expect("JSON")
    );
    let calls = [
        (
            "clean",
            r#"{"action": {"type": "click", "x": 640, "y": 360}}"#,
        ),
        (
            "repaired",
            r#"{"action": {"type": "Scroll", "dx": 0, "dy": "-3"}}"#,
        ),
        ("rejected", r#"{"action": {"type": "drag", "x": 1}}"#),
        (
            "rejected",
            r#"{"action": {"type": "click", "x": -5, "y": 10}}"#,
        ),
    ];
    for (label, raw) in calls {
        println!("== {label}: {raw}");
        match Computer::parse(raw) {
            Ok(parsed) => {
                println!("   args: {:?}", parsed.args);
                for repair in &parsed.repairs {
                    println!(
                        "   repair {} at {}: {} -> {}",
                        repair.rule, repair.path, repair.before, repair.after
                    );
                }
                println!("   canonical: {}", parsed.args.to_json());
            }
            Err(rejection) => println!("   for the model: {}", rejection.for_model()),
        }
        println!();
    }
}
