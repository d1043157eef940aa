//! The module's allocator: dlmalloc (Rust's allocator on `wasm32-unknown-unknown`) behind free
//! lists of small blocks. A verdict allocates and frees many small blocks (strings, maps, the
//! nodes of the call); a freed one goes on the list of its size and the next allocation of
//! that size takes it back at once, where dlmalloc would look for it among its bins. Blocks on
//! the lists are not given back to dlmalloc: they are at most what the largest verdict held
//! at once. One large block is kept too when freed: the stack of its own that the walk
//! allocates for each call (`stacker`, which cannot tell how much stack is left here), taken
//! back by the next call. Only where the module runs on one thread (no `atomics`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;
use std::ptr;

/// Blocks of `GRAIN`, `2 * GRAIN`, ... `CLASSES * GRAIN` bytes, aligned to `GRAIN`.
const GRAIN: usize = 16;
const CLASSES: usize = 64;

/// The allocator (see the module).
pub struct Lists {
    /// The first free block of each size; each free block holds the address of the next.
    heads: UnsafeCell<[*mut u8; CLASSES]>,
    /// A large block freed and kept, with its layout.
    kept: UnsafeCell<(*mut u8, Layout)>,
}

/// The size from which a freed block is kept rather than given back.
const LARGE: usize = 64 * 1024;

// SAFETY: the module runs on one thread: no two calls ever use the lists at once.
unsafe impl Sync for Lists {}

impl Lists {
    /// No free block yet.
    pub const fn new() -> Lists {
        Lists {
            heads: UnsafeCell::new([ptr::null_mut(); CLASSES]),
            kept: UnsafeCell::new((ptr::null_mut(), Layout::new::<u8>())),
        }
    }
}

/// The list a block of `layout` goes on, when it is small enough for one.
fn class(layout: Layout) -> Option<usize> {
    (layout.size() <= GRAIN * CLASSES && layout.align() <= GRAIN && layout.size() > 0)
        .then(|| (layout.size() - 1) / GRAIN)
}

/// The layout dlmalloc gives the blocks of a list.
fn block(class: usize) -> Layout {
    // A multiple of GRAIN, aligned to GRAIN: always a valid layout.
    Layout::from_size_align((class + 1) * GRAIN, GRAIN).unwrap_or(Layout::new::<u8>())
}

unsafe impl GlobalAlloc for Lists {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(class) = class(layout) else {
            let kept = &mut *self.kept.get();
            if kept.1 == layout && !kept.0.is_null() {
                return std::mem::replace(&mut kept.0, ptr::null_mut());
            }
            return System.alloc(layout);
        };
        let heads = &mut *self.heads.get();
        let head = heads[class];
        if head.is_null() {
            return System.alloc(block(class));
        }
        heads[class] = head.cast::<*mut u8>().read();
        head
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let Some(class) = class(layout) else {
            let kept = &mut *self.kept.get();
            if layout.size() >= LARGE {
                let (old, old_layout) = std::mem::replace(kept, (ptr, layout));
                if !old.is_null() {
                    System.dealloc(old, old_layout);
                }
                return;
            }
            return System.dealloc(ptr, layout);
        };
        let heads = &mut *self.heads.get();
        ptr.cast::<*mut u8>().write(heads[class]);
        heads[class] = ptr;
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = Layout::from_size_align_unchecked(new_size, layout.align());
        match (class(layout), class(new)) {
            (None, None) => System.realloc(ptr, layout, new_size),
            (Some(a), Some(b)) if a == b => ptr,
            _ => {
                let moved = self.alloc(new);
                if !moved.is_null() {
                    ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                    self.dealloc(ptr, layout);
                }
                moved
            }
        }
    }
}
