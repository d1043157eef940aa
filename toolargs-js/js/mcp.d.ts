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

import type { Effect, Meaning, SessionOptions, UnknownPolicy } from "toolargs";

/** The options of `gateServer`, for every tool of the server. */
export interface GateServerOptions {
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
export function gateServer<S extends object>(server: S, options?: GateServerOptions): S;
