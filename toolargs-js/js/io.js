// A call's text into the module's memory and its verdict out (`src/io.rs`), without
// wasm-bindgen's copies: its glue writes a string argument a character at a time and reads a
// string result with a `TextDecoder`, which together take longer than judging a short call.
// Here the text is written with the fastest encoder the runtime has (Node.js's and Bun's
// `Buffer`, elsewhere `TextEncoder.encodeInto`) into a buffer the module keeps, and the
// verdict decoded where the module left it.

import { inputBuffer, outputAt, wasmMemory as memory } from "../dist/toolargs_js.js";

/** Node.js's `Buffer` where it is the runtime's own (Node.js, Bun), not a bundler's copy, with
 * the UTF-8 writer and reader its `write` and `toString` call after checking their arguments
 * (which here are always in range). */
const NodeBuffer =
  typeof globalThis.Buffer === "function" &&
  typeof globalThis.process?.versions?.node === "string" &&
  typeof globalThis.Buffer.prototype.utf8Write === "function" &&
  typeof globalThis.Buffer.prototype.utf8Slice === "function"
    ? globalThis.Buffer
    : undefined;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The room kept for a call's text between calls, and the most kept after a larger one. */
const ROOM = 4096;
const KEPT = 64 * 1024;

let module;
/** Views of the module's memory; its `ArrayBuffer` is replaced (and the old one emptied) each
 * time the memory grows. */
let bytes, nodeBytes, words;
/** Where the module's input buffer is, and its size in bytes. */
let at = 0;
let room = 0;
/** Where the module's output buffer is. */
let verdictAt = 0;

function refresh() {
  if (bytes === undefined || bytes.byteLength === 0) {
    module ??= memory();
    bytes = new Uint8Array(module.buffer);
    nodeBytes = NodeBuffer?.from(module.buffer);
    words = new Uint32Array(module.buffer);
  }
}

/** Writes `text`, a well-formed string within the gate's size limit, where the module reads a
 * call's text; gives its length in bytes. */
export function writeInput(text) {
  // At most three bytes of UTF-8 for each UTF-16 unit.
  const need = text.length * 3;
  if (need > room || (room > KEPT && need <= ROOM)) {
    room = Math.max(need, ROOM);
    at = inputBuffer(room);
  }
  refresh();
  if (nodeBytes) return nodeBytes.utf8Write(text, at, room);
  return encoder.encodeInto(text, bytes.subarray(at, at + room)).written;
}

/** Where the verdict the module kept starts in its memory, from the code it gave
 * (`src/io.rs`): its length, and whether it moved since the last. */
export function verdictStart(code) {
  if (code & 4) verdictAt = outputAt();
  // The verdict may have grown the memory.
  refresh();
  return verdictAt;
}

/** The module's memory as 32-bit words, as it stands after `verdictStart`. */
export function memoryWords() {
  return words;
}

/** The text of the verdict the module kept, from the code it gave. */
export function verdictText(code) {
  const start = verdictStart(code);
  return decode(start, start + (code >>> 3));
}

/** The UTF-8 text of the module's memory from `start` to `end`. */
export function decode(start, end) {
  if (nodeBytes) return nodeBytes.utf8Slice(start, end);
  return decoder.decode(bytes.subarray(start, end));
}
