/**
 * `toolargs/mcp`: the gate in front of every tool of an `McpServer` of the MCP TypeScript SDK
 * (`@modelcontextprotocol/sdk`, 1.x).
 *
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 * import { gateServer } from "toolargs/mcp";
 *
 * const server = gateServer(new McpServer({ name: "shop", version: "1.0.0" }));
 * ```
 *
 * @packageDocumentation
 */

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

import { type Effect, type Meaning, Session, type SessionOptions, Spec, type UnknownPolicy } from "toolargs";
import { callbacksOf, type GateCallbacks, tell } from "./callbacks.js";
// The MCP SDK's own dependency (zod 3.25 and later have it).
import { type $ZodType, toJSONSchema } from "zod/v4/core";

/** The options of `gateServer`, for every tool of the server, and the callbacks told of each
 * call repaired or refused (`onRepair(result, toolName)`, `onReject(result, toolName)`). */
export interface GateServerOptions extends GateCallbacks {
  /** What each tool does, over what its annotations say. */
  effect?: Effect | null;
  /** What happens to undeclared keys, over what the effect implies. */
  unknown?: UnknownPolicy | null;
  /** What each tool's arguments mean, by tool name, then by argument path, over what
   * `x-toolargs` in its schema says. A declaration that does not fit its tool's schema
   * answers each call of the tool with the `LoadError`'s message. */
  meaning?: Record<string, Meaning> | null;
  /** The options of the sessions the gate makes, one per MCP session. */
  sessions?: SessionOptions | null;
}

/** A tool as the server keeps it, what the gate reads of it. */
interface RegisteredTool {
  inputSchema?: object;
  annotations?: object;
}

/** The members of an `McpServer` the gate wraps. */
interface GatedServer {
  validateToolInput(tool: RegisteredTool, args: unknown, toolName: string): Promise<unknown>;
  executeToolHandler(tool: RegisteredTool, args: unknown, extra: unknown): Promise<unknown>;
  server?: { transport?: { sessionId?: unknown } };
  [GATED]?: boolean;
}

const GATED = Symbol("toolargs.gated");
/** The MCP sessions a server's gate keeps sessions for; past it, the least recently called
 * is forgotten. */
const MAX_SESSIONS = 4096;

/** The spec of a registered tool, named `name`: the JSON Schema of its zod schema of what it
 * accepts as input (the server holds a tool's shape as a zod object), with its annotations
 * (`destructiveHint`, `readOnlyHint`, ...) deciding what `options` leave open. */
function specOf(
  tool: RegisteredTool,
  name: string,
  options: { effect?: Effect | null; unknown?: UnknownPolicy | null; meaning?: Meaning },
): Spec {
  if (!("_zod" in (tool.inputSchema as object))) {
    throw new TypeError(
      "gateServer gates tools with zod 4 schemas (zod 3 has no JSON Schema export of its own)",
    );
  }
  const inputSchema = toJSONSchema(tool.inputSchema as $ZodType, { io: "input" });
  return new Spec({ name: "tool", inputSchema, annotations: tool.annotations ?? {} }, { ...options, name });
}

/**
 * Gates every tool of `server`, those registered before and after: a call the gate rejects is
 * answered with an `isError` result whose text is the gate's JSON (`{"ok":false,"errors":[...]}`)
 * and never reaches the handler; an accepted one goes on, repaired, to the tool's own zod
 * schema and its handler. A tool's spec is the JSON Schema of its zod 4 schema (of what it
 * accepts as input), with the tool's annotations deciding what `options` leave open (a
 * read-only tool strips unknown keys, every other rejects them). The tools listed to clients
 * are unchanged. Returns `server`.
 *
 * Every call is judged in the session of its MCP session (the transport's `sessionId`; one
 * session for a server whose transport has none; the 4 096 most recently called are kept),
 * under the tool's name: a correction of a rejected call that changes what it means
 * (`meaning_changed`), an action that ran lately (`duplicate_action`) and a call past the
 * corrections allowed (`retry_budget_exhausted`) are answered as a rejection is, and never
 * reach the handler. A call that reaches it is recorded as executed once the handler is done
 * (one that throws has not run).
 *
 * @throws {TypeError} `server` is not an `McpServer` of the SDK's 1.x, `meaning` is not an
 *   object of objects, or `sessions` not session options.
 * @throws {RangeError} `effect` or `unknown` is not one of its names, or a session option is
 *   outside its range.
 */
export function gateServer<S extends object>(server: S, options?: GateServerOptions): S {
  // The spec of a tool is loaded on its first call, again when its name, schema or
  // annotations change.
  const gate = server as unknown as GatedServer;
  if (typeof gate?.validateToolInput !== "function" || typeof gate?.executeToolHandler !== "function") {
    throw new TypeError("gateServer takes an McpServer of @modelcontextprotocol/sdk 1.x");
  }
  if (gate[GATED]) return server;
  const { effect, unknown, meaning, sessions: sessionOptions, onRepair, onReject } = options ?? {};
  const callbacks = callbacksOf({ onRepair, onReject }, "gateServer");
  // Options are checked now, not on the first call.
  new Spec({ type: "object" }, { effect, unknown });
  checkMeaning(meaning);
  const unnamed = new Session(sessionOptions ?? undefined);
  const sessions = new Map<string, Session>();
  /** The session of the MCP session `id`, now the most recently called. */
  const sessionOf = (id: unknown): Session => {
    if (typeof id !== "string") return unnamed;
    let session = sessions.get(id);
    if (session === undefined) {
      session = new Session(sessionOptions ?? undefined);
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
    } else {
      sessions.delete(id);
    }
    sessions.set(id, session);
    return session;
  };
  const validate = gate.validateToolInput;
  const execute = gate.executeToolHandler;
  const specs = new WeakMap<RegisteredTool, { schema: unknown; annotations: unknown; name: string; spec: Spec }>();
  /** What records a call that passed, by the arguments `validateToolInput` returned. */
  const passed = new WeakMap<object, () => void>();
  gate.validateToolInput = async function (this: unknown, tool, args, toolName) {
    if (!tool?.inputSchema) return validate.call(this, tool, args, toolName);
    let entry = specs.get(tool);
    if (entry?.schema !== tool.inputSchema || entry?.annotations !== tool.annotations || entry?.name !== toolName) {
      const declared = meaning != null && Object.hasOwn(meaning, toolName) ? meaning[toolName] : undefined;
      const spec = specOf(tool, toolName, { effect, unknown, meaning: declared });
      entry = { schema: tool.inputSchema, annotations: tool.annotations, name: toolName, spec };
      specs.set(tool, entry);
    }
    const session = sessionOf(gate.server?.transport?.sessionId);
    const spec = entry.spec;
    const result = session.parse(spec, (args ?? {}) as object);
    const refused = !result.ok || result.decision === "confirm";
    tell(callbacks, result, toolName, refused);
    if (refused) throw new GateError(result.forModel());
    const valid = await validate.call(this, tool, result.arguments, toolName);
    if (valid !== null && typeof valid === "object") {
      passed.set(valid, () => session.executed(spec, result.arguments as object));
    }
    return valid;
  };
  gate.executeToolHandler = async function (this: unknown, tool, args, extra) {
    const ran = args !== null && typeof args === "object" ? passed.get(args) : undefined;
    const output = await execute.call(this, tool, args, extra);
    if (ran !== undefined) {
      passed.delete(args as object);
      ran();
    }
    return output;
  };
  gate[GATED] = true;
  return server;
}

/** `meaning`: absent, or declarations by tool name, each an object. */
function checkMeaning(meaning: unknown): void {
  if (meaning === undefined || meaning === null) return;
  const isObject = (value: unknown): value is object => value !== null && typeof value === "object" && !Array.isArray(value);
  if (!isObject(meaning)) throw new TypeError("gateServer: meaning must be an object of declarations by tool name");
  for (const [tool, declared] of Object.entries(meaning)) {
    if (!isObject(declared)) {
      throw new TypeError(`gateServer: the meaning of ${JSON.stringify(tool)} must be an object of declarations by argument path`);
    }
  }
}

/** A rejection: its message, which the server sends as the result's text, is the gate's JSON. */
class GateError extends Error {}

export type { GateCallbacks } from "./callbacks.js";
