//! A call's arguments as [`Spec::parse_borrowed`](crate::Spec::parse_borrowed) hands them
//! over: built, or, for the members accepted as sent, the nodes read from the call itself.
//!
//! Building the arguments copies every value of the call into a `serde_json::Value`; a caller
//! that only writes them out again (as JSON text, or into another language's values) can
//! write a member accepted as sent straight from what was read. What it writes is what
//! [`Arguments::into_value`] gives, and [`Spec::parse`](crate::Spec::parse) is exactly that.

use serde_json::{Map, Value};
use toolargs_core::node::Node;

/// A call's arguments, as the parse gives them.
#[derive(Debug)]
pub enum Arguments<'a> {
    /// Built by the walk: every call that is not an object of declared properties under a
    /// plain root schema.
    Value(Value),
    /// An object: the declared properties in declaration order, each as sent or built.
    Members(Vec<(Key<'a>, Member<'a>)>),
}

/// The key of a property in [`Arguments::Members`].
#[derive(Clone, Copy, Debug)]
pub struct Key<'a> {
    /// The property's name.
    pub name: &'a str,
    /// The property's place among the root's properties: `name` is
    /// [`Spec::member_names`](crate::Spec::member_names)`[index]`.
    pub index: usize,
}

/// One property of [`Arguments::Members`].
#[derive(Debug)]
pub enum Member<'a> {
    /// Accepted as sent: a scalar, or a list of scalars, as read from the call; its value is
    /// [`Node::to_value`]'s.
    Sent(&'a Node<'a>),
    /// Repaired, or an absent property's default.
    Built(Value),
}

impl Arguments<'_> {
    /// The arguments as a value: what [`Spec::parse`](crate::Spec::parse) gives.
    pub fn into_value(self) -> Value {
        match self {
            Arguments::Value(value) => value,
            Arguments::Members(members) => Value::Object(
                members
                    .into_iter()
                    .map(|(key, member)| (key.name.to_owned(), member.into_value()))
                    .collect::<Map<_, _>>(),
            ),
        }
    }
}

impl Member<'_> {
    /// The member's value.
    pub fn into_value(self) -> Value {
        match self {
            Member::Sent(node) => node.to_value(),
            Member::Built(value) => value,
        }
    }
}
