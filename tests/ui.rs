//! Compile-time checks of `#[derive(ToolArgs)]`: every mistake in `tests/ui/fail` is a compile
//! error at the offending token, and `tests/ui/pass` compiles cleanly.
//!
//! Each failing file is one rustc run, so the mistakes are grouped by topic, one file each: every
//! item's errors are reported, and the `.stderr` lists them all. A binary of its own: it is small
//! (trybuild only) and its run, the longest of the suite, does not hold up the `it` binary.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
