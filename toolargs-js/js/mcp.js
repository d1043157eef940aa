// `toolargs/mcp`: the gate in front of every tool of an `McpServer` of the MCP TypeScript SDK
// (`@modelcontextprotocol/sdk`, 1.x).
//
// The server validates a call's arguments with the tool's zod schema (`validateToolInput`)
// before its handler, and answers an error thrown there with an `isError` result holding the
// error's message. `gateServer` puts the gate first: a rejected call is answered with the
// gate's JSON (`{"ok":false,"errors":[...]}`) and never reaches the handler; an accepted one
// goes on repaired to the tool's own schema (which the repair now meets: `"1999"` is `1999` for
// `z.number()`) and its handler. The tools listed to clients are unchanged.

import { Spec } from "toolargs";
// The MCP SDK's own dependency (zod 3.25 and later have it).
import { toJSONSchema } from "zod/v4/core";

const GATED = Symbol("toolargs.gated");

/** The spec of a registered tool: the JSON Schema of its zod schema of what it accepts as
 * input (the server holds a tool's shape as a zod object), with its annotations
 * (`destructiveHint`, `readOnlyHint`, ...) deciding what `options` leave open. */
function specOf(tool, options) {
  if (!("_zod" in tool.inputSchema)) {
    throw new TypeError(
      "gateServer gates tools with zod 4 schemas (zod 3 has no JSON Schema export of its own)",
    );
  }
  const inputSchema = toJSONSchema(tool.inputSchema, { io: "input" });
  return new Spec({ name: "tool", inputSchema, annotations: tool.annotations ?? {} }, options);
}

/**
 * Gates every tool of `server` (an `McpServer`), those registered before and after. The spec of
 * a tool is loaded on its first call, again when its schema or annotations change.
 */
export function gateServer(server, options) {
  if (typeof server?.validateToolInput !== "function") {
    throw new TypeError("gateServer takes an McpServer of @modelcontextprotocol/sdk 1.x");
  }
  if (server[GATED]) return server;
  // Options are checked now, not on the first call.
  new Spec({ type: "object" }, options);
  const validate = server.validateToolInput;
  const specs = new WeakMap();
  server.validateToolInput = async function (tool, args, toolName) {
    if (!tool?.inputSchema) return validate.call(this, tool, args, toolName);
    let entry = specs.get(tool);
    if (entry?.schema !== tool.inputSchema || entry?.annotations !== tool.annotations) {
      entry = { schema: tool.inputSchema, annotations: tool.annotations, spec: specOf(tool, options) };
      specs.set(tool, entry);
    }
    const result = entry.spec.parse(args ?? {});
    if (!result.ok) throw new GateError(result.forModel());
    return validate.call(this, tool, result.arguments, toolName);
  };
  server[GATED] = true;
  return server;
}

/** A rejection: its message, which the server sends as the result's text, is the gate's JSON. */
class GateError extends Error {}
