//! Text in and out of the module without wasm-bindgen's copies: the wrapper writes a call's
//! text into the module's memory (`inputBuffer`), and reads each verdict from it
//! (`outputAt`, with the length and kind the call gave), through views of `wasmMemory`.
//!
//! A string argument or result crosses through wasm-bindgen's glue, which writes the text in
//! a loop over its characters and reads the result with a `TextDecoder`: together more time
//! than a short call takes to judge. The wrapper instead writes the text with the fastest
//! encoder its runtime has (Node.js's `Buffer`, or `TextEncoder.encodeInto`) into a buffer the
//! module keeps, and decodes the verdict where the module left it.

use std::cell::{Cell, RefCell};
use std::ptr;

use wasm_bindgen::prelude::*;

use toolargs_core::{ArgumentError, Code, Path, Rejection};

use crate::convert::{self, Kind, Verdict};

thread_local! {
    /// The text of the next call, as the wrapper wrote it: every byte initialised, so that
    /// reading what it wrote needs nothing unsafe.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last verdict written, in a buffer kept from call to call: the next verdict is
    /// written into it ([`output_buffer`]), so that it rarely moves.
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// Where the wrapper was last told the verdict is.
    static SHOWN: Cell<*const u8> = const { Cell::new(ptr::null()) };
}

/// The room the output buffer keeps after a larger verdict.
const KEPT: usize = 64 * 1024;

/// The output buffer, emptied, to write the next verdict into and hand to [`emit`].
pub fn output_buffer() -> Vec<u8> {
    let mut buffer = OUTPUT.take();
    empty(&mut buffer, 0);
    buffer
}

/// Empties `buffer` for a verdict of `len` bytes (0 when not known yet), giving back the room
/// a larger verdict before it took past [`KEPT`].
fn empty(buffer: &mut Vec<u8>, len: usize) {
    buffer.clear();
    if buffer.capacity() > KEPT && len <= KEPT {
        buffer.shrink_to(KEPT);
    }
}

/// Where the wrapper writes the text of the next calls: `capacity` bytes (the wrapper decides
/// how much room to keep). The address holds until the next call of this function.
#[wasm_bindgen(js_name = inputBuffer)]
pub fn input_buffer(capacity: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|input| {
        if input.len() != capacity {
            // Zeroed, not resized in place: the old text is not worth copying.
            *input = vec![0; capacity];
        }
        input.as_mut_ptr()
    })
}

/// Runs `f` on the first `len` bytes the wrapper wrote (fewer if it claims more than there
/// is room for), and keeps the verdict it gives ([`emit`]).
pub(crate) fn with_input(len: usize, f: impl FnOnce(&[u8]) -> Verdict) -> u32 {
    emit(INPUT.with_borrow(|input| f(&input[..len.min(input.len())])))
}

/// The longest verdict [`emit`] hands over: its length, kind and whether it moved share a
/// 32-bit number.
pub const LONGEST: usize = (u32::MAX >> 3) as usize;

/// Keeps a verdict in the output buffer for the wrapper to read, and gives its length in
/// bytes, whether it is somewhere else than the wrapper was last told (then [`output_at`]
/// says where), and its kind, as one number: `8 * length + 4 * moved + kind`. A verdict past
/// [`LONGEST`] (half a GiB: far more than a call within the gate's limits gives) is not handed
/// over: the call is rejected `too_large` instead. The wrapper reads every code it is given,
/// or loses track of where the verdicts are.
pub fn emit(verdict: Verdict) -> u32 {
    let verdict = match verdict.bytes.len() <= LONGEST {
        true => verdict,
        false => convert::verdict(
            &Err(Rejection::single(ArgumentError::new(
                Path::ROOT.render(),
                Code::TooLarge,
                "the verdict on these arguments is too large to hand over",
            ))),
            0,
        ),
    };
    let (len, kind) = (verdict.bytes.len(), verdict.kind);
    let at = OUTPUT.with_borrow_mut(|output| {
        // Written in the output buffer (taken from it, and so left empty), or copied there. A
        // tape is never copied: where its words start depends on where it is.
        if output.capacity() == 0 || kind == Kind::Tape {
            *output = verdict.bytes;
        } else {
            empty(output, len);
            output.extend_from_slice(&verdict.bytes);
        }
        output.as_ptr()
    });
    let moved = SHOWN.replace(at) != at;
    (len as u32) << 3 | u32::from(moved) << 2 | kind as u32
}

/// Where the last verdict's text starts in the module's memory; the same as the verdict before
/// unless [`emit`] said it moved.
#[wasm_bindgen(js_name = outputAt)]
pub fn output_at() -> *const u8 {
    OUTPUT.with_borrow(|output| output.as_ptr())
}

/// The module's memory, for the wrapper's views of it.
#[wasm_bindgen(js_name = wasmMemory)]
pub fn memory() -> JsValue {
    wasm_bindgen::memory()
}
