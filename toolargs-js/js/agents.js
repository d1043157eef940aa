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

import { Spec } from "toolargs";

import { writeJson } from "./json.js";

/**
 * `tool(toolOptions)` (the SDK's `tool`, passed in), gated: see the module's comment.
 */
export function gatedTool(tool, toolOptions, options) {
  if (typeof tool !== "function" || toolOptions == null || typeof toolOptions !== "object") {
    throw new TypeError("gatedTool takes the Agents SDK's tool function and its options");
  }
  const parameters = toolOptions.parameters;
  const spec =
    parameters !== null && typeof parameters === "object" && "_zod" in parameters
      ? Spec.fromZod(parameters, options)
      : new Spec(parameters, options);
  const made = tool(toolOptions);
  const invoke = made.invoke;
  return {
    ...made,
    async invoke(runContext, input, details) {
      const result = spec.parse(input);
      if (!result.ok) return result.forModel();
      const text = result.repairs.length === 0 ? input : writeJson(result.arguments, Infinity, Infinity);
      return invoke.call(made, runContext, text, details);
    },
  };
}
