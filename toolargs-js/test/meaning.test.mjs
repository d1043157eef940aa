// Meaning at the npm package's door: `meaning` declared beside a definition or `x-toolargs` in
// its schema, and a set's session, whose decisions are the Rust session's.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { LoadError, Session, Spec, ToolSet } from "toolargs";

const REFUND = {
  name: "issue_refund",
  inputSchema: {
    type: "object",
    properties: {
      order_id: { type: "string" },
      amount_cents: { type: "integer" },
      currency: { type: "string", pattern: "^[A-Z]{3}$" },
    },
    required: ["order_id", "amount_cents", "currency"],
  },
  annotations: { destructiveHint: true },
};

const AMOUNT = { semantic: "money", currency: "currency", minor_units: true, critical: true };
const MEANING = { issue_refund: { amount_cents: AMOUNT } };
const LOOKUP = { name: "lookup", inputSchema: { type: "object", properties: { id: { type: "integer" } } } };

const codes = (result) => result.errors.map((e) => e.code);

test("a model's corrections of a refund of $19.99: what changes the amount is refused", () => {
  const session = new ToolSet([REFUND], { meaning: MEANING }).session();

  const dollars = session.parse("issue_refund", '{"order_id":"ord_1","amount_cents":"19.99","currency":"USD"}');
  assert.equal(dollars.ok, false);
  assert.equal(dollars.decision, "reject");
  assert.deepEqual(codes(dollars), ["ambiguous_integer"]);
  assert.deepEqual(dollars.findings, []);

  // Its correction passes the schema and means 100 times the refund.
  const hundredfold = session.parse("issue_refund", { order_id: "ord_1", amount_cents: 199900, currency: "USD" });
  assert.equal(hundredfold.ok, false);
  assert.equal(hundredfold.decision, "reject");
  assert.equal(hundredfold.arguments, null);
  assert.deepEqual(codes(hundredfold), ["meaning_changed"]);
  assert.equal(JSON.parse(hundredfold.forModel()).errors[0].error, "meaning_changed");
  const [changed] = hundredfold.findings;
  assert.equal(changed.path, "$.amount_cents");
  assert.equal(changed.code, "meaning_changed");
  assert.equal(changed.verdict, "changed");
  assert.equal(changed.critical, true);

  // The one that means it runs.
  const meant = session.parse("issue_refund", '{"order_id":"ord_1","amount_cents":1999,"currency":"USD"}');
  assert.equal(meant.ok, true);
  assert.equal(meant.decision, "proceed");
  assert.deepEqual(meant.arguments, { order_id: "ord_1", amount_cents: 1999, currency: "USD" });
  assert.equal(meant.forModel(), '{"ok":true}');
  assert.deepEqual(JSON.parse(JSON.stringify(meant)).decision, "proceed");
  session.executed("issue_refund", meant.arguments);

  // The same refund, regenerated after a timeout in another layout: held, not run twice.
  const again = session.parse("issue_refund", '{"currency":"USD","order_id":"ord_1","amount_cents":1999.0}');
  assert.equal(again.ok, true);
  assert.equal(again.decision, "confirm");
  assert.deepEqual(
    again.findings.map((f) => [f.path, f.code]),
    [["$", "duplicate_action"]],
  );
  // Another order is another action.
  const other = session.parse("issue_refund", '{"order_id":"ord_3","amount_cents":1999,"currency":"USD"}');
  assert.equal(other.decision, "proceed");
  assert.throws(() => session.executed("nope", {}), RangeError);
});

test("a correction that changes the currency is refused", () => {
  const session = new ToolSet([REFUND], { meaning: MEANING }).session();
  const comma = session.parse("issue_refund", '{"order_id":"ord_2","amount_cents":"15,00","currency":"EUR"}');
  assert.equal(comma.decision, "reject");
  assert.equal(comma.ok, false);
  const cad = session.parse("issue_refund", '{"order_id":"ord_2","amount_cents":1500,"currency":"CAD"}');
  assert.equal(cad.decision, "reject");
  assert.equal(cad.ok, false);
  assert.ok(codes(cad).includes("meaning_changed"), JSON.stringify(cad));
  assert.ok(cad.findings.some((f) => f.code === "meaning_changed"), JSON.stringify(cad.findings));
});

test("after three rejected attempts the next call is refused unjudged", () => {
  const session = new ToolSet([REFUND], { meaning: MEANING }).session();
  for (const amount of ['"19.99"', '"19,99"', '"$19.99"']) {
    const result = session.parse("issue_refund", `{"order_id":"ord_1","amount_cents":${amount},"currency":"USD"}`);
    assert.equal(result.decision, "reject");
  }
  const fourth = session.parse("issue_refund", '{"order_id":"ord_1","amount_cents":1999,"currency":"USD"}');
  assert.equal(fourth.ok, false);
  assert.equal(fourth.decision, "reject");
  assert.deepEqual(codes(fourth), ["retry_budget_exhausted"]);
  assert.deepEqual(
    fourth.findings.map((f) => [f.path, f.code]),
    [["$", "retry_budget_exhausted"]],
  );
  assert.equal(JSON.parse(fourth.forModel()).errors[0].error, "retry_budget_exhausted");
  // Another session knows nothing of it.
  assert.equal(new ToolSet([REFUND], { meaning: MEANING }).session().parse("issue_refund", '{"order_id":"ord_1","amount_cents":1999,"currency":"USD"}').decision, "proceed");
});

test("meaning declared under x-toolargs in the schema is weighed the same", () => {
  const declared = structuredClone(REFUND);
  declared.inputSchema.properties.amount_cents["x-toolargs"] = AMOUNT;
  const session = new ToolSet({ tools: [declared] }).session();
  session.parse("issue_refund", '{"order_id":"ord_1","amount_cents":"19.99","currency":"USD"}');
  const hundredfold = session.parse("issue_refund", '{"order_id":"ord_1","amount_cents":199900,"currency":"USD"}');
  assert.equal(hundredfold.decision, "reject");
  assert.deepEqual(codes(hundredfold), ["meaning_changed"]);
  assert.equal(new Spec(declared).parse('{"order_id":"o","amount_cents":1,"currency":"USD"}').ok, true);
});

test("a tool without declared meaning is judged by its schema alone", () => {
  const session = new ToolSet([REFUND, LOOKUP], { meaning: MEANING }).session();
  for (let i = 0; i < 4; i++) {
    const wrong = session.parse("lookup", '{"id":"x"}');
    assert.equal(wrong.decision, "reject");
    assert.equal(wrong.ok, false);
    assert.deepEqual(wrong.findings, []);
  }
  const right = session.parse("lookup", { id: "7" });
  assert.equal(right.decision, "proceed");
  assert.deepEqual(right.arguments, { id: 7 });
  assert.equal(right.repairs.length, 1);
  assert.deepEqual(right.findings, []);
  assert.throws(() => session.parse("missing", "{}"), RangeError);
});

test("a value JavaScript cannot write as JSON is rejected in a session too", () => {
  const session = new ToolSet([REFUND], { meaning: MEANING }).session();
  const result = session.parse("issue_refund", { order_id: "ord_1", amount_cents: () => 1, currency: "USD" });
  assert.equal(result.decision, "reject");
  assert.deepEqual(codes(result), ["invalid_json"]);
});

test("a declaration that does not fit throws LoadError naming it", () => {
  const wrong = { amount: { semantic: "money", currency: "USD" } };
  assert.throws(() => new Spec(REFUND, { meaning: wrong }), (e) => e instanceof LoadError && /amount/.test(e.message));
  assert.throws(
    () => new ToolSet([REFUND], { meaning: { issue_refund: wrong } }),
    (e) => e instanceof LoadError && /amount/.test(e.message) && /issue_refund/.test(e.message),
  );
  assert.throws(
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    () => new Spec(REFUND, { meaning: { amount_cents: { semantics: "money" } } }),
    (e) => e instanceof LoadError && /amount_cents/.test(e.message) && /semantics/.test(e.message),
  );
  assert.throws(
    () => new ToolSet([REFUND], { meaning: { refund: { amount_cents: AMOUNT } } }),
    (e) => e instanceof LoadError && /"refund"/.test(e.message),
  );
  const inSchema = structuredClone(REFUND);
  inSchema.inputSchema.properties.amount_cents["x-toolargs"] = { semantic: "cash" };
  assert.throws(() => new Spec(inSchema), (e) => e instanceof LoadError && /amount_cents/.test(e.message));
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => new Spec(REFUND, { meaning: "amount_cents" }), TypeError);
  // What fits loads, and a plain parse is the schema's as ever.
  const spec = new Spec(REFUND, { meaning: { amount_cents: AMOUNT } });
  assert.deepEqual(codes(spec.parse('{"order_id":"o","amount_cents":"19.99","currency":"USD"}')), ["ambiguous_integer"]);
});

const DOLLARS = '{"order_id":"ord_1","amount_cents":"19.99","currency":"USD"}';
const CENTS = '{"order_id":"ord_1","amount_cents":1999,"currency":"USD"}';

test("a session's options: the corrections allowed, per tool and per session, and the duplicate window", () => {
  const refunds = new ToolSet([REFUND], { meaning: MEANING });
  // No correction allowed: the call after a rejected one is refused unjudged.
  const none = refunds.session({ correctionsPerTool: 0 });
  none.parse("issue_refund", DOLLARS);
  assert.deepEqual(codes(none.parse("issue_refund", CENTS)), ["retry_budget_exhausted"]);
  // Five allowed: the fifth correction is still judged.
  const five = refunds.session({ correctionsPerTool: 5 });
  five.parse("issue_refund", DOLLARS);
  for (let i = 0; i < 4; i++) assert.deepEqual(codes(five.parse("issue_refund", DOLLARS)), ["ambiguous_integer"]);
  assert.equal(five.parse("issue_refund", CENTS).decision, "proceed");
  assert.deepEqual(codes(five.parse("issue_refund", CENTS)), ["retry_budget_exhausted"]);

  // One correction in the whole session, over two tools.
  const CHARGE = { ...structuredClone(REFUND), name: "charge" };
  const both = new ToolSet([REFUND, CHARGE], { meaning: { ...MEANING, charge: { amount_cents: AMOUNT } } });
  const once = both.session({ correctionsPerSession: 1 });
  once.parse("issue_refund", DOLLARS);
  once.parse("charge", DOLLARS);
  assert.equal(once.parse("issue_refund", CENTS).decision, "proceed");
  assert.deepEqual(codes(once.parse("charge", CENTS)), ["retry_budget_exhausted"]);

  // No window: an action that ran is not a duplicate; the default window holds it.
  const forgetful = refunds.session({ duplicateWindowMs: 0, correctionsPerTool: null });
  forgetful.executed("issue_refund", CENTS);
  assert.equal(forgetful.parse("issue_refund", CENTS).decision, "proceed");
  const held = refunds.session({ duplicateWindowMs: 60_000 });
  held.executed("issue_refund", CENTS);
  assert.equal(held.parse("issue_refund", CENTS).decision, "confirm");
});

test("a session's options out of their range throw RangeError, of another type TypeError, naming them", () => {
  const refunds = new ToolSet([REFUND], { meaning: MEANING });
  const range = [
    [{ correctionsPerTool: -1 }, /correctionsPerTool must be a whole number from 0 to 4294967295, not -1/],
    [{ correctionsPerTool: 1.5 }, /correctionsPerTool .* not 1\.5/],
    [{ correctionsPerSession: 2 ** 32 }, /correctionsPerSession .* not 4294967296/],
    [{ correctionsPerSession: NaN }, /correctionsPerSession .* not NaN/],
    [{ duplicateWindowMs: -1 }, /duplicateWindowMs must be a finite number of milliseconds, 0 or more, not -1/],
    [{ duplicateWindowMs: Infinity }, /duplicateWindowMs .* not Infinity$/],
    [{ duplicateWindowMs: NaN }, /duplicateWindowMs .* not NaN/],
  ];
  for (const [options, message] of range) {
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    assert.throws(() => refunds.session(options), (e) => e instanceof RangeError && message.test(e.message), JSON.stringify(options));
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    assert.throws(() => new Session(options), RangeError);
  }
  const type = [
    [{ correctionsPerTool: "2" }, /correctionsPerTool must be a number, not string/],
    [{ duplicateWindowMs: 600n }, /duplicateWindowMs must be a number, not bigint/],
    [{ correctionPerTool: 2 }, /"correctionPerTool" is not a session option/],
    [3, /session options must be an object, not number/],
    [[], /not an array/],
  ];
  for (const [options, message] of type) {
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    assert.throws(() => refunds.session(options), (e) => e instanceof TypeError && message.test(e.message), String(options));
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    assert.throws(() => new Session(options), TypeError);
  }
  // The largest of each is taken.
  refunds.session({ correctionsPerTool: 2 ** 32 - 1, correctionsPerSession: 0, duplicateWindowMs: 1e15 });
});

test("new Session(): one conversation's calls to specs given with them, told apart by name", () => {
  const session = new Session({ correctionsPerTool: 2 });
  const refund = new Spec(REFUND, { meaning: { amount_cents: AMOUNT } });
  // The same schema under another name is another tool.
  const charge = new Spec(REFUND, { meaning: { amount_cents: AMOUNT }, name: "charge" });
  assert.equal(charge.name, "charge");
  assert.equal(refund.name, "issue_refund");

  assert.equal(session.parse(refund, DOLLARS).decision, "reject");
  // A charge is not the refund's correction.
  assert.equal(session.parse(charge, '{"order_id":"ord_1","amount_cents":199900,"currency":"USD"}').decision, "proceed");
  const hundredfold = session.parse(refund, { order_id: "ord_1", amount_cents: 199900, currency: "USD" });
  assert.deepEqual(codes(hundredfold), ["meaning_changed"]);
  const meant = session.parse(refund, CENTS);
  assert.equal(meant.decision, "proceed");
  session.executed(refund, meant.arguments);
  const again = session.parse(refund, CENTS);
  assert.equal(again.decision, "confirm");
  assert.equal(again.ok, true);
  // What the model is told when the call held is not run.
  const told = JSON.parse(again.forModel());
  assert.equal(told.ok, false);
  assert.equal(told.errors[0].error, "duplicate_action");
  assert.deepEqual(again.errors, []);
  // The charge of the same amount ran nowhere: not a duplicate.
  assert.equal(session.parse(charge, CENTS).decision, "proceed");

  // A spec whose meaning is not declared: its schema alone.
  const lookup = new Spec(LOOKUP);
  assert.equal(session.parse(lookup, '{"id":"x"}').decision, "reject");
  assert.equal(session.parse(lookup, { id: "7" }).decision, "proceed");
  session.executed(lookup, { id: 7 });
  assert.equal(session.parse(lookup, { id: 7 }).decision, "proceed");
  assert.deepEqual(codes(session.parse(refund, { order_id: "o", amount_cents: () => 1, currency: "USD" })), ["invalid_json"]);

  // Names are a set's: a session of its own takes specs.
  assert.throws(() => session.parse("issue_refund", CENTS), (e) => e instanceof TypeError && /Spec/.test(e.message));
  assert.throws(() => session.executed("issue_refund", CENTS), TypeError);
  assert.throws(() => session.executed(refund, { a: () => 1 }), TypeError);
  // A set's session takes either: the set's spec is the same tool as its name.
  const tools = new ToolSet([REFUND], { meaning: MEANING });
  const set = tools.session();
  set.executed("issue_refund", CENTS);
  assert.equal(set.parse(tools.get("issue_refund"), CENTS).decision, "confirm");
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => new Spec(REFUND, { name: 7 }), TypeError);
});

test("executed records the arguments given: a result's, as judged, or as changed since", () => {
  const session = new Session();
  const refund = new Spec(REFUND, { meaning: { amount_cents: AMOUNT } });
  const other = { order_id: "ord_1", amount_cents: 2500, currency: "USD" };
  const first = session.parse(refund, CENTS);
  first.arguments.amount_cents = 2500;
  session.executed(refund, first.arguments);
  assert.equal(session.parse(refund, CENTS).decision, "proceed");
  assert.equal(session.parse(refund, other).decision, "confirm");

  const second = session.parse(refund, CENTS);
  session.executed(refund, second.arguments);
  session.executed(refund, second.arguments);
  assert.equal(session.parse(refund, CENTS).decision, "confirm");
  // Another session's result is recorded from its arguments.
  const elsewhere = new Session();
  elsewhere.executed(refund, second.arguments);
  assert.equal(elsewhere.parse(refund, CENTS).decision, "confirm");
  // The same arguments for another tool are that tool's action.
  const charge = new Spec(REFUND, { meaning: { amount_cents: AMOUNT }, name: "charge" });
  const third = session.parse(refund, { ...other, order_id: "ord_3" });
  session.executed(charge, third.arguments);
  assert.equal(session.parse(charge, { ...other, order_id: "ord_3" }).decision, "confirm");
  assert.equal(session.parse(refund, { ...other, order_id: "ord_3" }).decision, "proceed");
  // A tool whose meaning is not declared records nothing.
  session.executed(new Spec(LOOKUP), { id: () => 1 });
});

// The seed's golden pairs, shared by every door's tests: the user's call rejected for an
// invented key, and its correction decided by what it means.
const GOLDEN = JSON.parse(
  readFileSync(join(dirname(fileURLToPath(import.meta.url)), "..", "..", "tests", "data", "golden_pairs.json"), "utf8"),
);

for (const pair of GOLDEN.pairs) {
  test(`the golden pair "${pair.what}" is decided by what it means`, () => {
    const tool = GOLDEN.tool.name;
    const session = new ToolSet([GOLDEN.tool], { meaning: { [tool]: GOLDEN.meaning } }).session();
    const original = session.parse(tool, { ...pair.meant, memo: "invented" });
    assert.equal(original.ok, false);
    assert.ok(codes(original).includes("unknown_field"));
    const corrected = session.parse(tool, pair.corrected);
    assert.equal(corrected.decision, pair.decision);
    if (pair.decision === "reject") assert.deepEqual(codes(corrected), [pair.code]);
    if (pair.decision === "confirm") assert.ok(corrected.forModel().includes(pair.code));
  });
}
