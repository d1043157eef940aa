//! `Box<T>`, and the schemas of types that contain themselves.
//!
//! A derived type's schema is built through [`defined`], which keeps, per thread, the derived
//! types whose schemas are being built. A type met again while its own schema is still being
//! built refers to itself: that use becomes `{"$ref": "#/$defs/Name"}`, and the type's schema
//! goes to the root's `$defs`. Types that never meet themselves stay inline, so the schemas of
//! non-recursive tools are exactly as they were.

use std::any::TypeId;
use std::cell::RefCell;

use serde_json::{Map, Value};

use super::{ArgType, Capabilities};
use crate::cx::Cx;
use crate::node::Node;
use crate::path::Path;
use crate::spec::FieldSpec;

/// A box is its content: the same payload, schema and canonical form.
impl<T: ArgType> ArgType for Box<T> {
    const HONOURS: Capabilities = T::HONOURS;

    fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        T::coerce(node, spec, path, cx).map(Box::new)
    }

    fn canonical(&self) -> Value {
        T::canonical(self)
    }

    fn schema(spec: &FieldSpec<'_>) -> Value {
        T::schema(spec)
    }

    fn item_schema(spec: &FieldSpec<'_>) -> Value {
        T::item_schema(spec)
    }

    fn when_absent() -> Option<Self> {
        T::when_absent().map(Box::new)
    }

    fn declared_semantics() -> crate::declare::Semantics {
        T::declared_semantics()
    }
}

/// One schema being built on this thread.
#[derive(Default)]
struct Build {
    /// Derived types whose schemas are being built, outermost first.
    building: Vec<TypeId>,
    /// Types found to contain themselves, with their name in `$defs`.
    names: Vec<(TypeId, String)>,
    /// Their schemas, by name, in the order they were finished.
    defs: Map<String, Value>,
    /// True while [`root`] holds the build open; it then places `$defs` itself.
    rooted: bool,
}

thread_local! {
    static BUILD: RefCell<Build> = RefCell::new(Build::default());
}

/// The `$ref` to the definition named `name`.
pub fn reference(name: &str) -> Value {
    let mut map = Map::new();
    map.insert("$ref".to_owned(), Value::from(format!("#/$defs/{name}")));
    Value::Object(map)
}

/// The name in `$defs` of `id`, written `ident` in Rust, claiming one if it has none: two
/// types of the same name in different modules get `Name` and `Name2`.
fn name_of(build: &mut Build, id: TypeId, ident: &str) -> String {
    if let Some((_, name)) = build.names.iter().find(|(t, _)| *t == id) {
        return name.clone();
    }
    let mut name = ident.to_owned();
    let mut n = 1;
    while build.names.iter().any(|(_, taken)| *taken == name) {
        n += 1;
        name = format!("{ident}{n}");
    }
    build.names.push((id, name.clone()));
    name
}

/// Pops the type off the stack even if building its schema unwinds, so a later build on the
/// same thread starts clean.
struct Pop;

impl Drop for Pop {
    fn drop(&mut self) {
        BUILD.with(|b| {
            let mut b = b.borrow_mut();
            b.building.pop();
            if b.building.is_empty() && !b.rooted {
                *b = Build::default();
            }
        });
    }
}

/// The schema of the derived type `T` (written `ident`), with `body` building it. Inline,
/// unless `T` contains itself: then every use inside it is a `$ref`, its schema is kept for
/// the root's `$defs`, and only the outermost use is written out in full.
///
/// Called outside `root` (someone asked a type for its schema directly), the outermost
/// schema carries the `$defs` itself.
pub fn defined<T: 'static>(ident: &str, body: impl FnOnce() -> Value) -> Value {
    let id = TypeId::of::<T>();
    let known = BUILD.with(|b| {
        let mut b = b.borrow_mut();
        let seen = b.names.iter().any(|(t, _)| *t == id) || b.building.contains(&id);
        if seen {
            return Some(reference(&name_of(&mut b, id, ident)));
        }
        b.building.push(id);
        None
    });
    if let Some(reference) = known {
        return reference;
    }
    let pop = Pop;
    let schema = body();
    let (outermost, recursive, defs) = BUILD.with(|b| {
        let mut b = b.borrow_mut();
        let outermost = b.building.len() == 1;
        let name = b
            .names
            .iter()
            .find(|(t, _)| *t == id)
            .map(|(_, n)| n.clone());
        if let Some(name) = &name {
            b.defs.insert(name.clone(), schema.clone());
        }
        let defs = (outermost && !b.rooted).then(|| std::mem::take(&mut b.defs));
        (outermost, name, defs)
    });
    drop(pop);
    match (outermost, recursive) {
        (false, Some(name)) => reference(&name),
        _ => with_defs(schema, defs.unwrap_or_default()),
    }
}

/// Builds a root schema with `body` and puts the definitions its recursive types left at
/// its root, as `$defs`, after everything else.
pub fn root(body: impl FnOnce() -> Value) -> Value {
    let nested = BUILD.with(|b| std::mem::replace(&mut b.borrow_mut().rooted, true));
    struct Close(bool);
    impl Drop for Close {
        fn drop(&mut self) {
            if !self.0 {
                BUILD.with(|b| *b.borrow_mut() = Build::default());
            }
        }
    }
    let close = Close(nested);
    let schema = body();
    let defs = if nested {
        Map::new()
    } else {
        BUILD.with(|b| std::mem::take(&mut b.borrow_mut().defs))
    };
    drop(close);
    with_defs(schema, defs)
}

fn with_defs(mut schema: Value, defs: Map<String, Value>) -> Value {
    if let (false, Some(map)) = (defs.is_empty(), schema.as_object_mut()) {
        map.insert("$defs".to_owned(), Value::Object(defs));
    }
    schema
}

thread_local! {
    static DECLARING: RefCell<Vec<TypeId>> = const { RefCell::new(Vec::new()) };
}

/// What the derived type `T` declares about its fields, with `body` gathering it. A type met
/// again inside itself declares nothing there: its declarations are the ones being gathered
/// around it, and gathering them again would never end.
pub fn declared<T: 'static>(
    body: impl FnOnce() -> crate::declare::Semantics,
) -> crate::declare::Semantics {
    let id = TypeId::of::<T>();
    let entered = DECLARING.with(|d| {
        let mut d = d.borrow_mut();
        if d.contains(&id) {
            return false;
        }
        d.push(id);
        true
    });
    if !entered {
        return crate::declare::Semantics::new();
    }
    struct Leave;
    impl Drop for Leave {
        fn drop(&mut self) {
            DECLARING.with(|d| d.borrow_mut().pop());
        }
    }
    let _leave = Leave;
    body()
}
