//! What a struct declares about the meaning of its fields: canonical kinds, critical fields and
//! enum aliases. `#[derive(ToolArgs)]` writes these from `#[arg(semantic = ..., critical)]` and
//! `#[arg(synonym = ...)]` on enum variants; a tool defined by a JSON Schema builds them by hand.

/// Where a money field's currency or a quantity's unit comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A sibling field of the same object holds it (`currency = "currency"`).
    Field(String),
    /// It is fixed by the declaration (`currency = "USD"`, `unit = "hours"`).
    Fixed(String),
}

impl Source {
    /// A sibling field, by its JSON name.
    pub fn field(name: &str) -> Source {
        Source::Field(name.to_owned())
    }

    /// A fixed currency code or unit name.
    pub fn fixed(value: &str) -> Source {
        Source::Fixed(value.to_owned())
    }
}

/// A canonical kind a field can be declared with.
///
/// The enum is exhaustive on purpose: the semantic gate (`toolargs-semantic`) must compare
/// every kind it can be handed, so a new kind is a release of both crates together. The
/// variants with data are `#[non_exhaustive]`, so a kind can gain a parameter: build them
/// with [`Kind::money`], [`Kind::quantity`] and [`Kind::entity`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An amount of money. The canonical form is an integer number of minor units with an
    /// explicit ISO 4217 currency; the number of minor units comes from the currency table.
    #[non_exhaustive]
    Money {
        /// The currency: a sibling field or a fixed code.
        currency: Source,
        /// True when the field holds minor units (cents), false for major units (dollars).
        minor_units: bool,
    },
    /// A calendar date (`YYYY-MM-DD`), compared to the day.
    Date,
    /// A date-time, normalized to UTC with its offset kept; compared as an instant.
    DateTime,
    /// A quantity with a unit, compared exactly in the base unit of its family.
    #[non_exhaustive]
    Quantity {
        /// The unit family: `duration`, `length`, `mass`, `data_size`, or one added to the gate.
        family: String,
        /// The unit: a sibling field or a fixed unit name.
        unit: Source,
    },
    /// A reference to an entity (a person, an account), compared by the id a
    /// [`Resolver`](https://docs.rs/toolargs-semantic/latest/toolargs_semantic/trait.Resolver.html) gives for it.
    #[non_exhaustive]
    Entity {
        /// The kind of entity, passed to the resolver (`person`, `account`).
        kind: String,
    },
}

impl Kind {
    /// An amount of money in `currency`, in minor units (cents) when `minor_units` is true.
    pub fn money(currency: Source, minor_units: bool) -> Kind {
        Kind::Money {
            currency,
            minor_units,
        }
    }

    /// A quantity of the unit `family` (`duration`, `length`, ...) in `unit`.
    pub fn quantity(family: &str, unit: Source) -> Kind {
        Kind::Quantity {
            family: family.to_owned(),
            unit,
        }
    }

    /// A reference to an entity of `kind` (`person`, `account`).
    pub fn entity(kind: &str) -> Kind {
        Kind::Entity {
            kind: kind.to_owned(),
        }
    }

    /// The stable name of the kind: `money`, `date`, `datetime`, `quantity`, `entity`.
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Money { .. } => "money",
            Kind::Date => "date",
            Kind::DateTime => "datetime",
            Kind::Quantity { .. } => "quantity",
            Kind::Entity { .. } => "entity",
        }
    }
}

/// What is declared about one field.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Declaration {
    /// The field's JSON name.
    pub field: String,
    /// Its canonical kind, when declared.
    pub kind: Option<Kind>,
    /// A mismatch here rejects the call instead of asking for confirmation.
    pub critical: bool,
    /// Declarations of the field's own type (a nested struct, or an enum's aliases).
    pub nested: Semantics,
}

/// The declared meaning of a tool's arguments: kinds of fields, critical fields, nested
/// declarations and enum aliases. Empty for a type that declares none.
///
/// ```
/// use toolargs_core::declare::{Kind, Semantics, Source};
///
/// let semantics = Semantics::new()
///     .declare("amount_cents", Kind::money(Source::field("currency"), true))
///     .critical("amount_cents")
///     .declare("due", Kind::Date);
/// assert_eq!(semantics.fields().len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Semantics {
    fields: Vec<Declaration>,
    aliases: Vec<(String, String)>,
}

impl Semantics {
    /// Nothing declared.
    pub fn new() -> Semantics {
        Semantics::default()
    }

    fn entry(&mut self, field: &str) -> &mut Declaration {
        if let Some(i) = self.fields.iter().position(|d| d.field == field) {
            return &mut self.fields[i];
        }
        self.fields.push(Declaration {
            field: field.to_owned(),
            ..Declaration::default()
        });
        let last = self.fields.len() - 1;
        &mut self.fields[last]
    }

    /// Declares the canonical kind of `field`.
    pub fn declare(mut self, field: &str, kind: Kind) -> Semantics {
        self.entry(field).kind = Some(kind);
        self
    }

    /// Marks `field` critical: a mismatch on it rejects the call.
    pub fn critical(mut self, field: &str) -> Semantics {
        self.entry(field).critical = true;
        self
    }

    /// Attaches the declarations of `field`'s own type; nothing happens when `inner` is empty.
    pub fn nested(mut self, field: &str, inner: Semantics) -> Semantics {
        if !inner.is_empty() {
            self.entry(field).nested = inner;
        }
        self
    }

    /// For an enum: `alias` is another name of the value `value`. The parser still rejects
    /// the alias (it is not in the schema); the semantic gate reads it as `value`, so a retry
    /// that replaced the alias with the value keeps its meaning.
    pub fn alias(mut self, alias: &str, value: &str) -> Semantics {
        self.aliases.push((alias.to_owned(), value.to_owned()));
        self
    }

    /// True when nothing is declared.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty() && self.aliases.is_empty()
    }

    /// The declarations, one per field named.
    pub fn fields(&self) -> &[Declaration] {
        &self.fields
    }

    /// Enum aliases: `(alias, value)`.
    pub fn aliases(&self) -> &[(String, String)] {
        &self.aliases
    }
}
