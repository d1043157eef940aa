//! A crate that re-exports toolargs names the facade with `crate = "..."`: generated code goes
//! through that path.

mod reexport {
    pub use toolargs as facade;
}

use reexport::facade::ToolArgs;

/// Look a word up.
#[derive(reexport::facade::ToolArgs)]
#[toolargs(crate = "reexport::facade", effect = read_only)]
struct Lookup {
    #[arg(max_len = 40)]
    word: String,
    mode: Mode,
}

#[derive(reexport::facade::ToolArgs)]
#[toolargs(crate = "crate::reexport::facade")]
enum Mode {
    Exact,
    Prefix,
}

fn main() {
    let parsed = Lookup::parse(r#"{"word": "gate", "mode": "EXACT"}"#).unwrap();
    assert_eq!(parsed.args.word, "gate");
    assert!(matches!(parsed.args.mode, Mode::Exact));
    assert_eq!(parsed.repairs.len(), 1);
}
