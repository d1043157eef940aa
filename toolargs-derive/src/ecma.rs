//! Finds regex syntax that Rust's `regex` accepts but an ECMA-262 JSON Schema validator would
//! reject or read differently. The pattern is sent to the model in the schema, so both readers
//! must agree on it.
//!
//! Not flagged: `.` (ECMA also excludes `\r`, U+2028 and U+2029) and `\s` (the sets differ only
//! in rare spaces); both are documented in the compile-time checks guide of the `toolargs` crate.

/// Returns a message for the first construct whose meaning differs, or `None`.
pub fn incompatibility(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                let &next = chars.get(i + 1)?;
                let message = match next {
                    'A' | 'z' | 'Z' => Some(format!(
                        "`\\{next}` is not ECMA-262 syntax; the pattern is already anchored as a full match, so remove it"
                    )),
                    'd' | 'D' => Some(format!(
                        "`\\{next}` matches all Unicode digits in Rust but only ASCII digits in JSON Schema (ECMA-262); write `{}` instead",
                        if next == 'd' { "[0-9]" } else { "[^0-9]" }
                    )),
                    'w' | 'W' => Some(format!(
                        "`\\{next}` matches Unicode word characters in Rust but only ASCII ones in JSON Schema (ECMA-262); write `{}` instead",
                        if next == 'w' { "[A-Za-z0-9_]" } else { "[^A-Za-z0-9_]" }
                    )),
                    'b' | 'B' if !in_class => Some(format!(
                        "`\\{next}` uses Unicode word boundaries in Rust but ASCII ones in JSON Schema (ECMA-262); rewrite the pattern without it"
                    )),
                    'p' | 'P' => Some(format!(
                        "`\\{next}{{...}}` needs the `u` flag in ECMA-262, which JSON Schema validators do not all set; list the characters explicitly"
                    )),
                    'x' if chars.get(i + 2) == Some(&'{') => Some(
                        "`\\x{...}` is not ECMA-262 syntax; write `\\uXXXX` for characters in the Basic Multilingual Plane".to_owned(),
                    ),
                    '<' | '>' => Some(format!(
                        "`\\{next}` word boundaries are not ECMA-262 syntax; rewrite the pattern without them"
                    )),
                    _ => None,
                };
                if message.is_some() {
                    return message;
                }
                i += 2;
                continue;
            }
            '[' if in_class => {
                if chars.get(i + 1) == Some(&':') {
                    return Some("POSIX classes like `[[:alpha:]]` are not ECMA-262 syntax; list the characters, e.g. `[A-Za-z]`".to_owned());
                }
                return Some("a nested character class `[...[...]...]` is not ECMA-262 syntax (it would read `[` literally); flatten it".to_owned());
            }
            '[' => {
                in_class = true;
                // A `]` or `^]` right after the opening bracket is a literal in Rust but closes
                // an empty class in ECMA-262.
                let mut j = i + 1;
                if chars.get(j) == Some(&'^') {
                    j += 1;
                }
                if chars.get(j) == Some(&']') {
                    return Some("`[]...]` starts with a literal `]` in Rust but is an empty class in ECMA-262; escape it as `\\]`".to_owned());
                }
                i = j;
                continue;
            }
            ']' if in_class => in_class = false,
            '&' | '-' | '~' if in_class && chars.get(i + 1) == Some(&c) => {
                return Some(format!(
                    "`{c}{c}` inside a character class is a set operation in Rust but literal characters in ECMA-262; escape them or rewrite the class"
                ));
            }
            '(' if !in_class && chars.get(i + 1) == Some(&'?') => {
                let rest: String = chars[i + 2..].iter().take(2).collect();
                if rest.starts_with("P<") {
                    return Some(
                        "`(?P<name>...)` is not ECMA-262 syntax; write `(?<name>...)`".to_owned(),
                    );
                }
                if !(rest.starts_with(':') || rest.starts_with('<')) {
                    return Some("inline flags like `(?i)` are not ECMA-262 syntax; spell out the cases, e.g. `[Aa]`".to_owned());
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::incompatibility;

    #[test]
    fn portable_patterns_pass() {
        for ok in [
            r"ord_[A-Za-z0-9]{8}",
            r"[a-z]+(?:-[a-z]+)*",
            r"\.\$",
            r"[\w-]x",
            r"a{2,3}|b?",
            r"(?<name>x)",
            r"[a\]]",
        ] {
            // `[\w-]` still has `\w`, which differs; check the others only.
            if ok.contains("\\w") {
                assert!(incompatibility(ok).is_some());
            } else {
                assert_eq!(incompatibility(ok), None, "{ok}");
            }
        }
    }

    #[test]
    fn rust_only_syntax_is_found() {
        for bad in [
            r"\d{4}",
            r"\Aabc\z",
            r"(?i)abc",
            r"(?P<x>a)",
            r"[[:alpha:]]",
            r"[a-z&&[^aeiou]]",
            r"\p{Greek}",
            r"\x{263a}",
            r"[]a]",
            r"\bword\b",
            r"[a[b]]",
        ] {
            assert!(incompatibility(bad).is_some(), "{bad}");
        }
    }
}
