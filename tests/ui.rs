//! Compile-time checks of `#[derive(ToolArgs)]`: every mistake in `tests/ui/fail` is a compile
//! error at the offending token, and `tests/ui/pass` compiles cleanly.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
