//! `toolargs <command> --help` against the guides: every option a command's help lists is
//! named in the guide that documents the command, with each value it takes; every option a
//! guide names is listed by a command the guide speaks of; and the crate README names every
//! command. A guide that falls behind the code fails here, naming the option and the guide.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

/// A guide, and the commands whose options it names.
struct Guide {
    /// The path from the workspace root.
    path: &'static str,
    /// The commands whose every option (and every value of an option that takes a fixed set)
    /// the guide names.
    documents: &'static [&'static str],
    /// The commands whose options the guide may name: those it documents and those it points
    /// to (`""` is `toolargs` itself, with `--help` and `--version`).
    speaks_of: &'static [&'static str],
}

const GUIDES: &[Guide] = &[
    Guide {
        path: "toolargs-cli/README.md",
        documents: &[],
        speaks_of: &["", "replay", "check", "gate", "pin", "lint"],
    },
    Guide {
        path: "src/docs/replay.md",
        documents: &["replay", "check"],
        speaks_of: &["replay", "check", "gate"],
    },
    Guide {
        path: "src/docs/dialects.md",
        documents: &["lint"],
        speaks_of: &["lint", "gate"],
    },
    Guide {
        path: "toolargs-gate/README.md",
        documents: &["gate", "pin"],
        speaks_of: &["gate", "pin", "replay"],
    },
];

/// Options the guides name that are not the command's: cargo's, where they say how to build.
const NOT_TOOLARGS: &[&str] = &["--no-default-features"];

/// Options every command has, which no guide needs to name.
const BUILT_IN: &[&str] = &["--help", "--version"];

/// One option as `--help` lists it, with the values it takes when they are a fixed set.
#[derive(Debug, PartialEq)]
struct HelpOption {
    name: String,
    values: Vec<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The text of `toolargs COMMAND --help` (`""` for `toolargs --help`).
fn help(command: &str) -> String {
    let mut run = Command::new(env!("CARGO_BIN_EXE_toolargs"));
    if !command.is_empty() {
        run.arg(command);
    }
    let out = run.arg("--help").output().unwrap();
    assert!(out.status.success(), "toolargs {command} --help failed");
    String::from_utf8(out.stdout).unwrap()
}

/// The lines of the section of `help` headed `title` (`Options:`, `Commands:`).
fn section<'h>(help: &'h str, title: &str) -> Vec<&'h str> {
    help.lines()
        .skip_while(|line| *line != title)
        .skip(1)
        .take_while(|line| line.is_empty() || line.starts_with(' '))
        .collect()
}

/// The options of a help text. An option's entry starts at a line indented at most 6 spaces
/// (`  -h, --help`, `      --log <LOG>`); its description and values are indented further.
fn help_options(help: &str) -> Vec<HelpOption> {
    let mut out: Vec<HelpOption> = Vec::new();
    let mut in_values = false;
    for line in section(help, "Options:") {
        let text = line.trim_start();
        let indent = line.len() - text.len();
        if indent <= 6 && text.starts_with('-') {
            let long = text
                .split([',', ' '])
                .find(|word| word.starts_with("--"))
                .unwrap_or_else(|| panic!("an option without a long name: {line:?}"));
            out.push(HelpOption {
                name: long.to_owned(),
                values: Vec::new(),
            });
            in_values = false;
        }
        let Some(option) = out.last_mut() else {
            continue;
        };
        // Values without descriptions: `[possible values: a, b]`.
        if let Some(rest) = text.split("[possible values: ").nth(1) {
            let list = rest.split(']').next().unwrap_or_default();
            option
                .values
                .extend(list.split(", ").map(|v| v.trim().to_owned()));
        }
        // Values with descriptions: `Possible values:` then `- name: what` or `- name`.
        if text == "Possible values:" {
            in_values = true;
        } else if in_values && indent > 6 {
            match text.strip_prefix("- ") {
                Some(value) => {
                    let name = value.split(':').next().unwrap_or_default();
                    option.values.push(name.trim().to_owned());
                }
                None if text.is_empty() => {}
                None => in_values = false,
            }
        }
    }
    out
}

/// The subcommands `toolargs --help` lists, without `help`.
fn commands() -> Vec<String> {
    section(&help(""), "Commands:")
        .iter()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Every long option named in `text`: `--` after a space, a backtick, a bracket (not inside a
/// word, not `---`), then a lowercase name whose parts are joined by `-` (`--log-chain`,
/// `--max-body-bytes`). A bare `--` is not an option.
fn options_named(text: &str) -> BTreeSet<String> {
    let bytes = text.as_bytes();
    let mut out = BTreeSet::new();
    let mut at = 0;
    while let Some(found) = text[at..].find("--") {
        let start = at + found;
        at = start + 2;
        let before = start.checked_sub(1).map(|i| bytes[i]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            continue;
        }
        if !bytes.get(at).is_some_and(u8::is_ascii_lowercase) {
            continue;
        }
        let len = text[at..]
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
            .unwrap_or(text.len() - at);
        let name = text[start..at + len].trim_end_matches('-');
        at += len;
        out.insert(name.to_owned());
    }
    out
}

/// The code of a guide: its inline code spans and the lines of its fenced blocks, each one
/// string with its white space as single spaces.
fn code_spans(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut prose = String::new();
    let mut fenced = false;
    fn flush(prose: &mut String, out: &mut Vec<String>) {
        out.extend(prose.split('`').skip(1).step_by(2).map(words));
        prose.clear();
    }
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            flush(&mut prose, &mut out);
            fenced = !fenced;
        } else if fenced {
            out.push(words(line));
        } else {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    flush(&mut prose, &mut out);
    out
}

fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// True when the guide's code names `value` of `option`: as a span of its own (`` `jsonl` ``),
/// or after the option (`` `--unchecked block` ``, `--format=json`).
fn value_named(spans: &[String], option: &str, value: &str) -> bool {
    spans.iter().any(|span| {
        let words: Vec<&str> = span.split(' ').collect();
        span == value
            || words.contains(&format!("{option}={value}").as_str())
            || words.windows(2).any(|w| w == [option, value])
    })
}

/// What is wrong with one guide, one line each.
fn guide_problems(guide: &Guide, helps: &[(String, Vec<HelpOption>)]) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(guide.path))
        .unwrap_or_else(|e| panic!("{}: {e}", guide.path));
    let named = options_named(&text);
    let spans = code_spans(&text);
    let options_of = |command: &str| {
        &helps
            .iter()
            .find(|(c, _)| c == command)
            .unwrap_or_else(|| panic!("{}: no command `{command}`", guide.path))
            .1
    };
    let mut problems = Vec::new();
    for command in guide.documents {
        for option in options_of(command) {
            if BUILT_IN.contains(&option.name.as_str()) {
                continue;
            }
            if !named.contains(&option.name) {
                problems.push(format!(
                    "{} does not name `{}`, which `toolargs {command} --help` lists",
                    guide.path, option.name
                ));
                continue;
            }
            for value in &option.values {
                if !value_named(&spans, &option.name, value) {
                    problems.push(format!(
                        "{} does not name the value `{value}` of `{}` (as `{} {value}` or \
                         `{value}`), which `toolargs {command} --help` lists",
                        guide.path, option.name, option.name
                    ));
                }
            }
        }
    }
    for name in &named {
        let listed = guide
            .speaks_of
            .iter()
            .any(|command| options_of(command).iter().any(|o| &o.name == name));
        if !listed && !NOT_TOOLARGS.contains(&name.as_str()) {
            let commands: Vec<String> = guide
                .speaks_of
                .iter()
                .map(|c| format!("`toolargs {c} --help`").replace("  ", " "))
                .collect();
            problems.push(format!(
                "{} names `{name}`, which none of {} lists",
                guide.path,
                commands.join(", ")
            ));
        }
    }
    problems
}

#[test]
fn every_option_of_the_help_is_in_its_guide_and_every_option_of_a_guide_in_the_help() {
    let mut commands = commands();
    commands.push(String::new());
    let helps: Vec<(String, Vec<HelpOption>)> = commands
        .iter()
        .map(|command| (command.clone(), help_options(&help(command))))
        .collect();
    for (command, options) in &helps {
        assert!(
            options.iter().any(|o| o.name == "--help"),
            "no options read from `toolargs {command} --help`"
        );
    }
    let problems: Vec<String> = GUIDES
        .iter()
        .flat_map(|guide| guide_problems(guide, &helps))
        .collect();
    assert!(
        problems.is_empty(),
        "the guides and `--help` disagree:\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn every_command_has_a_guide_and_the_crate_readme_names_it() {
    let readme = std::fs::read_to_string(root().join("toolargs-cli/README.md")).unwrap();
    let mut problems = Vec::new();
    for command in commands() {
        if !GUIDES
            .iter()
            .any(|g| g.documents.contains(&command.as_str()))
        {
            problems.push(format!("no guide documents `toolargs {command}`"));
        }
        if !readme.contains(&format!("toolargs {command}")) {
            problems.push(format!(
                "toolargs-cli/README.md does not name `toolargs {command}`"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn options_are_read_whole_and_only_where_they_are_options() {
    let text = "`--log-chain` and --max-body-bytes, with --listen: `[\"gate\", \"--\", \"uvx\"]`; \
                |---|---|, a--b, x --9, (`--log FILE`), `--unchecked block`.\n--jobs";
    let named: Vec<String> = options_named(text).into_iter().collect();
    assert_eq!(
        named,
        [
            "--jobs",
            "--listen",
            "--log",
            "--log-chain",
            "--max-body-bytes",
            "--unchecked"
        ]
    );
    let spans = code_spans(
        "a `--unchecked\nblock` b `jsonl`\n```sh\ntoolargs replay --format  json x\n```\n",
    );
    assert_eq!(
        spans,
        [
            "--unchecked block",
            "jsonl",
            "toolargs replay --format json x"
        ]
    );
    assert!(value_named(&spans, "--unchecked", "block"));
    assert!(value_named(&spans, "--format", "json"));
    assert!(value_named(&spans, "--format", "jsonl"));
    assert!(!value_named(&spans, "--format", "html"));
}

#[test]
fn options_and_their_values_are_read_from_the_help() {
    let options = help_options(&help("gate"));
    let log_chain = options.iter().find(|o| o.name == "--log-chain").unwrap();
    assert!(log_chain.values.is_empty());
    let unchecked = options.iter().find(|o| o.name == "--unchecked").unwrap();
    assert_eq!(unchecked.values, ["pass", "block"]);
    let options = help_options(&help("replay"));
    let format = options.iter().find(|o| o.name == "--format").unwrap();
    assert_eq!(
        format.values,
        ["table", "json", "markdown", "html", "jsonl"]
    );
    assert!(options.iter().any(|o| o.name == "--max-rise"));
    let short = help_options(
        "Options:\n      --format <FORMAT>  Output [default: table] [possible values: table, json]\n  -h, --help  Print help\n",
    );
    assert_eq!(
        short,
        [
            HelpOption {
                name: "--format".into(),
                values: vec!["table".into(), "json".into()]
            },
            HelpOption {
                name: "--help".into(),
                values: vec![]
            }
        ]
    );
}
