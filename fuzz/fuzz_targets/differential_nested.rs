//! The two front doors agree on a nested tool (a list of objects, a nested object, optional
//! and defaulted fields at each level): the derived parser and the dynamic spec loaded from
//! the schema it emits (see `toolargs_fuzz::check_agreement`).
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use toolargs::{Spec, ToolArgs};
use toolargs_fuzz::{check_agreement, check_stream, CreateShipment};

static SPEC: LazyLock<Spec> = LazyLock::new(|| {
    Spec::from_schema(&CreateShipment::json_schema()).expect("the emitted schema loads")
});

fuzz_target!(|data: &[u8]| {
    check_agreement::<CreateShipment>(&SPEC, data);
    check_stream::<CreateShipment>(&SPEC, data);
});
