//! Regular expressions of `pattern` and `key_pattern`: they compile as a full match in Rust
//! and read the same in ECMA-262, and a key pattern sits on a map.

use syn::LitStr;

use super::field::FieldCheck;
use crate::ctxt::Ctxt;
use crate::ecma;
use crate::model::Pattern;

impl FieldCheck<'_, '_> {
    /// `pattern`, compiled. Whether the type takes one is checked with the lengths.
    pub(super) fn pattern(&self) -> Option<Option<Pattern>> {
        let cx = self.cx;
        self.f
            .attrs
            .pattern
            .as_ref()
            .map(|lit| check_pattern(cx, lit))
    }

    /// `key_pattern`: on a map, and compiled as `pattern` is.
    pub(super) fn key_pattern(&mut self) -> Option<Option<Pattern>> {
        let (cx, f, kind, field) = (self.cx, self.f, self.kind, self.field);
        let a = &f.attrs;
        if let Some(lit) = &a.key_pattern {
            if self.other && !kind.has_map() {
                self.honoured(lit.span(), "key_pattern", "key_pattern");
            } else if !kind.has_map() {
                let ty = &self.ty;
                cx.error_at(
                    lit.span(),
                    format!("`key_pattern` applies to maps (`HashMap<String, T>`, `BTreeMap<String, T>`), and `{field}` is `{ty}`; remove it"),
                );
            }
        }
        a.key_pattern.as_ref().map(|lit| check_pattern(cx, lit))
    }
}

/// A pattern that compiles as a full match in Rust and reads the same in ECMA-262.
fn check_pattern(cx: &Ctxt, lit: &LitStr) -> Option<Pattern> {
    let source = lit.value();
    if let Some(message) = regex_error(&source) {
        cx.error_at(lit.span(), message);
        return None;
    }
    if let Some(problem) = ecma::incompatibility(&source) {
        cx.error_at(
            lit.span(),
            format!("pattern is read differently by JSON Schema validators: {problem}"),
        );
        return None;
    }
    let regex = regex::Regex::new(&format!("^(?:{source})$")).ok()?;
    Some(Pattern { source, regex })
}

/// The message of a regex that does not compile, with the part it points at.
fn regex_error(source: &str) -> Option<String> {
    let err = match regex::Regex::new(source) {
        Ok(_) => regex::Regex::new(&format!("^(?:{source})$")).err()?,
        Err(err) => err,
    };
    let text = err.to_string();
    let lines: Vec<&str> = text.lines().collect();
    let message = lines
        .last()
        .map(|l| l.trim().trim_start_matches("error:").trim())
        .unwrap_or_default();
    // The parse error's shape: a header, the pattern, carets under the offending part, and
    // the message. Patterns spanning lines are printed otherwise; show the message alone.
    let at = match lines.as_slice() {
        [_, pattern, carets, _] if pattern.strip_prefix("    ") == Some(source) => {
            let carets = carets.strip_prefix("    ").unwrap_or_default();
            let start = carets.find('^')?;
            let end = carets.rfind('^')? + 1;
            let part: String = source.chars().skip(start).take(end - start).collect();
            (!part.is_empty()).then(|| format!(" at `{part}` (character {})", start + 1))
        }
        _ => None,
    };
    Some(format!(
        "invalid regular expression: {message}{}",
        at.unwrap_or_default()
    ))
}

#[cfg(test)]
mod tests {
    use super::regex_error;

    #[test]
    fn regex_errors_name_the_offending_part() {
        assert_eq!(regex_error("ord_[A-Z]{8}"), None);
        let err = regex_error("ord_[A-Z").unwrap();
        assert_eq!(
            err,
            "invalid regular expression: unclosed character class at `[` (character 5)"
        );
        let err = regex_error("a{2,1}").unwrap();
        assert!(err.starts_with("invalid regular expression: "), "{err}");
        assert!(!err.contains("error:"), "{err}");
    }
}
