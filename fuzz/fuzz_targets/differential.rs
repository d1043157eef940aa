//! The two front doors agree: the derived refund parser and the dynamic spec loaded from the
//! schema it emits give the same outcome on every payload: both accept or both reject, with the
//! same canonical arguments, the same (rule, path) repairs and the same (code, path) errors.
//! Sets are compared sorted, since a loaded schema reads properties in the map's order.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use toolargs::{Rejection, Spec, ToolArgs};
use toolargs_fuzz::IssueRefund;

static SPEC: LazyLock<Spec> = LazyLock::new(|| {
    Spec::from_schema(&IssueRefund::json_schema()).expect("the emitted schema loads")
});

fn errors(rejection: &Rejection) -> Vec<(String, String)> {
    let mut all: Vec<_> = rejection
        .errors()
        .iter()
        .map(|e| (e.code.to_string(), e.path.clone()))
        .collect();
    all.sort();
    all
}

fuzz_target!(|data: &[u8]| {
    let derived = IssueRefund::parse(data);
    let dynamic = SPEC.parse(data);
    match (derived, dynamic) {
        (Ok(derived), Ok(dynamic)) => {
            assert_eq!(derived.args.to_json(), dynamic.args, "canonical arguments differ");
            let mut a: Vec<_> = derived.repairs.iter().map(|r| (r.rule, r.path.clone())).collect();
            let mut b: Vec<_> = dynamic.repairs.iter().map(|r| (r.rule, r.path.clone())).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "repairs differ");
        }
        (Err(derived), Err(dynamic)) => {
            let total = |r: &Rejection| r.errors().len() + r.omitted();
            assert_eq!(total(&derived), total(&dynamic), "error counts differ");
            // Past the cap each door keeps the errors it met first, in its own field order.
            if derived.omitted() == 0 {
                assert_eq!(errors(&derived), errors(&dynamic), "errors differ");
            }
        }
        (Ok(derived), Err(dynamic)) => {
            panic!("derived accepted {:?}, spec rejected: {dynamic}", derived.args)
        }
        (Err(derived), Ok(dynamic)) => {
            panic!("spec accepted {}, derived rejected: {derived}", dynamic.args)
        }
    }
});
