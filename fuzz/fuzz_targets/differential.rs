//! The two front doors agree on the refund tool: the derived parser and the dynamic spec
//! loaded from the schema it emits (see `toolargs_fuzz::check_agreement`); and a stream of
//! the same bytes gets each door's verdict (`toolargs_fuzz::check_stream`).
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use toolargs::{Spec, ToolArgs};
use toolargs_fuzz::{check_agreement, check_stream, IssueRefund};

static SPEC: LazyLock<Spec> = LazyLock::new(|| {
    Spec::from_schema(&IssueRefund::json_schema()).expect("the emitted schema loads")
});

fuzz_target!(|data: &[u8]| {
    check_agreement::<IssueRefund>(&SPEC, data);
    check_stream::<IssueRefund>(&SPEC, data);
});
