// Meaning at the npm package's door: `meaning` declared beside a definition or `x-toolargs` in
// its schema, and a set's session, whose decisions are the Rust session's.

import assert from "node:assert/strict";
import { test } from "node:test";

import { LoadError, Spec, ToolSet } from "toolargs";

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
  assert.throws(() => new Spec(REFUND, { meaning: "amount_cents" }), TypeError);
  // What fits loads, and a plain parse is the schema's as ever.
  const spec = new Spec(REFUND, { meaning: { amount_cents: AMOUNT } });
  assert.deepEqual(codes(spec.parse('{"order_id":"o","amount_cents":"19.99","currency":"USD"}')), ["ambiguous_integer"]);
});
