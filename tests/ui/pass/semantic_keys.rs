#![deny(warnings)]

use chrono::{DateTime, NaiveDate, Utc};
use toolargs::semantic::{Kind, Profile, Source};
use toolargs::ToolArgs;

/// A unit of length.
#[derive(ToolArgs, Debug)]
enum LengthUnit {
    M,
    #[arg(synonym = "kilometre", synonym = "kilometer")]
    Km,
}

/// Where to go.
#[derive(ToolArgs, Debug)]
struct Leg {
    #[arg(semantic = "length", unit = "unit")]
    distance: f64,
    unit: LengthUnit,
}

/// Every semantic key on every kind it fits.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "external")]
struct Trip {
    #[arg(semantic = "money", currency = "currency", minor_units, critical)]
    price_cents: u32,
    currency: String,
    #[arg(semantic = "money", currency = "JPY")]
    tip: Option<String>,
    #[arg(semantic = "date")]
    departs: NaiveDate,
    #[arg(semantic = "date")]
    returns: String,
    #[arg(semantic = "datetime", critical)]
    boards_at: DateTime<Utc>,
    #[arg(semantic = "duration", unit = "min")]
    layover: Option<u16>,
    #[arg(semantic = "quantity", family = "volume", unit = "litres")]
    luggage: f32,
    #[arg(semantic = "entity", entity = "person")]
    travellers: Vec<String>,
    #[arg(semantic = "entity")]
    agent: i64,
    #[arg(critical)]
    legs: Vec<Leg>,
}

/// With `#[toolargs]` on a field, only `#[toolargs]` is read (clap owns `#[arg]`).
#[derive(ToolArgs, Debug)]
struct ClapStyle {
    #[toolargs(semantic = "money", currency = "USD", critical)]
    amount: f64,
}

fn main() {
    let profile = Profile::of::<Trip>();
    assert!(profile.field("price_cents").is_some_and(|f| f.critical));
    assert!(matches!(
        &profile.field("agent").map(|f| &f.meaning),
        Some(toolargs::semantic::Meaning::Kind(Kind::Entity { kind, .. })) if kind == "agent"
    ));
    let _ = Source::field("currency");
    assert_eq!(LengthUnit::semantics().aliases().len(), 2);
    let _ = Leg::semantics();
    assert!(Profile::of::<ClapStyle>()
        .field("amount")
        .is_some_and(|f| f.critical && f.meaning.name() == "money"));
}
