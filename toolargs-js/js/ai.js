// `toolargs/ai`: the gate in front of the tools of the Vercel AI SDK (`ai`, major 7).
//
// The SDK decodes a call's JSON text and validates it with the tool's `inputSchema` before
// `execute`. A gated tool's `inputSchema` is the same JSON Schema, sent to the model as before,
// with a `validate` that is the gate: the repaired arguments are what the SDK passes on, so no
// schema of the tool undoes a repair or rejects what the gate accepted. A rejected call reaches
// `execute` as the call sent, and the gated `execute` throws `Rejected` without calling the
// tool's: the SDK reports a `tool-error`, and the model reads the error's message, which is
// the gate's JSON (`{"ok":false,"errors":[...]}`).
//
// With a `session` (a `Session` of the package, one per conversation), `execute` judges the
// call in it, as it reached `execute` (as sent when rejected, repaired when accepted): one it
// holds (`confirm`) or rejects throws the same way, and one it lets run is recorded as
// executed once the tool's `execute` is done. The decisions are the session's.

import { asSchema, jsonSchema } from "ai";
import { Rejected, Session, Spec } from "toolargs";

import { writeJson } from "./json.js";

/** The spec of a tool's input schema: a zod 4 schema through zod, any other through the JSON
 * Schema the SDK sends the model. */
function specOf(inputSchema, options) {
  if (inputSchema !== null && typeof inputSchema === "object" && "_zod" in inputSchema) {
    return { spec: Spec.fromZod(inputSchema, options), json: asSchema(inputSchema).jsonSchema };
  }
  const json = asSchema(inputSchema).jsonSchema;
  if (typeof json?.then === "function") {
    const spec = Promise.resolve(json).then((json) => new Spec(json, options));
    return { spec, json };
  }
  return { spec: new Spec(json, options), json };
}

/** `Rejected`, written as the gate's JSON alone: the SDK tells the model `String(error)`. */
class ToolRejected extends Rejected {
  toString() {
    return this.forModel();
  }
}

/** What the gate decided, by the value the SDK decoded, until `execute` sees it: the
 * arguments it accepted, or the rejection. */
const JUDGED = new WeakMap();

/**
 * A tool whose input meets the gate: repaired arguments reach `execute`; a rejected call never
 * does, and the model is told the gate's JSON.
 */
export function gated(tool, options) {
  if (tool === null || typeof tool !== "object" || tool.inputSchema == null) {
    throw new TypeError("gated takes a tool of the AI SDK, with its inputSchema");
  }
  const { session = null, ...specOptions } = options ?? {};
  const execute = typeof tool.execute === "function" ? tool.execute : null;
  if (session !== null) {
    if (!(session instanceof Session)) {
      throw new TypeError("gated: session must be a Session of toolargs (new Session())");
    }
    if (typeof specOptions.name !== "string") {
      throw new TypeError("gated: a tool judged in a session needs its name, the key it has in tools: gated(tool, { session, name })");
    }
    if (execute === null) {
      throw new TypeError("gated: a tool judged in a session runs here: it needs its execute");
    }
  }
  const { spec, json } = specOf(tool.inputSchema, specOptions);
  // The spec, once loaded (a JSON Schema the SDK gives as a promise loads on the first call).
  let loaded = spec instanceof Spec ? spec : null;
  const judge = (value) => {
    const result = loaded.parse(value);
    return result.ok ? result.arguments : new ToolRejected(result.errors, result.forModel());
  };
  const inputSchema = jsonSchema(json, {
    async validate(value) {
      loaded ??= await spec;
      const verdict = judge(value);
      if (!(verdict instanceof Rejected)) {
        if (verdict !== null && typeof verdict === "object") JUDGED.set(verdict, verdict);
        return { success: true, value: verdict };
      }
      // Without an `execute` (a tool the client runs), or for a value that is not an object,
      // the SDK's own invalid-input error carries the rejection.
      if (execute === null || value === null || typeof value !== "object") {
        return { success: false, error: verdict };
      }
      JUDGED.set(value, verdict);
      return { success: true, value };
    },
  });
  const gatedTool = { ...tool, inputSchema };
  if (execute !== null) {
    // Not an async function: what the tool's `execute` returns (a promise, a value, an async
    // iterable of outputs) is returned as it is.
    gatedTool.execute = function (input, ...rest) {
      if (session !== null) {
        const result = session.parse(loaded, input);
        if (!result.ok || result.decision === "confirm") throw held(result);
        const args = result.arguments;
        return afterRun(execute.call(this, args, ...rest), () => session.executed(loaded, args));
      }
      // Input changed after validation (`experimental_refineToolInput`) is judged again.
      let verdict = input !== null && typeof input === "object" ? JUDGED.get(input) : undefined;
      if (verdict === undefined) verdict = judge(input);
      if (verdict instanceof Rejected) throw verdict;
      return execute.call(this, verdict, ...rest);
    };
  }
  return gatedTool;
}

/** The rejection of a call a session does not let run: its errors are those the model reads
 * (for a call held for a confirmation, its code and why). */
function held(result) {
  const model = result.forModel();
  const errors = result.ok
    ? JSON.parse(model).errors.map((e) => ({ path: e.path, code: e.error, message: e.message }))
    : result.errors;
  return new ToolRejected(errors, model);
}

/** What `execute` returned, with `ran` called once it is done: a promise once it resolves,
 * an async iterable of outputs once its last is read, anything else now. */
function afterRun(output, ran) {
  if (output !== null && (typeof output === "object" || typeof output === "function")) {
    if (typeof output.then === "function") {
      return output.then((value) => {
        ran();
        return value;
      });
    }
    if (typeof output[Symbol.asyncIterator] === "function") return ranAfter(output, ran);
  }
  ran();
  return output;
}

async function* ranAfter(outputs, ran) {
  yield* outputs;
  ran();
}

/**
 * For `generateText`'s and `streamText`'s `experimental_repairToolCall`: a call that the tool's
 * own schema refused is repaired here, without asking the model again, when the gate repairs
 * it (the SDK then validates the repaired call with the tool's schema); `null` otherwise, and
 * the SDK reports the tool's own error.
 */
export function repairToolCall(options) {
  const specs = new Map();
  return async ({ toolCall, tools, inputSchema }) => {
    const tool = tools?.[toolCall.toolName];
    if (tool == null || !Object.hasOwn(tools, toolCall.toolName)) return null;
    let spec = specs.get(tool);
    if (spec === undefined) {
      try {
        spec = new Spec(await inputSchema({ toolName: toolCall.toolName }), options);
      } catch {
        spec = null;
      }
      specs.set(tool, spec);
    }
    if (spec === null) return null;
    const result = spec.parse(toolCall.input);
    if (!result.ok || result.repairs.length === 0) return null;
    return { ...toolCall, input: writeJson(result.arguments, Infinity, Infinity) };
  };
}
