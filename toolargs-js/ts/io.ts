// A call's text into the module's memory and its verdict out (`src/io.rs`), without
// wasm-bindgen's copies: its glue writes a string argument a character at a time and reads a
// string result with a `TextDecoder` made for each, which together take longer than judging a
// short call. Here the text is written with `TextEncoder.encodeInto` into a buffer the module
// keeps, through a view of it made once (a view made for each call costs more than the
// encoding), and the verdict decoded with one `TextDecoder` where the module left it. Only
// standard APIs: the same code on every runtime.

import { inputBuffer, wasmMemory as memory, outputAt } from "./toolargs_js.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The room kept for a call's text between calls, and the most kept after a larger one. */
const ROOM = 4096;
const KEPT = 64 * 1024;
let module: WebAssembly.Memory | undefined;
/** Views of the module's memory; its `ArrayBuffer` is replaced (and the old one emptied) each
 * time the memory grows. */
let bytes: Uint8Array | undefined;
let words: Uint32Array;
/** The input buffer, as a view of the memory as it stands. */
let input: Uint8Array | undefined;
/** Where the module's input buffer is, and its size in bytes. */
let at = 0;
let room = 0;
/** Where the module's output buffer is. */
let verdictAt = 0;

function refresh(): Uint8Array {
  if (bytes === undefined || bytes.byteLength === 0) {
    module ??= memory() as WebAssembly.Memory;
    bytes = new Uint8Array(module.buffer);
    words = new Uint32Array(module.buffer);
    input = undefined;
  }
  return bytes;
}

/** Writes `text`, a well-formed string within the gate's size limit, where the module reads a
 * call's text; gives its length in bytes. */
export function writeInput(text: string): number {
  // At most three bytes of UTF-8 for each UTF-16 unit.
  const need = text.length * 3;
  if (need > room || (room > KEPT && need <= ROOM)) {
    room = Math.max(need, ROOM);
    at = inputBuffer(room);
    input = undefined;
  }
  const memoryBytes = refresh();
  input ??= memoryBytes.subarray(at, at + room);
  return encoder.encodeInto(text, input).written;
}

/** Where the verdict the module kept starts in its memory, from the code it gave
 * (`src/io.rs`): its length, and whether it moved since the last. */
export function verdictStart(code: number): number {
  if (code & 4) verdictAt = outputAt();
  // The verdict may have grown the memory.
  refresh();
  return verdictAt;
}

/** The module's memory as 32-bit words, as it stands after `verdictStart`. */
export function memoryWords(): Uint32Array {
  return words;
}

/** The text of the verdict the module kept, from the code it gave. */
export function verdictText(code: number): string {
  const start = verdictStart(code);
  return decode(start, start + (code >>> 3));
}

/** The UTF-8 text of the module's memory from `start` to `end`. */
export function decode(start: number, end: number): string {
  return decoder.decode((bytes as Uint8Array).subarray(start, end));
}
