/**
 * The client refuses exactly the requests the server refuses: the same JSON requests go once
 * straight to a real server as the body of their route and once through the client, and both
 * must give the same verdict (accepted, or refused with code 13 for the request's shape).
 * Request models carry no `format` keyword today, so formats do not appear among the inputs.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { connect, NamespaceError } from "../../src/client/index.js";
import { startTestServer } from "../helpers/test-server.js";

type Verdict = "accepted" | "refused";

interface Case {
  what: string;
  request: Record<string, unknown>;
  verdict: Verdict;
}

const createNamespaceCases: Case[] = [
  { what: "no fields", request: {}, verdict: "accepted" },
  { what: "every field well typed", request: { mode: "Create", properties: { owner: "ops" } }, verdict: "accepted" },
  { what: "null where the spec allows it", request: { mode: null, properties: null }, verdict: "accepted" },
  { what: "fields the model does not name", request: { note: 1, extra: { nested: null } }, verdict: "accepted" },
  { what: "a number for a string", request: { mode: 5 }, verdict: "refused" },
  { what: "a number as a property value", request: { properties: { owner: 1 } }, verdict: "refused" },
  { what: "null as a property value", request: { properties: { owner: null } }, verdict: "refused" },
  { what: "null where the spec does not allow it", request: { identity: null }, verdict: "refused" },
  { what: "a list for a map", request: { properties: ["owner"] }, verdict: "refused" },
];

const describeTableCases: Case[] = [
  { what: "null version", request: { version: null }, verdict: "accepted" },
  { what: "a fractional version", request: { version: 1.5 }, verdict: "refused" },
  { what: "a version given as text", request: { version: "1" }, verdict: "refused" },
  { what: "a negative version", request: { version: -1 }, verdict: "refused" },
];

test("the same requests sent raw to the server and through the client → the same verdict; a shape refusal is code 13 on both", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const namespace = await connect("rest", { uri: server.url });
  t.after(() => namespace.close());

  async function serverVerdict(path: string, request: Record<string, unknown>): Promise<Verdict> {
    const response = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request) });
    const answer = (await response.json()) as { code?: number; error?: string };
    const refused = response.status === 400 && typeof answer.error === "string" && answer.error.startsWith("invalid request: body");
    if (refused) assert.equal(answer.code, 13, `${path}: ${answer.error}`);
    return refused ? "refused" : "accepted";
  }

  async function clientVerdict(call: () => Promise<unknown>, operationId: string): Promise<Verdict> {
    try {
      await call();
      return "accepted";
    } catch (error) {
      if (!(error instanceof NamespaceError)) throw error;
      const refused = error.message.startsWith(`invalid ${operationId} request:`);
      if (refused) assert.equal(error.code, 13, error.message);
      return refused ? "refused" : "accepted";
    }
  }

  const verdicts: string[] = [];
  const expected: string[] = [];
  for (const [i, { what, request, verdict }] of createNamespaceCases.entries()) {
    const raw = await serverVerdict(`/v1/namespace/raw_${i}/create`, request);
    const viaClient = await clientVerdict(() => namespace.createNamespace({ ...request, id: [`client_${i}`] } as never), "CreateNamespace");
    verdicts.push(`CreateNamespace, ${what}: server ${raw}, client ${viaClient}`);
    expected.push(`CreateNamespace, ${what}: server ${verdict}, client ${verdict}`);
  }
  for (const { what, request, verdict } of describeTableCases) {
    const raw = await serverVerdict("/v1/table/absent/describe", request);
    const viaClient = await clientVerdict(() => namespace.describeTable({ ...request, id: ["absent"] } as never), "DescribeTable");
    verdicts.push(`DescribeTable, ${what}: server ${raw}, client ${viaClient}`);
    expected.push(`DescribeTable, ${what}: server ${verdict}, client ${verdict}`);
  }
  assert.deepEqual(verdicts, expected);
});
