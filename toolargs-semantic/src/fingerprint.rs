//! Fingerprints: a stable SHA-256 of a call's tool name and canonical arguments, so a retried
//! call that means the same thing is recognised as the same action (an idempotency key),
//! whatever its byte layout: key order, whitespace, `1500` or `1500.0`.

use std::fmt;

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::decimal::CanonicalDecimal;

/// A SHA-256 over `{"arguments": ARGS, "tool": NAME}` written as canonical JSON: keys sorted
/// by code point, no whitespace, numbers as their exact shortest decimal (`1500.0` is `1500`,
/// `-0` is `0`), strings escaped as `serde_json` writes them. Strings are compared as sent:
/// Unicode normalization is not applied.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint([u8; 32]);

impl Fingerprint {
    /// The fingerprint of a call to `tool` with `arguments`.
    pub fn of(tool: &str, arguments: &Value) -> Fingerprint {
        let mut text = String::from("{\"arguments\":");
        write_canonical(arguments, &mut text);
        text.push_str(",\"tool\":");
        write_canonical(&Value::from(tool), &mut text);
        text.push('}');
        Fingerprint(Sha256::digest(text.as_bytes()).into())
    }

    /// The 32 bytes of the digest.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The digest as 64 lower-case hex digits.
    pub fn to_hex(&self) -> String {
        toolargs_core::internal::text::lower_hex(&self.0)
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({})", self.to_hex())
    }
}

/// `value` as canonical JSON text: sorted keys, no whitespace, normalized numbers.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match CanonicalDecimal::from_number(n) {
            Some(d) => out.push_str(&d.to_string()),
            // Beyond exact decimals (1e300): the float's shortest exponent form, which is
            // still one text per value.
            None => out.push_str(&format!("{:e}", n.as_f64().unwrap_or(0.0))),
        },
        Value::String(s) => out.push_str(&Value::from(s.as_str()).to_string()),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::from(key.as_str()).to_string());
                out.push(':');
                write_canonical(item, out);
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn layout_does_not_matter() {
        let a: Value =
            serde_json::from_str(r#"{"b": 1500, "a": {"y": [1, 2.50], "x": "s"}}"#).unwrap();
        let b: Value =
            serde_json::from_str("{\n  \"a\":{\"x\":\"s\",\"y\":[1.0,2.5]},\n  \"b\":1500.0\n}")
                .unwrap();
        assert_eq!(
            canonical_json(&a),
            r#"{"a":{"x":"s","y":[1,2.5]},"b":1500}"#
        );
        assert_eq!(Fingerprint::of("t", &a), Fingerprint::of("t", &b));
        assert_eq!(canonical_json(&json!(-0.0)), "0");
        assert_eq!(canonical_json(&json!(1e300)), "1e300");
    }

    #[test]
    fn the_digest_is_pinned() {
        // Changing the canonical form changes every stored idempotency key: this must not move.
        let args: Value =
            serde_json::from_str(r#"{"note": "café", "currency": "USD", "amount_cents": 1500.0}"#)
                .unwrap();
        assert_eq!(
            Fingerprint::of("issue_refund", &args).to_hex(),
            "01860b50fb4984b784802461a91253c653f58d862513b2e52e2b5df809d5d5c2"
        );
    }

    #[test]
    fn numbers_past_28_digits_keep_their_text_and_digest() {
        // Every JSON number has at most 20 significant digits: tiny and huge floats are written
        // out in full up to 36 fractional digits and i128, in exponent form beyond.
        let args: Value = serde_json::from_str(
            "{\"tolerance\": 1e-30, \"mass_kg\": 1.989e30, \"edge\": [1e-36, 1e-37, 1.7e38, 2e38], \
              \"zero\": -0.0, \"max\": 18446744073709551615, \"sum\": 0.30000000000000004}",
        )
        .unwrap();
        assert_eq!(
            canonical_json(&args),
            format!(
                "{{\"edge\":[0.{}1,1e-37,17{},2e38],\"mass_kg\":1989{},\"max\":18446744073709551615,\
                 \"sum\":0.30000000000000004,\"tolerance\":0.{}1,\"zero\":0}}",
                "0".repeat(35),
                "0".repeat(37),
                "0".repeat(27),
                "0".repeat(29),
            )
        );
        assert_eq!(
            Fingerprint::of("weigh", &args).to_hex(),
            "00f310cbaa201e4fde9afb7ed96419772c0a3a44b3e15acd8c4836d2f5bccd72"
        );
    }

    #[test]
    fn meaning_does() {
        let a = json!({"amount": 1500});
        assert_ne!(Fingerprint::of("t", &a), Fingerprint::of("u", &a));
        assert_ne!(
            Fingerprint::of("t", &a),
            Fingerprint::of("t", &json!({"amount": 1501}))
        );
        assert_ne!(
            Fingerprint::of("t", &a),
            Fingerprint::of("t", &json!({"amount": "1500"}))
        );
        assert_eq!(Fingerprint::of("t", &a).to_hex().len(), 64);
    }
}
