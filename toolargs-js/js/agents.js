// `toolargs/agents`: the gate in front of a function tool of the OpenAI Agents SDK for
// JavaScript (`@openai/agents`, 0.x).
//
// A function tool is called with the model's JSON text (`invoke(runContext, input)`), which
// the SDK parses with the tool's `parameters` before `execute`. `gatedTool` makes the tool with
// the SDK's own `tool` and judges that text first: a rejected call never reaches the parser or
// `execute`, and its output, which the model reads, is the gate's JSON; a repaired call goes on
// as the JSON text of the repaired arguments. The spec is the zod schema of `parameters` as
// written (the SDK sends the model a lowered copy for strict mode, where `int` is lost), or
// their JSON Schema.
//
// With a `session` (a `Session` of the package, one per conversation), the text is judged in
// it, under the tool's name: a call it holds (`confirm`) or rejects is answered the same way,
// and one it lets run is recorded as executed once the tool's `execute` is done (the SDK
// turns an error thrown there into the tool's output: that call is not recorded). The
// decisions are the session's.

import { Session, Spec } from "toolargs";

import { writeJson } from "./json.js";

/** The arguments the gate passed on, by the call's `details` (which the SDK hands `execute`),
 * for the session to record: what the SDK's parser made of them may not be JSON. */
const PASSED = new WeakMap();

/**
 * `tool(toolOptions)` (the SDK's `tool`, passed in), gated: see the module's comment.
 */
export function gatedTool(tool, toolOptions, options) {
  if (typeof tool !== "function" || toolOptions == null || typeof toolOptions !== "object") {
    throw new TypeError("gatedTool takes the Agents SDK's tool function and its options");
  }
  const { session = null, ...specOptions } = options ?? {};
  if (session !== null && !(session instanceof Session)) {
    throw new TypeError("gatedTool: session must be a Session of toolargs (new Session())");
  }
  const execute = toolOptions.execute;
  const parameters = toolOptions.parameters;
  // Named as the SDK names the tool: by `toolOptions`, else by `execute`.
  const named = { ...specOptions, name: specOptions.name ?? (toolOptions.name || execute?.name || null) };
  const spec =
    parameters !== null && typeof parameters === "object" && "_zod" in parameters
      ? Spec.fromZod(parameters, named)
      : new Spec(parameters, named);
  let made;
  if (session !== null && typeof execute === "function") {
    // Recorded once done. The SDK reads the tool's name from `execute` when `toolOptions`
    // give none: it keeps its own.
    const ran = async function (input, runContext, details, ...rest) {
      const output = await execute.call(this, input, runContext, details, ...rest);
      const passed = details !== null && typeof details === "object" ? PASSED.get(details) : undefined;
      session.executed(spec, passed ?? input);
      return output;
    };
    Object.defineProperty(ran, "name", { value: execute.name });
    made = tool({ ...toolOptions, execute: ran });
  } else {
    made = tool(toolOptions);
  }
  const invoke = made.invoke;
  return {
    ...made,
    async invoke(runContext, input, details) {
      const result = session === null ? spec.parse(input) : session.parse(spec, input);
      if (!result.ok || result.decision === "confirm") return result.forModel();
      const text = result.repairs.length === 0 ? input : writeJson(result.arguments, Infinity, Infinity);
      if (session !== null && details !== null && typeof details === "object") PASSED.set(details, result.arguments);
      return invoke.call(made, runContext, text, details);
    },
  };
}
