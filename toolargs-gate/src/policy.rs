//! The policy file: what the gate holds about a tool when the server does not say it.
//!
//! A policy is a list of rules, each for a tool name or a glob of names (`*` stands for any
//! run of characters, `?` for one). A rule may set the tool's effect (`read_only`,
//! `additive`, `destructive`, `external`), which replaces what its MCP annotations say; the
//! unknown-key policy (`strip` or `reject`), which replaces what the effect implies; the
//! fields that must be sent exactly as the schema says (`strict`: a value that would need a
//! repair is rejected with `repair_forbidden`), each a top-level name or a path below it
//! (`order.amount_cents`, `lines[].amount`); `confirm`, which makes the
//! gate ask the user before it forwards a call; `meaning`, what the arguments mean (a table of
//! argument paths, each with the keys of the derive's `#[arg(...)]`: `semantic`, `currency`,
//! `minor_units`, `unit`, `family`, `entity`, `critical`, `synonyms`); and `idempotent`, for a
//! tool whose repeated call does one thing.
//!
//! The rule for a tool is the one that names it exactly, or else the first glob in file
//! order that matches it. Rules do not merge: the rule found is the whole policy of the tool.
//!
//! The file is TOML or JSON (by its extension, `.toml` or `.json`, or else by its first
//! character). Every error names the line and the column, and a key the policy does not
//! know is an error.
//!
//! ```
//! use toolargs_gate::Policy;
//! use toolargs_core::effect::Effect;
//!
//! let policy = Policy::from_toml(r#"
//! [[tools]]
//! name = "refund"
//! effect = "external"
//! strict = ["amount_cents"]
//! confirm = true
//!
//! [[tools]]
//! name = "get_*"
//! effect = "read_only"
//! "#)?;
//! let refund = policy.rule_for("refund").unwrap();
//! assert_eq!((refund.effect, refund.confirm), (Some(Effect::External), true));
//! assert_eq!(policy.rule_for("get_order").unwrap().effect, Some(Effect::ReadOnly));
//! assert!(policy.rule_for("delete_order").is_none());
//!
//! let error = Policy::from_toml("[[tools]]\nname = \"refund\"\nconfirm = \"yes\"\n").unwrap_err();
//! assert_eq!(error.position(), Some((3, 11)));
//! # Ok::<(), toolargs_gate::PolicyError>(())
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer};
use toolargs_core::effect::Effect;
use toolargs_core::spec::UnknownPolicy;
use toolargs_dynamic::Spec;
use toolargs_semantic::Meanings;

/// The rules of a policy file, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    rules: Vec<ToolRule>,
}

/// The policy of one tool, or of the tools a glob matches.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ToolRule {
    /// The tool's name, or a glob (`*`, `?`) of names.
    #[serde(deserialize_with = "non_empty")]
    pub name: String,
    /// The tool's effect, in place of its annotations.
    #[serde(default, deserialize_with = "effect")]
    pub effect: Option<Effect>,
    /// What to do with keys the tool does not declare, in place of what its effect implies.
    #[serde(default, deserialize_with = "unknown_policy")]
    pub unknown: Option<UnknownPolicy>,
    /// Top-level fields that are never repaired: a value that needs a repair is rejected.
    #[serde(default)]
    pub strict: Vec<String>,
    /// Ask the user before forwarding a call (an MCP elicitation); refuse it when the client
    /// cannot be asked.
    #[serde(default)]
    pub confirm: bool,
    /// What the tool's arguments mean, by path (`amount_cents`, `order.amount_cents`,
    /// `lines[].amount`), in the derive's vocabulary: corrections are compared with the
    /// original by it, and duplicate actions found (see the crate docs).
    #[serde(default)]
    pub meaning: Meanings,
    /// The same call made twice does one thing: a call that repeats one forwarded lately is
    /// not held as a duplicate action.
    #[serde(default)]
    pub idempotent: bool,
}

/// The file's shape: `tools`, a list of rules.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    #[serde(default)]
    tools: Vec<ToolRule>,
}

/// A policy file that does not load: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyError {
    file: Option<PathBuf>,
    /// Line and column, both from 1.
    position: Option<(usize, usize)>,
    message: String,
}

impl PolicyError {
    /// The line and column (both from 1) the error is at, when it is at one.
    pub fn position(&self) -> Option<(usize, usize)> {
        self.position
    }

    /// What is wrong, without the place.
    pub fn message(&self) -> &str {
        &self.message
    }

    fn in_file(mut self, file: &Path) -> PolicyError {
        self.file = Some(file.to_owned());
        self
    }
}

impl fmt::Display for PolicyError {
    /// `file:line:column: message`, with what is known of the place.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_located(f, self.file.as_deref(), self.position, &self.message)
    }
}

/// `message` after what is known of its place, `file:line:column: `: how the errors of the
/// files the gate reads (a policy, pins) are written.
pub(crate) fn write_located(
    f: &mut fmt::Formatter<'_>,
    file: Option<&Path>,
    position: Option<(usize, usize)>,
    message: &str,
) -> fmt::Result {
    if let Some(file) = file {
        write!(f, "{}:", file.display())?;
    }
    if let Some((line, column)) = position {
        write!(f, "{line}:{column}:")?;
    }
    if file.is_some() || position.is_some() {
        f.write_str(" ")?;
    }
    f.write_str(message)
}

impl std::error::Error for PolicyError {}

/// A strict field the policy names for a tool whose schema does not declare it (at its top
/// level, or along the path given): the name is ignored for that tool.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StrictFieldMissing {
    /// The tool.
    pub tool: String,
    /// The field the policy names.
    pub field: String,
}

impl Policy {
    /// Reads a policy file: JSON when its name ends in `.json`, TOML when it ends in `.toml`,
    /// and otherwise JSON when its first character is `{`, TOML when not.
    pub fn load(path: &Path) -> Result<Policy, PolicyError> {
        let text = std::fs::read_to_string(path).map_err(|err| {
            PolicyError {
                file: None,
                position: None,
                message: format!("cannot read the policy file: {err}"),
            }
            .in_file(path)
        })?;
        let json = match path.extension().and_then(|e| e.to_str()) {
            Some(ext) if ext.eq_ignore_ascii_case("json") => true,
            Some(ext) if ext.eq_ignore_ascii_case("toml") => false,
            _ => text.trim_start().starts_with('{'),
        };
        let policy = if json {
            Policy::from_json(&text)
        } else {
            Policy::from_toml(&text)
        };
        policy.map_err(|err| err.in_file(path))
    }

    /// Reads a policy from TOML: `[[tools]]` tables, one per rule.
    pub fn from_toml(text: &str) -> Result<Policy, PolicyError> {
        let file: PolicyFile = toml::from_str(text).map_err(|err| PolicyError {
            file: None,
            position: err.span().map(|span| position_of(text, span.start)),
            message: err.message().trim_end().to_owned(),
        })?;
        Ok(Policy { rules: file.tools })
    }

    /// Reads a policy from JSON: `{"tools": [rule, ...]}`.
    pub fn from_json(text: &str) -> Result<Policy, PolicyError> {
        let file: PolicyFile = serde_json::from_str(text).map_err(|err| {
            let position = (err.line() > 0).then(|| (err.line(), err.column().max(1)));
            // The error's text ends with its position, which the error gives apart.
            let text = err.to_string();
            let message = match text.rfind(" at line ") {
                Some(at) if position.is_some() => text[..at].to_owned(),
                _ => text,
            };
            PolicyError {
                file: None,
                position,
                message,
            }
        })?;
        Ok(Policy { rules: file.tools })
    }

    /// The rules, in file order.
    pub fn rules(&self) -> &[ToolRule] {
        &self.rules
    }

    /// The rule for `tool`: the one that names it exactly, or else the first glob in file
    /// order that matches it.
    pub fn rule_for(&self, tool: &str) -> Option<&ToolRule> {
        self.rules
            .iter()
            .find(|rule| !is_glob(&rule.name) && rule.name == tool)
            .or_else(|| {
                self.rules
                    .iter()
                    .find(|rule| is_glob(&rule.name) && glob_matches(&rule.name, tool))
            })
    }

    /// Whether calls to `tool` wait for the user's confirmation.
    pub fn confirms(&self, tool: &str) -> bool {
        self.rule_for(tool).is_some_and(|rule| rule.confirm)
    }

    /// What the policy says `tool`'s arguments mean.
    pub fn meaning(&self, tool: &str) -> Meanings {
        self.rule_for(tool)
            .map(|rule| rule.meaning.clone())
            .unwrap_or_default()
    }

    /// Whether the policy says a repeated call to `tool` does one thing.
    pub fn idempotent(&self, tool: &str) -> bool {
        self.rule_for(tool).is_some_and(|rule| rule.idempotent)
    }

    /// `spec`, the tool `tool` as loaded, with the policy's effect, unknown-key policy and
    /// strict fields set; and the strict fields its schema does not declare.
    pub fn apply(&self, tool: &str, mut spec: Spec) -> (Spec, Vec<StrictFieldMissing>) {
        let Some(rule) = self.rule_for(tool) else {
            return (spec, Vec::new());
        };
        if let Some(effect) = rule.effect {
            spec = spec.with_effect(effect);
        }
        if let Some(unknown) = rule.unknown {
            spec = spec.with_unknown_policy(unknown);
        }
        let mut missing = Vec::new();
        for field in &rule.strict {
            // A top-level name as written, else a path (which a name holding `.` is not).
            if !spec.make_strict(field) && !spec.make_strict_at(field) {
                missing.push(StrictFieldMissing {
                    tool: tool.to_owned(),
                    field: field.clone(),
                });
            }
        }
        (spec, missing)
    }
}

/// Whether a rule's name is a glob rather than a tool's name.
fn is_glob(name: &str) -> bool {
    name.contains(['*', '?'])
}

/// Whether `glob` matches all of `name`: `*` is any run of characters, `?` one character.
fn glob_matches(glob: &str, name: &str) -> bool {
    let glob: Vec<char> = glob.chars().collect();
    let name: Vec<char> = name.chars().collect();
    let (mut g, mut n) = (0, 0);
    // Where the last `*` was, and the character of `name` it would next swallow: on a
    // mismatch the star takes one more character, so the match takes linear steps per star.
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match glob.get(g) {
            Some('*') => {
                star = Some((g, n));
                g += 1;
            }
            Some(&c) if c == '?' || c == name[n] => {
                g += 1;
                n += 1;
            }
            _ => match star {
                Some((at, swallowed)) => {
                    g = at + 1;
                    n = swallowed + 1;
                    star = Some((at, swallowed + 1));
                }
                None => return false,
            },
        }
    }
    glob[g..].iter().all(|&c| c == '*')
}

/// The line and column (from 1, in characters) of byte `offset` of `text`.
fn position_of(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .map_or(0, |last| last.chars().count())
        + 1;
    (line, column)
}

fn non_empty<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let name = String::deserialize(deserializer)?;
    if name.is_empty() {
        return Err(serde::de::Error::custom("the tool name is empty"));
    }
    Ok(name)
}

fn effect<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Effect>, D::Error> {
    let name = String::deserialize(deserializer)?;
    let known = [
        Effect::ReadOnly,
        Effect::Additive,
        Effect::Destructive,
        Effect::External,
    ];
    match Effect::from_name(&name) {
        Some(effect) => Ok(Some(effect)),
        None => Err(serde::de::Error::custom(format!(
            "unknown effect `{name}`, expected one of {}",
            known.map(Effect::as_str).join(", ")
        ))),
    }
}

fn unknown_policy<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<UnknownPolicy>, D::Error> {
    let name = String::deserialize(deserializer)?;
    [UnknownPolicy::Strip, UnknownPolicy::Reject]
        .into_iter()
        .find(|policy| policy.as_str() == name)
        .map(Some)
        .ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown key policy `{name}`, expected strip or reject"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_and_json_read_the_same_policy() {
        let toml = Policy::from_toml(
            r#"
[[tools]]
name = "refund"
effect = "external"
unknown = "strip"
strict = ["amount_cents", "note"]
confirm = true

[[tools]]
name = "search_*"
"#,
        )
        .unwrap();
        let json = Policy::from_json(
            r#"{"tools": [
                {"name": "refund", "effect": "external", "unknown": "strip",
                 "strict": ["amount_cents", "note"], "confirm": true},
                {"name": "search_*"}
            ]}"#,
        )
        .unwrap();
        assert_eq!(toml, json);
        let refund = &toml.rules()[0];
        assert_eq!(refund.effect, Some(Effect::External));
        assert_eq!(refund.unknown, Some(UnknownPolicy::Strip));
        assert_eq!(refund.strict, ["amount_cents", "note"]);
        assert!(refund.confirm);
        let search = &toml.rules()[1];
        assert_eq!(
            (search.effect, search.unknown, search.confirm),
            (None, None, false)
        );
        assert!(search.strict.is_empty());
        assert_eq!(Policy::from_toml("").unwrap(), Policy::default());
    }

    #[test]
    fn an_exact_name_wins_then_the_first_matching_glob() {
        let policy = Policy::from_toml(
            r#"
[[tools]]
name = "get_*"
effect = "read_only"
[[tools]]
name = "get_order"
effect = "additive"
[[tools]]
name = "file_?"
confirm = true
[[tools]]
name = "*"
effect = "destructive"
[[tools]]
name = "get_user*"
effect = "external"
"#,
        )
        .unwrap();
        let effect = |tool: &str| policy.rule_for(tool).and_then(|rule| rule.effect);
        // Named exactly, though a glob before it matches too.
        assert_eq!(effect("get_order"), Some(Effect::Additive));
        // The first glob in file order, not the most specific one.
        assert_eq!(effect("get_user"), Some(Effect::ReadOnly));
        assert!(policy.confirms("file_a") && !policy.confirms("file_ab"));
        assert_eq!(effect("file_ab"), Some(Effect::Destructive));
        // Rules do not merge: the glob's rule is all of `file_a`'s policy.
        assert_eq!(effect("file_a"), None);
    }

    #[test]
    fn globs_match_whole_names() {
        for (glob, name, matches) in [
            ("*", "", true),
            ("*", "anything", true),
            ("a*", "abc", true),
            ("a*", "ba", false),
            ("*_order", "get_order", true),
            ("*_order", "get_orders", false),
            ("a*b*c", "aXbYbZc", true),
            ("a*b*c", "aXbYbZ", false),
            ("??", "ab", true),
            ("??", "abc", false),
            ("a?c", "abc", true),
            ("**x", "yyx", true),
            ("é?", "éa", true),
        ] {
            assert_eq!(glob_matches(glob, name), matches, "{glob} {name}");
        }
    }

    #[test]
    fn bad_files_name_the_line_and_column() {
        for (toml, position, says) in [
            (
                "[[tools]]\nname = \"a\"\neffect = \"readonly\"\n",
                (3, 10),
                "unknown effect `readonly`",
            ),
            ("[[tools]]\nname = \"a\"\nconfim = true\n", (3, 1), "confim"),
            (
                "[[tools]]\nname = \"a\"\nunknown = \"drop\"\n",
                (3, 11),
                "drop",
            ),
            ("[[tools]]\nname = \"\"\n", (2, 8), "empty"),
            (
                "[[tools]]\nname = \"a\"\nstrict = \"x\"\n",
                (3, 10),
                "sequence",
            ),
            ("[[tools]]\nname = \"a\"\n\nconfirm = tru\n", (4, 11), ""),
            ("[tool]\n", (1, 2), "tool"),
        ] {
            let error = Policy::from_toml(toml).unwrap_err();
            assert_eq!(error.position(), Some(position), "{toml}: {error}");
            assert!(error.message().contains(says), "{toml}: {error}");
        }
        for (json, position, says) in [
            (
                "{\"tools\": [\n  {\"name\": \"a\",\n   \"effect\": \"readonly\"}]}",
                (3, 24),
                "unknown effect `readonly`",
            ),
            (
                "{\"tools\": [\n{\"name\": \"a\", \"ask\": true}]}",
                (2, 19),
                "ask",
            ),
            (
                "{\"tools\": [\n{\"name\": \"a\",}]}",
                (2, 14),
                "trailing comma",
            ),
            ("{\"tools\": [{}]}", (1, 13), "name"),
        ] {
            let error = Policy::from_json(json).unwrap_err();
            assert_eq!(error.position(), Some(position), "{json}: {error}");
            assert!(error.message().contains(says), "{json}: {error}");
            assert!(!error.message().contains(" at line "), "{error}");
        }
    }

    #[test]
    fn a_file_is_read_by_its_extension_or_its_first_character() {
        let dir = std::env::temp_dir().join(format!("toolargs-policy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let json = r#"{"tools": [{"name": "a", "confirm": true}]}"#;
        let toml = "[[tools]]\nname = \"a\"\nconfirm = true\n";
        for (name, text) in [
            ("p.json", json),
            ("p.toml", toml),
            ("p", json),
            ("p.conf", toml),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            assert!(Policy::load(&path).unwrap().confirms("a"), "{name}");
        }
        // JSON under a TOML name is read as TOML, and the error names the file.
        let path = dir.join("bad.toml");
        std::fs::write(&path, json).unwrap();
        let error = Policy::load(&path).unwrap_err().to_string();
        assert!(
            error.starts_with(&format!("{}:1:", path.display())),
            "{error}"
        );
        let missing = Policy::load(&dir.join("none.toml")).unwrap_err();
        assert_eq!(missing.position(), None);
        assert!(
            missing.to_string().contains("none.toml: cannot read"),
            "{missing}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn applying_a_rule_sets_the_spec_and_names_missing_strict_fields() {
        let policy = Policy::from_toml(
            "[[tools]]\nname = \"t\"\neffect = \"read_only\"\nstrict = [\"n\", \"ghost\", \"a.b\", \"o.m\", \"o.ghost\"]\n",
        )
        .unwrap();
        // `a.b` is a top-level name; `o.m` a path.
        let spec = Spec::from_json(
            r#"{"type": "object", "properties": {"n": {"type": "integer"}, "a.b": {"type": "integer"},
                "o": {"type": "object", "properties": {"m": {"type": "integer"}, "k": {"type": "integer"}}}}}"#,
        )
        .unwrap();
        let (spec, missing) = policy.apply("t", spec);
        assert_eq!(spec.effect(), Some(Effect::ReadOnly));
        assert_eq!(spec.unknown_policy(), UnknownPolicy::Strip);
        let missing: Vec<&str> = missing.iter().map(|m| m.field.as_str()).collect();
        assert_eq!(missing, ["ghost", "o.ghost"]);
        for text in [r#"{"n": "5"}"#, r#"{"a.b": "5"}"#, r#"{"o": {"m": "5"}}"#] {
            let rejection = spec.parse(text).unwrap_err();
            assert_eq!(
                rejection.errors()[0].code.as_str(),
                "repair_forbidden",
                "{text}"
            );
        }
        assert_eq!(spec.parse(r#"{"o": {"k": "5"}}"#).unwrap().repairs.len(), 1);
    }
}
