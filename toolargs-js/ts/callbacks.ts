// What the framework entries tell their caller of each call they judge (`onRepair`,
// `onReject`): to count how often a model needs the gate. Nothing here decides anything.

import type { AcceptedResult, ParseResult, SessionDecision } from "./api.js";
import type { JsonObject } from "./types.js";

/** The callbacks of `gated`, `gateServer` and `gatedTool`. A callback runs before the call goes
 * on (or is answered); what it throws is thrown there. */
export interface GateCallbacks {
  /** Called for each call accepted with repairs, with its verdict (the repairs in `repairs`)
   * and the tool's name (`null` where the framework does not say it). */
  onRepair?: ((result: AcceptedResult<JsonObject>, toolName: string | null) => void) | null;
  /** Called for each call that does not reach the tool: rejected by the gate (`errors`), or
   * refused or held by its session (`decision`: `"reject"` or `"confirm"`), with its verdict
   * and the tool's name (`null` where the framework does not say it). */
  onReject?: ((result: ParseResult | (ParseResult & SessionDecision), toolName: string | null) => void) | null;
}

/** The callbacks of `options`, checked: each absent, `null` or a function. */
export function callbacksOf(options: GateCallbacks | null | undefined, who: string): GateCallbacks {
  const { onRepair = null, onReject = null } = options ?? {};
  for (const [key, value] of [
    ["onRepair", onRepair],
    ["onReject", onReject],
  ] as const) {
    if (value !== null && typeof value !== "function") {
      throw new TypeError(`${who}: ${key} must be a function, not ${typeof value}`);
    }
  }
  return { onRepair, onReject };
}

/** Tells the callbacks of a call's verdict: `refused` when it does not reach the tool. */
export function tell(
  callbacks: GateCallbacks,
  result: ParseResult | (ParseResult & SessionDecision),
  toolName: string | null,
  refused = !result.ok,
): void {
  if (refused) callbacks.onReject?.(result, toolName);
  else if (result.ok && result.repairs.length > 0) callbacks.onRepair?.(result, toolName);
}
