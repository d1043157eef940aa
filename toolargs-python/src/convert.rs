//! Python values to JSON text, and JSON values to Python objects.
//!
//! A decoded dict reaches the gate as the JSON text it stands for, so that it meets exactly the
//! checks a payload sent as text meets: an integer too large for a double is written with all
//! its digits (and found lossy by the gate, not rounded here), a float keeps its fraction point
//! (`1.0` stays a float), and `NaN` is written as the token the gate rejects. What JSON cannot
//! carry (a set, a date, a key that is not a string) is a rejection that names where it is.

use std::cell::RefCell;
use std::mem::ManuallyDrop;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::Value;
use toolargs_core::{ArgumentError, Code, Limits, Path};

/// Why a Python value could not be written as JSON: the error, at the value's path.
pub(crate) struct NotJson(pub(crate) ArgumentError);

/// Writes `value` as JSON text. Past `limits.max_depth` levels it writes one more level and
/// stops, and past `limits.max_payload_bytes` it stops writing, so that the gate's own
/// `too_deep` and `too_large` answer a structure that is cyclic or too big, as they answer text.
pub(crate) fn to_json_text(value: &Bound<'_, PyAny>, limits: &Limits) -> Result<String, NotJson> {
    let mut writer = Writer {
        out: String::new(),
        limits,
    };
    writer.value(value, &Path::ROOT, 1)?;
    Ok(writer.out)
}

struct Writer<'l> {
    out: String,
    limits: &'l Limits,
}

impl Writer<'_> {
    fn value(
        &mut self,
        value: &Bound<'_, PyAny>,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<(), NotJson> {
        if self.out.len() > self.limits.max_payload_bytes {
            return Ok(());
        }
        if value.is_none() {
            self.out.push_str("null");
        } else if let Ok(b) = value.cast::<PyBool>() {
            self.out
                .push_str(if b.is_true() { "true" } else { "false" });
        } else if let Ok(i) = value.cast::<PyInt>() {
            self.int(i, path)?;
        } else if let Ok(f) = value.cast::<PyFloat>() {
            self.float(f.value());
        } else if let Ok(s) = value.cast::<PyString>() {
            let text = s
                .to_cow()
                .map_err(|_| not_json(path, "a string that is not valid Unicode is not JSON"))?;
            push_string(&mut self.out, &text);
        } else if let Ok(dict) = value.cast::<PyDict>() {
            if self.too_deep(depth) {
                return Ok(());
            }
            self.out.push('{');
            for (i, (key, item)) in dict.iter().enumerate() {
                let Ok(key) = key.cast::<PyString>() else {
                    return Err(not_json(
                        path,
                        &format!(
                            "a key of type `{}` is not JSON (object keys are strings)",
                            type_name(&key)
                        ),
                    ));
                };
                let key = key
                    .to_cow()
                    .map_err(|_| not_json(path, "a key that is not valid Unicode is not JSON"))?;
                if i > 0 {
                    self.out.push(',');
                }
                push_string(&mut self.out, &key);
                self.out.push(':');
                self.value(&item, &path.key(&key), depth + 1)?;
            }
            self.out.push('}');
        } else if let Ok(list) = value.cast::<PyList>() {
            self.array(list.iter(), path, depth)?;
        } else if let Ok(tuple) = value.cast::<PyTuple>() {
            self.array(tuple.iter(), path, depth)?;
        } else {
            return Err(not_json(
                path,
                &format!("a value of type `{}` is not JSON", type_name(value)),
            ));
        }
        Ok(())
    }

    fn array<'py>(
        &mut self,
        items: impl Iterator<Item = Bound<'py, PyAny>>,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<(), NotJson> {
        if self.too_deep(depth) {
            return Ok(());
        }
        self.out.push('[');
        for (i, item) in items.enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.value(&item, &path.index(i), depth + 1)?;
        }
        self.out.push(']');
        Ok(())
    }

    /// Past the limit, one empty level more: enough for the gate's `too_deep`, and the end of a
    /// structure that refers to itself.
    fn too_deep(&mut self, depth: usize) -> bool {
        if depth > self.limits.max_depth {
            self.out.push_str("[]");
            return true;
        }
        false
    }

    fn int(&mut self, int: &Bound<'_, PyInt>, path: &Path<'_>) -> Result<(), NotJson> {
        if let Ok(small) = int.extract::<i64>() {
            self.out.push_str(&small.to_string());
        } else {
            // Every digit, through `int`'s own `repr`: an `IntEnum` member prints its name.
            let digits = int
                .py()
                .get_type::<PyInt>()
                .call_method1("__repr__", (int,))
                .and_then(|d| d.extract::<String>())
                .map_err(|_| {
                    not_json(
                        path,
                        "an integer that cannot be written in digits is not JSON",
                    )
                })?;
            self.out.push_str(&digits);
        }
        Ok(())
    }

    fn float(&mut self, float: f64) {
        if float.is_nan() {
            self.out.push_str("NaN");
        } else if float.is_infinite() {
            self.out
                .push_str(if float > 0.0 { "Infinity" } else { "-Infinity" });
        } else {
            // Debug keeps the fraction point (`1.0`) and writes the shortest text that reads
            // back as the same double, as Python's `repr` does.
            self.out.push_str(&format!("{float:?}"));
        }
    }
}

fn push_string(out: &mut String, text: &str) {
    // Writing a string into a `String` cannot fail.
    out.push_str(&serde_json::to_string(text).unwrap_or_default());
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

fn not_json(path: &Path<'_>, what: &str) -> NotJson {
    NotJson(ArgumentError::new(
        path.render(),
        Code::InvalidJson,
        format!("{what}; send JSON values only"),
    ))
}

/// A JSON value as the Python object `json.loads` would give.
pub(crate) fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key_of(py, key), to_python(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// How many keys each thread keeps (a power of two: a key's place is its hash's low bits),
/// and how long a key kept may be.
const KEPT_KEYS: usize = 256;
const KEPT_KEY_BYTES: usize = 64;

/// A key kept: its text, and the Python string made of it. A thread that ends leaves its
/// strings to Python (interned, they are Python's too), with no reference let go once Python
/// may have finished.
type Kept = Option<(Box<str>, ManuallyDrop<Py<PyString>>)>;

thread_local! {
    /// Keys made into Python strings, each at the place its hash gives (a key that comes to
    /// the place of another takes it): a tool's property names, met in every call's dict.
    static KEYS: RefCell<Vec<Kept>> = const { RefCell::new(Vec::new()) };
}

/// An object's key as a Python string: the one made for the same key before, when this thread
/// keeps it, so that a call's dict takes a string that is there, hash and all, instead of
/// making, hashing and freeing one of its own (as pydantic keeps its fields' names).
fn key_of<'py>(py: Python<'py>, key: &str) -> Bound<'py, PyString> {
    if key.len() > KEPT_KEY_BYTES {
        return PyString::new(py, key);
    }
    let place = place_of(key);
    let kept = KEYS.try_with(|keys| match keys.try_borrow().ok()?.get(place) {
        Some(Some((text, string))) if **text == *key => Some(string.bind(py).clone()),
        _ => None,
    });
    if let Ok(Some(string)) = kept {
        return string;
    }
    // Made with no borrow held: making a string runs no Python code, but nothing is assumed.
    let string = PyString::intern(py, key);
    let _ = KEYS.try_with(|keys| {
        let Ok(mut keys) = keys.try_borrow_mut() else {
            return;
        };
        if keys.is_empty() {
            keys.resize_with(KEPT_KEYS, || None);
        }
        if let Some(slot) = keys.get_mut(place) {
            let kept = Some((key.into(), ManuallyDrop::new(string.clone().unbind())));
            if let Some((_, displaced)) = std::mem::replace(slot, kept) {
                // Let go with the GIL held.
                drop(ManuallyDrop::into_inner(displaced));
            }
        }
    });
    string
}

/// Where [`key_of`] keeps `key`: its FNV-1a hash's low bits.
fn place_of(key: &str) -> usize {
    let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    // The low bits of a 64-bit hash: the truncation is the point.
    #[allow(clippy::cast_possible_truncation)]
    let place = hash as usize;
    place & (KEPT_KEYS - 1)
}
