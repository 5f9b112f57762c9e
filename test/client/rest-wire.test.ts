/**
 * What the `rest` implementation puts on the wire: headers from `headers.*` properties, the
 * request's identity and context entries, paths, query strings and bodies; and how it reads
 * answers it did not expect. A plain `node:http` server on port 0 records every request.
 */
import assert from "node:assert/strict";
import { type IncomingHttpHeaders, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test, type TestContext } from "node:test";
import { Table, tableFromIPC, tableToIPC } from "apache-arrow";
import { connect } from "../../src/client/index.js";
import { rejectsWith, sampleTable } from "./client-fixtures.js";

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Answer {
  status: number;
  body: string | Uint8Array;
  type?: string;
}

/** Starts a recorder that answers every request with `answer` (default: 200 `{}`). */
async function startRecorder(t: TestContext, answer: Answer = { status: 200, body: "{}" }): Promise<{ url: string; requests: Recorded[] }> {
  const requests: Recorded[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks) });
    response.writeHead(answer.status, { "content-type": answer.type ?? "application/json" });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

test("rest sends every headers.* property, the identity and each context entry as headers; body keeps id and drops them", async (t) => {
  const recorder = await startRecorder(t);
  const ns = await connect("rest", {
    uri: recorder.url,
    "headers.x-api-key": "connection-key",
    "headers.X-Team": "blue",
  });

  await ns.createNamespace({ id: ["a", "b"], mode: "ExistOk", context: { "trace-id": "t-42" } });
  await ns.describeNamespace({ id: ["a"], identity: { api_key: "call-key", auth_token: "tok" } });

  const [create, describeCall] = recorder.requests;
  assert.ok(create && describeCall);
  assert.equal(create.method, "POST");
  assert.equal(create.url, "/v1/namespace/a%24b/create?delimiter=%24");
  assert.equal(create.headers["x-api-key"], "connection-key");
  assert.equal(create.headers["x-team"], "blue");
  assert.equal(create.headers["x-svc-ctx-trace-id"], "t-42");
  assert.equal(create.headers["content-type"], "application/json");
  assert.deepEqual(JSON.parse(create.body.toString()), { id: ["a", "b"], mode: "ExistOk" });

  // A call's identity wins over the connection's header, and becomes a bearer token.
  assert.equal(describeCall.headers["x-api-key"], "call-key");
  assert.equal(describeCall.headers.authorization, "Bearer tok");
  assert.equal(describeCall.headers["x-svc-ctx-trace-id"], undefined, "context is per call");
  assert.deepEqual(JSON.parse(describeCall.body.toString()), { id: ["a"] });
});

test("rest with a delimiter property joins path ids with it, sends it as ?delimiter= and puts list options in the query", async (t) => {
  const recorder = await startRecorder(t, { status: 200, body: JSON.stringify({ namespaces: [] }) });
  const ns = await connect("rest", { uri: `${recorder.url}/base/`, delimiter: "::" });

  await ns.listNamespaces({ id: ["a", "b"], limit: 5, page_token: "n1" });
  await ns.listTables({ include_declared: false });
  await ns.dropTable({ id: ["a", "t"] });

  const [list, tables, drop] = recorder.requests;
  assert.equal(list?.method, "GET");
  assert.equal(list?.url, "/base/v1/namespace/a%3A%3Ab/list?delimiter=%3A%3A&page_token=n1&limit=5");
  assert.equal(list?.body.length, 0);
  assert.equal(tables?.url, "/base/v1/namespace/%3A%3A/table/list?delimiter=%3A%3A&include_declared=false");
  assert.equal(drop?.method, "POST");
  assert.equal(drop?.url, "/base/v1/table/a%3A%3At/drop?delimiter=%3A%3A");
  assert.equal(drop?.headers["content-type"], undefined, "DropTable sends no body");
});

test("rest CreateTable sends an Arrow IPC stream with mode, properties and storage_options in the query", async (t) => {
  const recorder = await startRecorder(t, { status: 200, body: JSON.stringify({ version: 1 }) });
  const ns = await connect("rest", { uri: recorder.url });

  const answer = await ns.createTable({ namespace: ["ns"], name: "t", mode: "Overwrite", properties: { a: "1" }, storage_options: { timeout: "30s" } }, sampleTable());

  assert.deepEqual(answer, { version: 1 });
  const [upload] = recorder.requests;
  const url = new URL(upload?.url ?? "", recorder.url);
  assert.equal(url.pathname, "/v1/table/ns%24t/create");
  assert.equal(url.searchParams.get("mode"), "Overwrite");
  assert.deepEqual(JSON.parse(url.searchParams.get("properties") ?? ""), { a: "1" });
  assert.deepEqual(JSON.parse(url.searchParams.get("storage_options") ?? ""), { timeout: "30s" });
  assert.equal(upload?.headers["content-type"], "application/vnd.apache.arrow.stream");
  const sent = tableFromIPC(upload?.body as Buffer);
  assert.equal(sent.numRows, 3);
  assert.deepEqual(sent.schema.fields.map((field) => field.name), ["id", "score", "label"]);
});

test("rest InsertIntoTable and MergeInsertIntoTable send an Arrow stream with their parameters in the query; `on` repeats per column", async (t) => {
  const recorder = await startRecorder(t, { status: 200, body: JSON.stringify({ version: 2 }) });
  const ns = await connect("rest", { uri: recorder.url });

  await ns.insertIntoTable({ id: ["ns", "t"], mode: "Overwrite", branch: "dev" }, sampleTable());
  await ns.mergeInsertIntoTable({ id: ["t"], on: ["id", "label"], when_matched_update_all: true, when_not_matched_insert_all: false, timeout: "5s" }, sampleTable());

  const [insert, merge] = recorder.requests;
  const insertUrl = new URL(insert?.url ?? "", recorder.url);
  assert.equal(insertUrl.pathname, "/v1/table/ns%24t/insert");
  assert.equal(insertUrl.searchParams.get("mode"), "Overwrite");
  assert.equal(insertUrl.searchParams.get("branch"), "dev");
  assert.equal(insert?.headers["content-type"], "application/vnd.apache.arrow.stream");
  assert.equal(tableFromIPC(insert?.body as Buffer).numRows, 3);

  const mergeUrl = new URL(merge?.url ?? "", recorder.url);
  assert.equal(mergeUrl.pathname, "/v1/table/t/merge_insert");
  assert.deepEqual(mergeUrl.searchParams.getAll("on"), ["id", "label"]);
  assert.equal(mergeUrl.searchParams.get("when_matched_update_all"), "true");
  assert.equal(mergeUrl.searchParams.get("when_not_matched_insert_all"), "false");
  assert.equal(mergeUrl.searchParams.get("timeout"), "5s");
  assert.equal(mergeUrl.searchParams.has("when_not_matched_by_source_delete"), false, "unset flags are not sent");
});

test("rest UpdateTableSchemaMetadata sends the bare map with branch in the query; bodiless routes send no body", async (t) => {
  const recorder = await startRecorder(t, { status: 200, body: JSON.stringify({ a: "b" }) });
  const ns = await connect("rest", { uri: recorder.url });

  assert.deepEqual(await ns.updateTableSchemaMetadata({ id: ["t"], branch: "dev", metadata: { a: "b" }, context: { k: "v" } }), { a: "b" });
  await ns.dropTableIndex({ id: ["t"], index_name: "by label", branch: "dev" });
  await ns.listTableVersions({ id: ["t"], descending: true, limit: 2 });
  await ns.listTableTags({ id: ["t"], limit: 1 });
  await ns.listTableBranches({ id: ["t"], page_token: "a" });

  const [metadata, dropIndex, versions, tags, branches] = recorder.requests;
  assert.equal(metadata?.url, "/v1/table/t/schema_metadata/update?delimiter=%24&branch=dev");
  assert.deepEqual(JSON.parse(metadata?.body.toString() ?? ""), { a: "b" });
  assert.equal(metadata?.headers["x-svc-ctx-k"], "v");
  assert.equal(dropIndex?.url, "/v1/table/t/index/by%20label/drop?delimiter=%24&branch=dev");
  assert.equal(dropIndex?.method, "POST");
  assert.equal(dropIndex?.body.length, 0);
  assert.equal(versions?.method, "POST");
  assert.equal(versions?.url, "/v1/table/t/version/list?delimiter=%24&limit=2&descending=true");
  assert.equal(versions?.body.length, 0);
  // The spec's answer shape comes from the route without a trailing slash.
  assert.equal(tags?.method, "GET");
  assert.equal(tags?.url, "/v1/table/t/tags/list?delimiter=%24&limit=1");
  assert.equal(branches?.method, "POST");
  assert.equal(branches?.url, "/v1/table/t/branches/list?delimiter=%24&page_token=a");
  assert.equal(branches?.body.length, 0);
});

test("rest transaction operations put the transaction id in the path, not in the body; the body id names the owning table", async (t) => {
  const recorder = await startRecorder(t, { status: 200, body: JSON.stringify({ status: "Succeeded" }) });
  const ns = await connect("rest", { uri: recorder.url });

  await ns.describeTransaction({ transaction_id: "tx/1" });
  await ns.alterTransaction({ transaction_id: "tx-2", id: ["t"], actions: [{ setStatusAction: { status: "Canceled" } }] } as never);

  const [describeCall, alter] = recorder.requests;
  assert.equal(describeCall?.url, "/v1/transaction/tx%2F1/describe?delimiter=%24");
  assert.deepEqual(JSON.parse(describeCall?.body.toString() ?? ""), {});
  assert.equal(alter?.url, "/v1/transaction/tx-2/alter?delimiter=%24");
  assert.deepEqual(JSON.parse(alter?.body.toString() ?? ""), { id: ["t"], actions: [{ setStatusAction: { status: "Canceled" } }] });
});

test("rest QueryTable decodes the Arrow IPC file answer into an apache-arrow Table; CountTableRows a bare integer; ExplainTableQueryPlan a JSON string", async (t) => {
  const file = await startRecorder(t, { status: 200, body: tableToIPC(sampleTable(), "file"), type: "application/vnd.apache.arrow.file" });
  const answer = await (await connect("rest", { uri: file.url })).queryTable({ id: ["t"], filter: "id > 1", k: 2 });
  assert.ok(answer instanceof Table);
  assert.deepEqual(answer.schema.fields.map((field) => field.name), ["id", "score", "label"]);
  assert.deepEqual([...(answer.getChild("id")?.toArray() ?? [])], [1, 2, 3]);
  assert.equal(file.requests[0]?.url, "/v1/table/t/query?delimiter=%24");
  assert.deepEqual(JSON.parse(file.requests[0]?.body.toString() ?? ""), { id: ["t"], filter: "id > 1", k: 2 });

  const count = await startRecorder(t, { status: 200, body: "42" });
  const plan = await startRecorder(t, { status: 200, body: JSON.stringify("ProjectionExec: x") });
  assert.equal(await (await connect("rest", { uri: count.url })).countTableRows({ id: ["t"], predicate: "id > 1" }), 42);
  assert.deepEqual(JSON.parse(count.requests[0]?.body.toString() ?? ""), { id: ["t"], predicate: "id > 1" });
  assert.equal(await (await connect("rest", { uri: plan.url })).explainTableQueryPlan({ id: ["t"], query: {} }), "ProjectionExec: x");
});

test("rest error answers: ErrorResponse keeps code and message; no code, an unknown code or plain text → code 18", async (t) => {
  const cases: [Answer, string, RegExp][] = [
    [{ status: 409, body: JSON.stringify({ code: 5, error: "table 't' already exists", detail: "more" }) }, "TableAlreadyExists", /^table 't' already exists$/],
    [{ status: 502, body: "<html>bad gateway</html>", type: "text/html" }, "Internal", /status=502, body=<html>bad gateway/],
    [{ status: 400, body: JSON.stringify({ error: "no code" }) }, "Internal", /failed to parse error response/],
    [{ status: 400, body: JSON.stringify({ code: 99, error: "from the future" }) }, "Internal", /from the future/],
  ];
  for (const [answer, name, message] of cases) {
    const recorder = await startRecorder(t, answer);
    const ns = await connect("rest", { uri: recorder.url });
    const error = await rejectsWith(ns.describeTable({ id: ["t"] }), name as never, message);
    if (name === "TableAlreadyExists") assert.equal(error.detail, "more");
  }
});

test("rest against an address where nothing listens → code 17 naming the address", async () => {
  // A port that was just free: listen on port 0, note the port, close again.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));

  const ns = await connect("rest", { uri: `http://127.0.0.1:${port}` });
  await rejectsWith(ns.listNamespaces(), "ServiceUnavailable", new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port}`));
});

test("rest answers that are not what the operation returns: a non-JSON success body → code 18", async (t) => {
  const recorder = await startRecorder(t, { status: 200, body: "plain words", type: "text/plain" });
  const ns = await connect("rest", { uri: recorder.url });
  await rejectsWith(ns.describeNamespace({ id: ["a"] }), "Internal", /not JSON/);
});
