//! The integration tests, in one binary: linking jsonschema, proptest and tokio once instead of
//! once per file is most of the build time of the suite. Each module was a test file of its own;
//! `common` is the refund tool they share. A module that needs an optional part of the facade
//! builds with its feature.

mod common;

mod agreement;
mod allocations;
#[cfg(feature = "async-openai")]
mod async_openai;
#[cfg(all(feature = "dynamic", feature = "replay"))]
mod bedrock;
mod behaviour;
#[cfg(feature = "dynamic")]
mod bfcl;
#[cfg(feature = "dynamic")]
mod differential_schema;
#[cfg(feature = "dynamic")]
mod dynamic;
#[cfg(feature = "dynamic")]
mod exact_values;
#[cfg(all(feature = "uuid", feature = "url", feature = "dynamic"))]
mod format_doors;
#[cfg(all(
    feature = "uuid",
    feature = "url",
    feature = "indexmap",
    feature = "decimal"
))]
mod formats;
#[cfg(feature = "dynamic")]
mod fuzz_regressions;
mod ghost;
#[cfg(feature = "dynamic")]
mod hostile;
mod layout;
#[cfg(feature = "dynamic")]
mod lowering;
#[cfg(feature = "dynamic")]
mod malformed;
#[cfg(feature = "dynamic")]
mod mcp_tools;
#[cfg(all(feature = "serde", feature = "schemars"))]
mod ollama;
#[cfg(feature = "dynamic")]
mod policy_doors;
mod properties;
mod recursion;
mod registry;
#[cfg(feature = "replay")]
mod replay;
#[cfg(feature = "rig")]
mod rig;
#[cfg(feature = "rmcp")]
mod rmcp;
#[cfg(feature = "dynamic")]
mod schema_gen;
#[cfg(feature = "dynamic")]
mod schema_probes;
mod seed;
#[cfg(all(feature = "semantic", feature = "dynamic"))]
mod semantic;
#[cfg(all(feature = "serde", feature = "schemars"))]
mod serde_impls;
mod skim;
#[cfg(feature = "dynamic")]
mod stream;
#[cfg(feature = "dynamic")]
mod suite;
#[cfg(feature = "dynamic")]
mod tool_list;
#[cfg(feature = "agent")]
mod toolbox;
mod types;
mod unions;
