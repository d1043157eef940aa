//! Payload decoding and the derived parser on arbitrary bytes: as bytes, as text, as a decoded
//! value, under the default limits and under tight ones. Nothing may panic, every rejection is
//! well formed, and every accepted call has a canonical form that reads back clean.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolargs::{Limits, ParseOptions, RawArgs, ToolArgs};
use toolargs_fuzz::{check_parsed, check_rejection, IssueRefund};

const TIGHT: ParseOptions = ParseOptions::DEFAULT.with_limits(
    Limits::DEFAULT
        .with_max_depth(4)
        .with_max_payload_bytes(512)
        .with_max_string_bytes(16)
        .with_max_items(4)
        .with_max_keys(8),
);

fn check(raw: &RawArgs<'_>, options: &ParseOptions) {
    match toolargs::parse_with::<IssueRefund>(raw, options) {
        Ok(parsed) => check_parsed(&parsed),
        Err(rejection) => check_rejection(&rejection),
    }
}

fuzz_target!(|data: &[u8]| {
    let raw = RawArgs::from(data);
    check(&raw, &ParseOptions::DEFAULT);
    check(&raw, &TIGHT);
    if let Ok(text) = std::str::from_utf8(data) {
        // Text and bytes are the same payload.
        let from_text = IssueRefund::parse(text).map(|p| p.args.to_json());
        let from_bytes = IssueRefund::parse(data).map(|p| p.args.to_json());
        assert_eq!(from_text.is_ok(), from_bytes.is_ok());
        if let Ok(value) = serde_json::from_str::<Value>(text) {
            check(&RawArgs::from(&value), &ParseOptions::DEFAULT);
            check(&RawArgs::from(&value), &TIGHT);
        }
    }
});
