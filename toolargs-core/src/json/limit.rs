//! The errors of the [`Limits`] on hostile input, shared by the reader and the borrowing of
//! decoded values.

use crate::options::Limits;
use crate::path::Path;
use crate::report::{ArgumentError, Code};

pub(super) fn too_deep(limits: &Limits) -> ArgumentError {
    ArgumentError {
        path: "$".to_owned(),
        code: Code::TooDeep,
        message: format!(
            "arrays and objects are nested more than {} levels deep; send a flatter payload",
            limits.max_depth
        ),
    }
}

pub(super) fn too_long(path: &Path<'_>, key: bool, limits: &Limits) -> ArgumentError {
    let what = if key { "an object key" } else { "this string" };
    ArgumentError {
        path: path.render(),
        code: Code::TooLong,
        message: format!(
            "{what} is longer than the limit of {} bytes; send a shorter value",
            limits.max_string_bytes
        ),
    }
}

pub(super) fn too_many_items(path: &Path<'_>, limits: &Limits) -> ArgumentError {
    ArgumentError {
        path: path.render(),
        code: Code::TooManyItems,
        message: format!(
            "this array has more than {} items, the limit; send fewer items",
            limits.max_items
        ),
    }
}

pub(super) fn too_many_keys(path: &Path<'_>, limits: &Limits) -> ArgumentError {
    ArgumentError {
        path: path.render(),
        code: Code::TooManyKeys,
        message: format!(
            "this object has more than {} keys, the limit; send fewer keys",
            limits.max_keys
        ),
    }
}
