// `toolargs/mcp`: the gate in front of every tool of an `McpServer` of the MCP TypeScript SDK
// (`@modelcontextprotocol/sdk`, 1.x).
//
// The server validates a call's arguments with the tool's zod schema (`validateToolInput`)
// before its handler, and answers an error thrown there with an `isError` result holding the
// error's message. `gateServer` puts the gate first: a rejected call is answered with the
// gate's JSON (`{"ok":false,"errors":[...]}`) and never reaches the handler; an accepted one
// goes on repaired to the tool's own schema (which the repair now meets: `"1999"` is `1999` for
// `z.number()`) and its handler. The tools listed to clients are unchanged.
//
// Every call is judged in the session of the client's MCP session (its transport's
// `sessionId`; one session for a server whose transport has none), under the tool's name: a
// call it holds (`confirm`) or rejects is answered the same way, and one it lets run is
// recorded as executed once the handler is done (`executeToolHandler`, which is handed the
// arguments `validateToolInput` returned). The decisions are the session's.

import { Session, Spec } from "toolargs";
// The MCP SDK's own dependency (zod 3.25 and later have it).
import { toJSONSchema } from "zod/v4/core";

const GATED = Symbol("toolargs.gated");
/** The MCP sessions a server's gate keeps sessions for; past it, the least recently called
 * is forgotten. */
const MAX_SESSIONS = 4096;

/** The spec of a registered tool, named `name`: the JSON Schema of its zod schema of what it
 * accepts as input (the server holds a tool's shape as a zod object), with its annotations
 * (`destructiveHint`, `readOnlyHint`, ...) deciding what `options` leave open. */
function specOf(tool, name, options) {
  if (!("_zod" in tool.inputSchema)) {
    throw new TypeError(
      "gateServer gates tools with zod 4 schemas (zod 3 has no JSON Schema export of its own)",
    );
  }
  const inputSchema = toJSONSchema(tool.inputSchema, { io: "input" });
  return new Spec({ name: "tool", inputSchema, annotations: tool.annotations ?? {} }, { ...options, name });
}

/**
 * Gates every tool of `server` (an `McpServer`), those registered before and after. The spec of
 * a tool is loaded on its first call, again when its name, schema or annotations change.
 */
export function gateServer(server, options) {
  if (typeof server?.validateToolInput !== "function" || typeof server?.executeToolHandler !== "function") {
    throw new TypeError("gateServer takes an McpServer of @modelcontextprotocol/sdk 1.x");
  }
  if (server[GATED]) return server;
  const { effect, unknown, meaning, sessions: sessionOptions } = options ?? {};
  // Options are checked now, not on the first call.
  new Spec({ type: "object" }, { effect, unknown });
  checkMeaning(meaning);
  const unnamed = new Session(sessionOptions);
  const sessions = new Map();
  /** The session of the MCP session `id`, now the most recently called. */
  const sessionOf = (id) => {
    if (typeof id !== "string") return unnamed;
    let session = sessions.get(id);
    if (session === undefined) {
      session = new Session(sessionOptions);
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value);
    } else {
      sessions.delete(id);
    }
    sessions.set(id, session);
    return session;
  };
  const validate = server.validateToolInput;
  const execute = server.executeToolHandler;
  const specs = new WeakMap();
  /** What records a call that passed, by the arguments `validateToolInput` returned. */
  const passed = new WeakMap();
  server.validateToolInput = async function (tool, args, toolName) {
    if (!tool?.inputSchema) return validate.call(this, tool, args, toolName);
    let entry = specs.get(tool);
    if (entry?.schema !== tool.inputSchema || entry?.annotations !== tool.annotations || entry?.name !== toolName) {
      const declared = meaning != null && Object.hasOwn(meaning, toolName) ? meaning[toolName] : undefined;
      const spec = specOf(tool, toolName, { effect, unknown, meaning: declared });
      entry = { schema: tool.inputSchema, annotations: tool.annotations, name: toolName, spec };
      specs.set(tool, entry);
    }
    const session = sessionOf(server.server?.transport?.sessionId);
    const result = session.parse(entry.spec, args ?? {});
    if (!result.ok || result.decision === "confirm") throw new GateError(result.forModel());
    const valid = await validate.call(this, tool, result.arguments, toolName);
    if (valid !== null && typeof valid === "object") {
      passed.set(valid, () => session.executed(entry.spec, result.arguments));
    }
    return valid;
  };
  server.executeToolHandler = async function (tool, args, extra) {
    const ran = args !== null && typeof args === "object" ? passed.get(args) : undefined;
    const output = await execute.call(this, tool, args, extra);
    if (ran !== undefined) {
      passed.delete(args);
      ran();
    }
    return output;
  };
  server[GATED] = true;
  return server;
}

/** `meaning`: absent, or declarations by tool name, each an object. */
function checkMeaning(meaning) {
  if (meaning === undefined || meaning === null) return;
  const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
  if (!isObject(meaning)) throw new TypeError("gateServer: meaning must be an object of declarations by tool name");
  for (const [tool, declared] of Object.entries(meaning)) {
    if (!isObject(declared)) {
      throw new TypeError(`gateServer: the meaning of ${JSON.stringify(tool)} must be an object of declarations by argument path`);
    }
  }
}

/** A rejection: its message, which the server sends as the result's text, is the gate's JSON. */
class GateError extends Error {}
