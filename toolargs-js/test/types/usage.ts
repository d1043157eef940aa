// Compiled by `types.test.mjs` (tsc --noEmit --strict): the declarations describe the API as
// it is used.
import { z } from "zod";
import {
  type AcceptedResult,
  type ArgumentError,
  type ArgumentStream,
  type Change,
  type Code,
  type Decision,
  type Dialect,
  type Effect,
  type Fed,
  type Finding,
  type JsonObject,
  type JsonValue,
  LoadError,
  type MeaningCode,
  ParseResult,
  Rejected,
  type RejectedResult,
  type Repair,
  type Rule,
  Session,
  type SessionOptions,
  type SessionResult,
  Spec,
  ToolSet,
} from "toolargs";

const effect: Effect = "read_only";
const spec: Spec = new Spec({ type: "object" }, { effect, unknown: "strip" });
const fromText = new Spec('{"type": "object"}');
const fromZod: Spec = Spec.fromZod(z.object({ a: z.number() }), { effect: "destructive" });

const name: string | null = spec.name;
const description: string | null = spec.description;
const effectOf: Effect | null = spec.effect;
const unknown: "strip" | "reject" = spec.unknown;
const warnings: string[] = spec.warnings;

const result: ParseResult = spec.parse('{"a": 1}');
const ok: boolean = result.ok;
const args: JsonObject | null = result.arguments;
const repairs: Repair[] = result.repairs;
const errors: ArgumentError[] = result.errors;
const forModel: string = result.forModel();
const first: JsonValue | undefined = args?.["a"];
if (typeof first === "bigint") {
  const digits: string = first.toString();
  void digits;
}
for (const repair of repairs) {
  const fields: [string, string, JsonValue, JsonValue] = [repair.path, repair.rule, repair.before, repair.after];
  void fields;
}
for (const error of errors) {
  const fields: [string, string, string] = [error.path, error.code, error.message];
  void fields;
}
spec.parse({ a: 1n });
spec.parse(new Uint8Array());

try {
  const valid: JsonObject = spec.validate({ a: 1 });
  void valid;
} catch (e) {
  if (e instanceof Rejected) {
    const list: ArgumentError[] = e.errors;
    const text: string = e.forModel();
    void [list, text];
  } else if (e instanceof LoadError) {
    const message: string = e.message;
    void message;
  }
}

const made: Rejected = new Rejected(errors, forModel);
const loadError: LoadError = new LoadError("why");
void [made, loadError];

const tools = new ToolSet({ tools: [] });
const names: readonly string[] = tools.names;
const unchecked: readonly (readonly [string | null, string])[] = tools.unchecked;
const one: Spec | undefined = tools.get("x");
const has: boolean = tools.has("x");
const judged: ParseResult = tools.parse("x", "{}");

const meaning = { amount_cents: { semantic: "money", currency: "currency", minor_units: true, critical: true } };
const meant = new Spec({ type: "object" }, { meaning, effect: "external" });
const refunds = new ToolSet({ tools: [] }, { meaning: { issue_refund: meaning } });
const session: Session = refunds.session();
const weighed: SessionResult = session.parse("issue_refund", { amount_cents: 1999 });
const options: SessionOptions = { correctionsPerTool: 2, correctionsPerSession: null, duplicateWindowMs: 60_000 };
const limited: Session = refunds.session(options);
const own = new Session({ duplicateWindowMs: 0 });
const named = new Spec({ type: "object" }, { name: "issue_refund", meaning });
const ownResult: SessionResult = own.parse(named, '{"amount_cents": 1999}');
own.executed(named, ownResult.arguments);
limited.executed(named, "{}");
new Session();
const decision: Decision = weighed.decision;
const finding: Finding | undefined = weighed.findings[0];
const why: string | undefined = finding?.code;
const asParse: ParseResult = weighed;
void [meant, decision, why, asParse];

const stream: ArgumentStream = spec.stream();
const fed: Fed = stream.feed('{"a"');
const rejected: boolean = fed.rejected;
stream.feed(new Uint8Array([0x3a]));
const partial: JsonObject = stream.partial();
const received: number = stream.received;
const done: ParseResult = stream.finish();

const dialect: Dialect = "openai_chat_strict";
const definition: JsonObject = spec.toolDefinition(dialect);
const changes: Change[] = spec.lowering("gemini");
const change: [string, string, string, boolean] = [changes[0].path, changes[0].keyword, changes[0].instead, changes[0].enforced];

void [fromText, fromZod, name, description, effectOf, unknown, warnings, ok, forModel];
void [names, unchecked, one, has, judged, rejected, partial, received, done];
void [definition, change];

// Typed results: a union told apart by `ok`; a zod schema's spec gives its output type.
const Refund = z.object({ order_id: z.string(), amount_cents: z.number().int(), note: z.string().optional() });
const refund: Spec<{ order_id: string; amount_cents: number; note?: string | undefined }> = Spec.fromZod(Refund);
const verdict = refund.parse('{"order_id": "A1", "amount_cents": "1999"}');
if (verdict.ok) {
  const accepted: AcceptedResult<{ order_id: string; amount_cents: number; note?: string }> = verdict;
  const amount: number = verdict.arguments.amount_cents;
  const note: string | undefined = verdict.arguments.note;
  const rules: Rule[] = verdict.repairs.map((r) => r.rule);
  const none: [] = verdict.errors;
  void [accepted, amount, note, rules, none];
} else {
  const refused: RejectedResult = verdict;
  const nothing: null = verdict.arguments;
  const codes: (Code | MeaningCode)[] = verdict.errors.map((e) => e.code);
  void [refused, nothing, codes];
}
const validated: { order_id: string; amount_cents: number } = refund.validate("{}");
const plain = new Spec({ type: "object" }).parse("{}");
if (plain.ok) {
  const object: JsonObject = plain.arguments;
  void object;
}
const inSession: SessionResult<{ order_id: string; amount_cents: number; note?: string }> = own.parse(refund, "{}");
if (inSession.ok && inSession.decision === "proceed") {
  const cents: number = inSession.arguments.amount_cents;
  void cents;
}
const streamed = refund.stream().finish();
if (streamed.ok) {
  const id: string = streamed.arguments.order_id;
  void id;
}
const isResult: boolean = (verdict as unknown) instanceof ParseResult;
const rule: Rule = "numeric_string_to_int";
const code: Code = "out_of_range";
const fromOldZod = Spec.fromZod(Refund, { toJSONSchema: z.toJSONSchema, effect: "destructive" });
void [validated, isResult, rule, code, fromOldZod];
