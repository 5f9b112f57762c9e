#!/usr/bin/env node
/**
 * Records the server's answers to one fixed sequence of HTTP requests, so that two checkouts can
 * be compared answer by answer: a change meant to keep behaviour (a restructuring) should leave
 * the two recordings identical.
 *
 * It starts the checkout's server in this process (SQLite, table data in local folders, a fresh
 * temporary root, port 0), once plain and once with managed versioning, and replays every
 * operation group: namespaces, tables, rows, query plans, schema, indexes, versions, tags,
 * branches, transactions, materialized views, jobs, capabilities and the OpenAPI document, then
 * a set of bad requests. Each answer is written as one JSON line: method, path, status,
 * content-type and the body, with JSON normalised (uuids, timestamps, durations, request ids,
 * vended SAS tokens' clock fields and locations under the temporary root become placeholders) and
 * Arrow answers decoded to rows. `--postgres` keeps the metadata in PostgreSQL, `--azure` the
 * table data on Azurite, each started with this folder's built test helpers.
 *
 *   node scripts/compare-answers.mjs <checkout> <recording.jsonl> [--postgres] [--azure]
 *   diff <(node scripts/compare-answers.mjs /old/checkout /dev/stdout) <(node scripts/compare-answers.mjs . /dev/stdout)
 *
 * `checkout` must be built (`npx tsc -p tsconfig.json` there).
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Field, FixedSizeList, Float32, RecordBatchStreamWriter, Table, makeData, makeVector, tableFromArrays, tableFromIPC } from "apache-arrow-21";
import { stageVersion } from "./stage-version.mjs";

const args = process.argv.slice(2);
const onPostgres = args.includes("--postgres");
const onAzure = args.includes("--azure");
const [checkoutArg, outArg] = args.filter((arg) => !arg.startsWith("--"));
if (!checkoutArg || !outArg) {
  console.error("usage: node scripts/compare-answers.mjs <checkout> <recording.jsonl> [--postgres] [--azure]");
  process.exit(2);
}
const checkout = path.resolve(checkoutArg);
const runtimePath = path.join(checkout, "dist", "src", "cli", "runtime.js");
if (!existsSync(runtimePath)) {
  console.error(`no build at ${runtimePath}: run \`npx tsc -p tsconfig.json\` in ${checkout} first`);
  process.exit(2);
}
const { startServer } = await import(pathToFileURL(runtimePath).href);
const arrowType = "application/vnd.apache.arrow.stream";

/**
 * With `--postgres`, each server keeps its metadata in a fresh database of a PostgreSQL: the one
 * QUIVER_TEST_POSTGRES names, else an embedded one started with this folder's test helper. The
 * two stores decode their rows differently, so a restructuring of the store is compared on both.
 */
const postgres = onPostgres ? await startPostgresStore() : undefined;

/** With `--azure`, table data lives on an Azurite started with this folder's test helper, in a fresh container per server. */
const azurite = onAzure ? await startAzuriteData() : undefined;

async function startAzuriteData() {
  const helper = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "test", "helpers", "azurite.js");
  const { startAzurite } = await import(pathToFileURL(helper).href);
  const server = await startAzurite();
  return {
    freshData: () => ({ data: `az://t${randomUUID().replaceAll("-", "").slice(0, 24)}/data`, storageOptions: server.storageOptions }),
    stop: () => server.stop(),
  };
}

async function startPostgresStore() {
  const helper = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "test", "helpers", "postgres.js");
  const { createPostgresDatabase, startPostgres } = await import(pathToFileURL(helper).href);
  const server = process.env.QUIVER_TEST_POSTGRES ? undefined : await startPostgres();
  const url = process.env.QUIVER_TEST_POSTGRES ?? server.url;
  return { freshStore: () => createPostgresDatabase(url), stop: () => server?.stop() };
}

const lines = [];

function arrowStream(columns) {
  const writer = new RecordBatchStreamWriter();
  writer.write(tableFromArrays(columns));
  writer.finish();
  return writer.toUint8Array(true);
}

/** Rows of an Arrow answer, with values JSON can hold. */
function arrowRows(bytes) {
  const table = tableFromIPC(bytes);
  const plain = (value) => {
    if (typeof value === "bigint") return value.toString();
    if (ArrayBuffer.isView(value)) return Array.from(value, plain);
    if (value && typeof value.toArray === "function") return Array.from(value.toArray(), plain);
    if (value && typeof value.toJSON === "function") return plain(value.toJSON());
    if (Array.isArray(value)) return value.map(plain);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
    return value;
  };
  return {
    fields: table.schema.fields.map((field) => `${field.name}: ${field.type}`),
    rows: table.toArray().map((row) => plain(row.toJSON())),
  };
}

// Manifests hold their write time, so their size (and the bytes a cleanup removes) varies by a byte or so from run to run.
const volatileKey = /(_at|At|_ms|millis|time|timestamp|duration|elapsed|request_id|e_?tag|heartbeat|manifest_?size|bytes_removed)$|^(uptime|pid|started|finished)$/i;

/** The answer with what differs from run to run replaced by placeholders. */
function normalise(value, places, key = "") {
  if (typeof value === "string") {
    // Locations come absolute, as object-store URIs, or (manifest paths) without the leading slash.
    let text = value;
    for (const place of places) text = text.split(place).join("<root>").split(place.replace(/^\/+/, "")).join("<root>");
    text = text.replace(/\b127\.0\.0\.1:\d+/g, "<host>");
    text = text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>");
    text = text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?/g, "<time>");
    // Plan metrics: timings and sizes that vary between runs.
    text = text.replace(/(elapsed[a-z_]*|time[a-z_]*|[a-z_]*_ms|[a-z_]*duration[a-z_]*)=[\d.]+[a-zµ]*/gi, "$1=<n>");
    text = text.replace(/\b(bytes_read|iops|requests)=[\d.]+( ?[KMG]i?B?\b)?/g, "$1=<n>");
    text = text.replace(/\d+(\.\d+)?(ns|µs|us|ms)\b/g, "<dur>");
    // A vended SAS token keeps its permissions and scope; its start, expiry and signature move with the clock.
    if (/sas_token$/.test(key)) text = text.replace(/\b(st|se|sig)=[^&]*/g, "$1=<volatile>");
    if (volatileKey.test(key) && /\d/.test(text)) return "<volatile>";
    return text;
  }
  if (typeof value === "number") return volatileKey.test(key) ? "<volatile>" : value;
  if (Array.isArray(value)) return value.map((item) => normalise(item, places, key));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, places, k)]));
  }
  return value;
}

async function withServer(label, config, script) {
  const root = mkdtempSync(path.join(os.tmpdir(), "quiver-answers-"));
  const store = postgres ? { store: await postgres.freshStore() } : {};
  const data = azurite ? azurite.freshData() : {};
  const runtime = await startServer({ root, host: "127.0.0.1", port: 0, logger: false, ...store, ...data, ...config });
  // Table locations are under the data location: under the root on folders, in a container on Azure.
  const places = [data.data?.replace(/\/data$/, ""), root].filter(Boolean);
  let last;
  /** Sends one request, records its normalised answer and returns the parsed body. */
  const call = async (method, route, body, contentType) => {
    const headers = {};
    let payload;
    if (body !== undefined) {
      if (body instanceof Uint8Array) {
        headers["content-type"] = contentType ?? arrowType;
        payload = body;
      } else if (typeof body === "string") {
        headers["content-type"] = contentType ?? "application/json";
        payload = body;
      } else {
        headers["content-type"] = contentType ?? "application/json";
        payload = JSON.stringify(body);
      }
    }
    const response = await fetch(runtime.url + route, { method, headers, body: payload });
    const type = response.headers.get("content-type") ?? "";
    const bytes = new Uint8Array(await response.arrayBuffer());
    let parsed;
    let recorded;
    if (type.includes("json")) {
      try {
        parsed = JSON.parse(Buffer.from(bytes).toString());
        recorded = route === "/openapi.json" ? openapiDigests(parsed) : normalise(parsed, places);
      } catch {
        recorded = { text: normalise(Buffer.from(bytes).toString(), places) };
      }
    } else if (type.includes("arrow")) {
      try {
        recorded = normalise(arrowRows(bytes), places);
      } catch (error) {
        recorded = { undecodable: String(error.message) };
      }
    } else if (bytes.length > 0) {
      recorded = { text: normalise(Buffer.from(bytes).toString().slice(0, 2000), places) };
    }
    lines.push({ server: label, method, path: normalise(route, places), status: response.status, type: type.split(";")[0], body: recorded ?? null });
    last = parsed;
    return parsed;
  };
  try {
    await script(call, root, () => last);
  } finally {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The OpenAPI document is recorded as one digest per path and per component, so a difference names what changed. */
function openapiDigests(document) {
  const digest = (value) => createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 12);
  const digests = (object) => Object.fromEntries(Object.entries(object ?? {}).map(([key, value]) => [key, digest(value)]));
  const { paths, components, ...rest } = document;
  return { rest: digest(rest), paths: digests(paths), schemas: digests(components?.schemas), otherComponents: digest({ ...components, schemas: undefined }) };
}

const vectorOf = (i) => [Math.sin(i), Math.cos(i), Math.sin(i / 3), Math.cos(i / 7)];
/** A table of ids, a category string, a float and a four-dimension vector column. */
function rowsBody(from, count) {
  const rowIds = Int32Array.from({ length: count }, (_, i) => from + i);
  const flat = Float32Array.from(Array.from(rowIds).flatMap(vectorOf));
  const child = makeData({ type: new Float32(), length: flat.length, data: flat });
  const vectorType = new FixedSizeList(4, new Field("item", new Float32(), true));
  const vec = makeVector(makeData({ type: vectorType, length: count, nullCount: 0, child }));
  const scalars = tableFromArrays({
    id: rowIds,
    cat: Array.from(rowIds, (i) => ["a", "b", "c"][i % 3]),
    score: Float64Array.from(rowIds, (i) => i / 2),
  });
  const table = new Table({ id: scalars.getChild("id"), cat: scalars.getChild("cat"), score: scalars.getChild("score"), vec });
  const writer = new RecordBatchStreamWriter();
  writer.write(table);
  writer.finish();
  return writer.toUint8Array(true);
}

// ---- Plain server: the catalog, data, schema, index, version, tag, branch, view and job groups.
// A small upload limit lets one request prove the oversize answer without moving megabytes.
await withServer("plain", { dropRetentionMs: 3_600_000, maxUploadBytes: 1_000_000 }, async (call, root, last) => {
  const ok = (method, route, body) => call(method, route, body);
  // Namespaces.
  await ok("GET", "/v1/capabilities");
  await ok("GET", "/openapi.json");
  await ok("POST", "/v1/namespace/ns/create", {});
  await ok("POST", "/v1/namespace/ns/create", {});
  await ok("POST", "/v1/namespace/ns$inner/create", { properties: { owner: "x" } });
  await ok("POST", "/v1/namespace/other/create", { mode: "exist_ok" });
  await ok("GET", "/v1/namespace/ns/list");
  await ok("GET", "/v1/namespace/%24/list");
  await ok("POST", "/v1/namespace/ns$inner/describe", {});
  await ok("POST", "/v1/namespace/ns/exists", {});
  await ok("POST", "/v1/namespace/missing/exists", {});
  await ok("POST", "/v1/namespace/missing/describe", {});
  await ok("POST", "/v1/namespace/other/drop", {});
  await ok("POST", "/v1/namespace/other/drop", {});
  // Tables.
  await ok("POST", "/v1/table/ns$t/create", rowsBody(0, 300));
  await ok("POST", "/v1/table/ns$t/create", rowsBody(0, 3));
  await ok("POST", "/v1/table/ns$small/create?mode=overwrite", arrowStream({ id: Int32Array.from([1, 2, 3]) }));
  await ok("POST", "/v1/table/ns$declared/declare", {});
  await ok("POST", "/v1/table/ns$t/describe", {});
  const described = last();
  await ok("POST", "/v1/table/ns$t/describe", { with_table_uri: true, load_detailed_metadata: true });
  await ok("POST", "/v1/table/ns$t/exists", {});
  await ok("POST", "/v1/table/ns$nope/exists", {});
  await ok("GET", "/v1/namespace/ns/table/list");
  await ok("GET", "/v1/namespace/ns/table/list?limit=1");
  await ok("GET", "/v1/table");
  await ok("GET", "/v1/table?include_declared=true");
  await ok("POST", "/v1/table/ns$t/stats", {});
  await ok("POST", "/v1/table/ns$small/rename", { new_table_name: "small2" });
  await ok("POST", "/v1/table/ns$small2/rename", { new_table_name: "small3", new_namespace_id: ["ns", "inner"] });
  await ok("POST", "/v1/table/ns$inner$small3/drop", {});
  await ok("GET", "/v1/namespace/ns$inner/dropped_tables");
  await ok("POST", "/v1/table/ns$inner$small3/undrop", {});
  await ok("POST", "/v1/table/ns$inner$small3/describe", {});
  await ok("POST", "/v1/table/ns$inner$small3/deregister", {});
  const dereg = last();
  if (dereg?.location) await ok("POST", "/v1/table/ns$back/register", { location: dereg.location });
  else await ok("POST", "/v1/table/ns$back/register", { location: "nowhere" });
  await ok("POST", "/v1/table/ns$back/describe", {});
  if (described?.location) {
    await ok("POST", "/v1/table/ns$clone/clone", { source_location: described.location, source_version: 1 });
    await ok("POST", "/v1/table/ns$clone/describe", {});
  }
  // Rows.
  await ok("POST", "/v1/table/ns$t/insert", rowsBody(300, 10));
  await ok("POST", "/v1/table/ns$t/insert?mode=append", rowsBody(310, 5));
  await ok("POST", "/v1/table/ns$t/merge_insert?on=id&when_matched_update_all=true&when_not_matched_insert_all=true", rowsBody(312, 6));
  await ok("POST", "/v1/table/ns$t/update", { predicate: "id < 5", updates: [["score", "score + 100"]] });
  await ok("POST", "/v1/table/ns$t/delete", { predicate: "id >= 315" });
  await ok("POST", "/v1/table/ns$t/count_rows", {});
  await ok("POST", "/v1/table/ns$t/count_rows", { predicate: "cat = 'a'" });
  await ok("POST", "/v1/table/ns$t/query", { k: 5, vector: null, filter: "id < 8", columns: ["id", "cat", "score"] });
  await ok("POST", "/v1/table/ns$t/query", { k: 3, vector: vectorOf(7), columns: ["id"] });
  await ok("POST", "/v1/table/ns$t/query", { k: 4, vector: { single_vector: vectorOf(9) }, columns: { column_names: ["id", "score"] }, distance_type: "l2" });
  await ok("POST", "/v1/table/ns$t/query", { k: 4, vector: null, filter: "cat = 'b'", columns: { column_names: ["id"] }, offset: 2 });
  await ok("POST", "/v1/table/ns$t/query", { k: 5, vector: null, columns: ["id"], version: 1 });
  await ok("POST", "/v1/table/ns$t/explain_plan", { query: { k: 5, vector: null, filter: "id > 3" }, verbose: false });
  await ok("POST", "/v1/table/ns$t/analyze_plan", { k: 5, vector: null, filter: "id > 3" });
  // Schema.
  await ok("POST", "/v1/table/ns$t/add_columns", { new_columns: [{ name: "double", expression: "id * 2" }] });
  await ok("POST", "/v1/table/ns$t/alter_columns", { alterations: [{ path: "double", rename: "twice" }] });
  await ok("POST", "/v1/table/ns$t/alter_columns", { alterations: [{ path: "twice", data_type: "int64" }] });
  await ok("POST", "/v1/table/ns$t/drop_columns", { columns: ["twice"] });
  await ok("POST", "/v1/table/ns$t/schema_metadata/update", { team: "search" });
  await ok("POST", "/v1/table/ns$t/update_field_metadata", { updates: [{ path: "cat", metadata: { role: "label" } }] });
  await ok("POST", "/v1/table/ns$t/describe", {});
  // Indexes.
  await ok("POST", "/v1/table/ns$t/create_scalar_index", { column: "id", index_type: "BTREE" });
  await ok("POST", "/v1/table/ns$t/create_index", { column: "score", index_type: "BTREE", name: "score_btree" });
  await ok("POST", "/v1/table/ns$t/create_index", { column: "vec", index_type: "IVF_FLAT", num_partitions: 2, distance_type: "l2" });
  await ok("POST", "/v1/table/ns$t/index/list", {});
  await ok("POST", "/v1/table/ns$t/index/id_idx/stats", {});
  await ok("POST", "/v1/table/ns$t/index/vec_idx/stats", {});
  await ok("POST", "/v1/table/ns$t/index/nothing/stats", {});
  await ok("POST", "/v1/table/ns$t/explain_plan", { query: { k: 5, vector: null, filter: "id = 3" } });
  await ok("POST", "/v1/table/ns$t/query", { k: 2, vector: vectorOf(11), columns: ["id"], nprobes: 2 });
  await ok("POST", "/v1/table/ns$t/index/vec_idx/prewarm", {});
  await ok("POST", "/v1/table/ns$t/page_cache/prewarm", {});
  await ok("POST", "/v1/table/ns$t/insert", rowsBody(2000, 3));
  await ok("POST", "/v1/table/ns$t/optimize_indices", {});
  await ok("POST", "/v1/table/ns$t/index/score_btree/drop", {});
  await ok("POST", "/v1/table/ns$t/index/score_btree/drop", {});
  await ok("POST", "/v1/table/ns$t/index/list", {});
  // Versions, tags, branches.
  await ok("POST", "/v1/table/ns$t/version/list", {});
  await ok("POST", "/v1/table/ns$t/version/list?limit=2&descending=true");
  await ok("POST", "/v1/table/ns$t/version/describe", { version: 2 });
  await ok("POST", "/v1/table/ns$t/version/describe", { version: 999 });
  await ok("POST", "/v1/table/ns$t/tags/create", { tag: "first", version: 1 });
  await ok("POST", "/v1/table/ns$t/tags/create", { tag: "first", version: 1 });
  await ok("POST", "/v1/table/ns$t/tags/create", { tag: "second", version: 2 });
  await ok("POST", "/v1/table/ns$t/tags/list", {});
  await ok("POST", "/v1/table/ns$t/tags/version", { tag: "first" });
  await ok("POST", "/v1/table/ns$t/tags/update", { tag: "first", version: 3 });
  await ok("POST", "/v1/table/ns$t/tags/delete", { tag: "second" });
  await ok("POST", "/v1/table/ns$t/tags/version", { tag: "second" });
  await ok("POST", "/v1/table/ns$t/branches/create", { name: "dev", from_version: 2 });
  await ok("POST", "/v1/table/ns$t/branches/list", {});
  await ok("POST", "/v1/table/ns$t/insert?branch=dev", rowsBody(1000, 2));
  await ok("POST", "/v1/table/ns$t/count_rows", { branch: "dev" });
  await ok("POST", "/v1/table/ns$t/branches/delete", { name: "dev" });
  await ok("POST", "/v1/table/ns$t/branches/create", { name: "side" });
  await ok("POST", "/v1/table/ns$t/branches/diff?branch=side", { from_branch: "main" });
  await ok("POST", "/v1/table/ns$t/branches/delete", { name: "side" });
  await ok("POST", "/v1/table/ns$t/restore", { version: 2 });
  const restored = last();
  await ok("POST", "/v1/table/ns$t/count_rows", {});
  await ok("POST", "/v1/table/ns$t/version/delete", { ranges: [{ start_version: 1, end_version: 1 }] });
  // Transactions.
  const tx = restored?.transaction_id ?? "none";
  await ok("POST", `/v1/transaction/${tx}/describe`, {});
  await ok("POST", "/v1/transaction/unknown-tx/describe", {});
  await ok("POST", `/v1/transaction/${tx}/alter`, { actions: [{ setPropertyAction: { key: "k", value: "v" } }] });
  // Materialized views and jobs.
  const schemaOnly = Buffer.from(arrowStream({ id: Int32Array.from([0]), cat: ["a"] })).toString("base64");
  await ok("POST", "/v1/materialized_view/ns$view/create", {
    kind: "query",
    source_query: JSON.stringify({ source: ["ns", "t"], projections: ["id", "cat"], filter: "id < 20" }),
    output_schema: schemaOnly,
    with_no_data: true,
  });
  await ok("POST", "/v1/materialized_view/ns$view/refresh", {});
  const job = last()?.job_id;
  if (job) {
    for (let i = 0; i < 100; i += 1) {
      const state = await fetchJob(call, job);
      if (state && !/queued|running/i.test(String(state.status))) break;
    }
    await ok("POST", "/v1/jobs/list", {});
    await ok("POST", "/v1/jobs/describe", { job_id: job });
    await ok("GET", `/v1/jobs/${job}`);
    await ok("POST", "/v1/jobs/cancel", { job_id: job });
    await ok("POST", "/v1/table/ns$view/count_rows", {});
  }
  await ok("POST", "/v1/jobs/describe", { job_id: "no-such-job" });
  await ok("POST", "/v1/table/ns$t/backfill_column", { column: "id" });
  await ok("POST", "/v1/table/ns$t/compact", {});
  await ok("POST", "/v1/table/ns$t/cleanup", { older_than_seconds: 0 });
  await ok("POST", "/v1/table/ns$t/maintenance_schedule", { interval_seconds: 3600 });
  await ok("POST", "/v1/table/ns$t/maintenance_schedule/describe", {});
  await ok("POST", "/v1/table/ns$t/maintenance_schedule", { interval_seconds: null });
  await ok("GET", "/v1/namespace/ns/function/list");
  await ok("POST", "/v1/table/ns$t/get_lsm_stats", {});
  await ok("GET", "/v1/events?limit=5");
  await ok("GET", "/v1/events?after=3&limit=3");
  await ok("GET", "/v1/events?tail=2");
  await ok("POST", "/v1/table/ns$declared/drop", {});
  await ok("POST", "/v1/table/ns$clone/drop", {});
  await ok("POST", "/v1/namespace/ns$inner/drop", {});
  await ok("POST", "/v1/namespace/ns$inner/drop", { behavior: "Cascade" });

  // Bad requests: every answer is a client mistake with a spec code.
  const bad = [
    ["POST", "/v1/namespace/ns/create", "{not json"],
    ["POST", "/v1/namespace/ns/create", "[]"],
    ["POST", "/v1/namespace/ns/create", { properties: "x" }],
    ["POST", "/v1/namespace/ns/create", { mode: "sideways" }],
    ["POST", "/v1/namespace/ns/create", { unknown_field: 1 }],
    ["POST", "/v1/namespace/bad%00name/create", {}],
    ["POST", "/v1/namespace/%20/create", {}],
    ["POST", "/v1/namespace/a$$b/create", {}],
    ["POST", "/v1/namespace/" + "n".repeat(600) + "/create", {}],
    ["POST", "/v1/table/ns$missing/describe", {}],
    ["POST", "/v1/table/missingns$t/describe", {}],
    ["POST", "/v1/table/ns$missing/query", { k: 1, vector: null }],
    ["POST", "/v1/table/ns$t/query", { k: "five", vector: null }],
    ["POST", "/v1/table/ns$t/query", { k: -1, vector: null }],
    ["POST", "/v1/table/ns$t/query", { k: null, vector: null }],
    ["POST", "/v1/table/ns$t/query", { k: 1, vector: [1, 2] }],
    ["POST", "/v1/table/ns$t/query", { k: 1, vector: null, filter: "nosuchcol > 1" }],
    ["POST", "/v1/table/ns$t/query", { k: 1, vector: null, filter: "id >>> 1" }],
    ["POST", "/v1/table/ns$t/query", { k: 1, vector: null, columns: ["nope"] }],
    ["POST", "/v1/table/ns$t/query", { k: 1, vector: null, version: 999 }],
    ["POST", "/v1/table/ns$t/count_rows", { predicate: 5 }],
    ["POST", "/v1/table/ns$t/update", { predicate: "id < 1" }],
    ["POST", "/v1/table/ns$t/update", { predicate: "id < 1", updates: [["nope", "1"]] }],
    ["POST", "/v1/table/ns$t/update", { predicate: "id < 1", updates: null }],
    ["POST", "/v1/table/ns$t/delete", {}],
    ["POST", "/v1/table/ns$t/delete", { predicate: null }],
    ["POST", "/v1/table/ns$t/insert", new Uint8Array([1, 2, 3, 4])],
    ["POST", "/v1/table/ns$t/insert", arrowStream({ other: Int32Array.from([1]) })],
    ["POST", "/v1/table/ns$t/insert", "{}", "application/json"],
    ["POST", "/v1/table/ns$t/insert?mode=sideways", rowsBody(5000, 1)],
    ["POST", "/v1/table/ns$t/merge_insert", rowsBody(5000, 1)],
    ["POST", "/v1/table/ns$t/merge_insert?on=nope", rowsBody(5000, 1)],
    ["POST", "/v1/table/ns$new/create", new Uint8Array(0)],
    ["POST", "/v1/table/ns$new/create", "not arrow", "text/plain"],
    ["POST", "/v1/table/ns$t/add_columns", { new_columns: [{ name: "id", expression: "1" }] }],
    ["POST", "/v1/table/ns$t/add_columns", { new_columns: "x" }],
    ["POST", "/v1/table/ns$t/alter_columns", { alterations: [{ path: "nope", rename: "x" }] }],
    ["POST", "/v1/table/ns$t/drop_columns", { columns: ["nope"] }],
    ["POST", "/v1/table/ns$t/drop_columns", { columns: [] }],
    ["POST", "/v1/table/ns$t/create_index", { column: "nope" }],
    ["POST", "/v1/table/ns$t/create_index", { column: "id", index_type: "WHATEVER" }],
    ["POST", "/v1/table/ns$t/create_index", {}],
    ["POST", "/v1/table/ns$t/index/nothing/drop", {}],
    ["POST", "/v1/table/ns$t/version/describe", { version: -1 }],
    ["POST", "/v1/table/ns$t/version/describe", { version: "1" }],
    ["POST", "/v1/table/ns$t/restore", { version: 999 }],
    ["POST", "/v1/table/ns$t/restore", {}],
    ["POST", "/v1/table/ns$t/tags/create", { tag: "neg", version: -1 }],
    ["POST", "/v1/table/ns$t/tags/create", { tag: "", version: 1 }],
    ["POST", "/v1/table/ns$t/tags/create", { tag: "far", version: 999 }],
    ["POST", "/v1/table/ns$t/tags/delete", { tag: "nothing" }],
    ["POST", "/v1/table/ns$t/tags/update", { tag: "nothing", version: 1 }],
    ["POST", "/v1/table/ns$t/branches/create", { name: "" }],
    ["POST", "/v1/table/ns$t/branches/delete", { name: "nothing" }],
    ["POST", "/v1/table/ns$t/rename", {}],
    ["POST", "/v1/table/ns$t/rename", { new_table_name: "bad$name" }],
    ["POST", "/v1/table/ns$t/register", { location: "/elsewhere" }],
    ["POST", "/v1/table/ns$t/clone", { source_location: "/nowhere" }],
    ["POST", "/v1/table/ns$t/undrop", {}],
    ["POST", "/v1/namespace/ns/drop", {}],
    ["POST", "/v1/namespace/missing/drop", {}],
    ["POST", "/v1/namespace/ns/drop", { behavior: "Sideways" }],
    ["GET", "/v1/namespace/ns/table/list?limit=-3"],
    ["GET", "/v1/namespace/ns/table/list?limit=abc"],
    ["GET", "/v1/namespace/missing/table/list"],
    ["POST", "/v1/table/ns$t/explain_plan", {}],
    ["POST", "/v1/table/ns$t/schema_metadata/update", { metadata: { k: 1 } }],
    ["POST", "/v1/materialized_view/ns$v2/create", { kind: "nope", source_query: "{}", output_schema: "" }],
    ["POST", "/v1/materialized_view/ns$missing/refresh", {}],
    ["POST", "/v1/jobs/cancel", {}],
    ["POST", "/v1/transaction/x/alter", { actions: [] }],
    ["POST", "/v1/table/version/batch-create", {}],
    ["POST", "/v1/table/batch-commit", { operations: "x" }],
    ["POST", "/v1/table/ns$t/describe", "x".repeat(2_000_000)],
    ["POST", "/v1/table/ns$t/insert", rowsBody(10_000, 40_000)],
    ["POST", "/v1/table/ns$t/describe", { unknown_field: true }],
    ["POST", "/v1/table/ns$t/query", { k: 1, vector: null, unknown_field: true }],
    ["POST", "/v1/table/ns$t/tags/create", { tag: "x", version: null }],
    ["POST", "/v1/table/ns$t/version/list?limit=ten"],
    ["POST", "/v1/table/ns$t/count_rows", "null"],
    ["GET", "/v1/events?limit=abc"],
    ["POST", "/v1/table/ns$t/maintenance_schedule", { interval_seconds: 5 }],
    ["POST", "/v1/table/ns$t/branches/diff", {}],
    ["POST", "/v1/table/ns$t/multipart_write/create", {}],
    ["POST", "/v1/table/ns$t/fetch_blobs", {}],
    ["GET", "/v1/no/such/route"],
    ["DELETE", "/v1/namespace/ns/create"],
  ];
  for (const [method, route, body, type] of bad) await call(method, route, body, type);
  await ok("POST", "/v1/table/ns$t/count_rows", {});
});

async function fetchJob(call, job) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  return silent(call, "POST", "/v1/jobs/describe", { job_id: job });
}

/** Polls without recording, so the number of polls does not change the recording. */
async function silent(call, method, route, body) {
  const before = lines.length;
  const answer = await call(method, route, body);
  lines.length = before;
  return answer;
}

// ---- Managed-versioning server: declared tables, staged manifests committed by the catalog.
// Staging a version writes the table's folder directly, so this part runs on local data only.
if (!azurite) await withServer("managed", { managedVersioning: true }, async (call) => {
  await call("POST", "/v1/namespace/m/create", {});
  const declared = await call("POST", "/v1/table/m$t/declare", {});
  const location = declared?.location?.startsWith("file://") ? fileURLToPath(declared.location) : declared?.location;
  if (!location) return;
  const staged = await stageVersion(location);
  await call("POST", "/v1/table/m$t/version/create", { version: staged.version, manifest_path: staged.manifestPath, naming_scheme: "V2" });
  await call("POST", "/v1/table/m$t/version/create", { version: staged.version, manifest_path: staged.manifestPath, naming_scheme: "V2" });
  await call("POST", "/v1/table/m$t/version/list", {});
  await call("POST", "/v1/table/m$t/version/describe", { version: staged.version });
  const second = await stageVersion(location);
  await call("POST", "/v1/table/version/batch-create", {
    entries: [{ id: ["m", "t"], version: second.version, manifest_path: second.manifestPath, naming_scheme: "V2" }],
  });
  await call("POST", "/v1/table/m$t/version/create", { version: 99, manifest_path: "nowhere.manifest" });
  await call("POST", "/v1/table/m$t/version/create", {});
  await call("POST", "/v1/table/m$t/describe", {});
  await call("POST", "/v1/table/m$t/count_rows", {});
  await call("POST", "/v1/table/m$t/query", { k: 10, vector: null, columns: ["id"] });
});


await postgres?.stop();
await azurite?.stop();
writeFileSync(outArg, lines.map((line, index) => JSON.stringify({ n: index + 1, ...line })).join("\n") + "\n");
console.error(`${lines.length} requests recorded from ${checkout} into ${outArg}`);
