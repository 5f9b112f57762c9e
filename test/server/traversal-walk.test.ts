/**
 * Every route the server documents in `/openapi.json`, walked as a tenant holding only database
 * a's admin key (`--auth required`) would: each string it takes (path, query, JSON body, one at a
 * time) is sent spelled as a way out of the table (`../` at every depth, percent-encoded,
 * backslashes, NUL, absolute, over-long). Canary files sit beside the databases (and, on a local
 * folder, beside the data location), and database b has a table of its own. Every answer must be
 * a 4xx with an integer code, nothing outside database a's tables may change, and an escape aimed
 * at a file that exists must answer exactly as one aimed at a file that does not. The walk reads
 * the routes from the served document, so a route added later is walked too.
 */
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { test } from "node:test";
import { isUri, joinLocation } from "../../src/storage/locations.js";
import { addDatabase, apiKey, startAuthServer } from "../auth/auth-helpers.js";
import { arrowStream } from "../helpers/arrow.js";
import { rawRequest } from "../helpers/raw-http.js";
import { testStorages } from "../helpers/test-backend.js";
import { type TestServer, expectJson } from "../helpers/test-server.js";

/** A value sent where a name is expected; `raw` values go into a URL as they are (already encoded). */
interface Spelling {
  label: string;
  value: string;
  raw?: boolean;
}

const maxDepth = 9;

/** The ways out of a table aimed at `target` (a name beside the databases). */
function escapesTo(target: string): Spelling[] {
  const climbs = Array.from({ length: maxDepth }, (_, index) => index + 1);
  return [
    ...climbs.map((depth) => ({ label: `${depth}×'../'`, value: `${"../".repeat(depth)}${target}` })),
    { label: "encoded '/'", value: `${"..%2F".repeat(7)}${target}`, raw: true },
    { label: "encoded dots and '/'", value: `${"%2e%2e%2f".repeat(7)}${target}`, raw: true },
    { label: "'%2F' as text", value: `${"..%2F".repeat(7)}${target}` },
    { label: "double-encoded '/'", value: `${"..%252F".repeat(7)}${target}`, raw: true },
    { label: "backslashes", value: `${"..\\".repeat(7)}${target}` },
    { label: "'..//'", value: `${"....//".repeat(7)}${target}` },
    { label: "NUL after the name", value: `${"../".repeat(7)}${target}\u0000.json` },
  ];
}

/** Spellings that aim at nothing in particular. */
const oddities: Spelling[] = [
  { label: "'.'", value: "." },
  { label: "'..'", value: ".." },
  { label: "NUL", value: "\u0000" },
  { label: "over-long", value: "a".repeat(5000) },
  { label: "an absolute path", value: "/etc/passwd" },
];

/**
 * Fields that are text, not names: a separator, a description, a filter, an opaque page token,
 * the caller's identity, a column or job to look for. None reaches a storage path; the walk lets
 * them be taken as given (any answer but a server error), and still checks that nothing outside
 * the table changes and that no answer tells a canary's existence.
 */
const freeText = new Set([
  "delimiter",
  "description",
  "filter",
  "predicate",
  "when_matched_update_all_filt",
  "when_not_matched_by_source_delete_filt",
  "timeout",
  "page_token",
  "after",
  "identity",
  "context",
  "vector_column",
  "distributed_metrics",
  "status",
]);

/** Whether `field` of `route` is text rather than a name; a body's `id` is the spec's, unread where the route names no object. */
function isText(route: Route, field: string): boolean {
  const parts = field.replace(/\[\]$/, "").split(".");
  return parts.some((part) => freeText.has(part)) || (field === "id[]" && !route.pathParams.includes("id"));
}

/** Valid values of the path's other parameters, and the fields a walked field needs beside it to be read at all. */
interface Fixture {
  pathDefaults: Record<string, string>;
  companions: Record<string, Record<string, string>>;
}

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; items?: JsonSchema; anyOf?: JsonSchema[]; $ref?: string; enum?: unknown[]; const?: unknown };

interface Route {
  method: string;
  path: string;
  operationId: string;
  pathParams: string[];
  queryStrings: string[];
  bodyKind: "json" | "arrow" | "none";
  /** Dotted paths of the JSON body's string fields (`[]` marks an array of strings). */
  bodyStrings: string[];
  /** The fields (query names, body paths) whose schema admits only listed values: no spelling of a path gets past validation. */
  closed: Set<string>;
}

function resolve(doc: any, schema: JsonSchema | undefined): JsonSchema | undefined {
  if (schema?.$ref) return resolve(doc, doc.components.schemas[schema.$ref.split("/").pop() as string]);
  return schema;
}

/** Whether every string `schema` admits is one of a list (an enum, a constant, a union of them). */
function isClosedString(doc: any, schema: JsonSchema | undefined): boolean {
  const resolved = resolve(doc, schema);
  if (!resolved) return false;
  if (resolved.enum !== undefined || resolved.const !== undefined) return true;
  if (resolved.type === "null") return true;
  if (resolved.items) return isClosedString(doc, resolved.items);
  return (resolved.anyOf?.length ?? 0) > 0 && (resolved.anyOf ?? []).every((option) => isClosedString(doc, option));
}

/** The schema of the body field at dotted `field` (`a.b`, `c[]`). */
function fieldSchema(doc: any, schema: JsonSchema | undefined, field: string): JsonSchema | undefined {
  let at = resolve(doc, schema);
  for (const part of field.replace(/\[\]$/, "").split(".")) {
    const options = [at, ...(at?.anyOf ?? []).map((option) => resolve(doc, option))];
    at = resolve(doc, options.find((option) => option?.properties?.[part])?.properties?.[part]);
  }
  return at;
}

function isStringSchema(doc: any, schema: JsonSchema | undefined): boolean {
  const resolved = resolve(doc, schema);
  if (!resolved) return false;
  if (resolved.type === "string" || (Array.isArray(resolved.type) && resolved.type.includes("string"))) return true;
  return (resolved.anyOf ?? []).some((option) => isStringSchema(doc, option));
}

/** The string fields of a body schema, two levels deep (a query's `vector.column`, `columns.column_names`). */
function stringFields(doc: any, schema: JsonSchema | undefined, prefix = "", depth = 0): string[] {
  const resolved = resolve(doc, schema);
  const found: string[] = [];
  for (const [name, property] of Object.entries(resolved?.properties ?? {})) {
    const field = `${prefix}${name}`;
    const inner = resolve(doc, property);
    const options = [inner, ...(inner?.anyOf ?? []).map((option) => resolve(doc, option))];
    if (isStringSchema(doc, inner)) found.push(field);
    else if (options.some((option) => option?.type === "array" && isStringSchema(doc, option.items))) found.push(`${field}[]`);
    else if (depth < 1) for (const option of options) if (option?.properties) found.push(...stringFields(doc, option, `${field}.`, depth + 1));
  }
  return [...new Set(found)];
}

function routesOf(doc: any): Route[] {
  const routes: Route[] = [];
  for (const [routePath, item] of Object.entries<any>(doc.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const parameters: any[] = operation.parameters ?? [];
      const content = operation.requestBody?.content ?? {};
      const jsonSchema = content["application/json"]?.schema;
      routes.push({
        method: method.toUpperCase(),
        path: routePath,
        operationId: operation.operationId,
        pathParams: parameters.filter((parameter) => parameter.in === "path").map((parameter) => parameter.name),
        queryStrings: parameters.filter((parameter) => parameter.in === "query" && isStringSchema(doc, parameter.schema)).map((parameter) => parameter.name),
        bodyKind: jsonSchema ? "json" : content["application/vnd.apache.arrow.stream"] ? "arrow" : "none",
        bodyStrings: jsonSchema ? stringFields(doc, jsonSchema) : [],
        closed: new Set([
          ...parameters.filter((parameter) => parameter.in === "query" && isClosedString(doc, parameter.schema)).map((parameter) => parameter.name as string),
          ...(jsonSchema ? stringFields(doc, jsonSchema).filter((field) => isClosedString(doc, fieldSchema(doc, jsonSchema, field))) : []),
        ]),
      });
    }
  }
  return routes;
}

/** Runs `tasks` four at a time: enough to keep the server busy, few enough that no request waits past its deadline on a slow store. */
async function inBatches(tasks: (() => Promise<void>)[], width = 4): Promise<void> {
  for (let start = 0; start < tasks.length; start += width) await Promise.all(tasks.slice(start, start + width).map((task) => task()));
}

function mapValues(values: Record<string, string>, map: (value: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, map(value)]));
}

/** `body` with the field at dotted `field` (`a.b`, `c[]`) set to `value`. */
function withField(body: Record<string, unknown>, field: string, value: string): Record<string, unknown> {
  const copy = structuredClone(body);
  const parts = field.split(".");
  let at: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
  const last = parts.at(-1) as string;
  if (last.endsWith("[]")) at[last.slice(0, -2)] = [value];
  else at[last] = value;
  return copy;
}

interface Sent {
  status: number;
  code: unknown;
  text: string;
}

/**
 * The walk's requests, as database a's admin, through `node:http`: the path goes out as written
 * (fetch's URL parser would resolve `%2E%2E` segments before sending, as a hostile client does not).
 */
class Walker {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

  constructor(
    private readonly server: TestServer,
    private readonly key: string,
  ) {}

  async send(route: Route, pathValues: Record<string, string>, query: [string, string, boolean][], body: Record<string, unknown> | undefined): Promise<Sent> {
    const filled = route.path.replace(/\{(\w+)\}/g, (_, name: string) => pathValues[name] as string);
    const search = query.map(([name, value, raw]) => `${name}=${raw ? value : encodeURIComponent(value)}`).join("&");
    const headers: Record<string, string> = { "x-api-key": this.key, "x-svc-database": "a" };
    let payload: string | Uint8Array | undefined;
    if (route.method !== "GET" && route.bodyKind === "json") {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body ?? {});
    } else if (route.method !== "GET" && route.bodyKind === "arrow") {
      headers["content-type"] = "application/vnd.apache.arrow.stream";
      payload = arrowStream({ id: Int32Array.from([7]) });
    }
    const { status, text } = await rawRequest(this.server.url, route.method, `${filled}${search ? `?${search}` : ""}`, { headers, body: payload, agent: this.agent });
    let code: unknown;
    try {
      code = (JSON.parse(text) as { code?: unknown }).code;
    } catch {
      code = undefined;
    }
    return { status, code, text: text.slice(0, 300) };
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Every file under the local folder `root` (but the skipped ones) with its size. */
function localFiles(root: string, skip: (file: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (skip(full)) continue;
      if (entry.isDirectory()) walk(full);
      else found.push(`${full} ${statSync(full).size}`);
    }
  };
  walk(root);
  return found.sort();
}

/** Every object below `location` (but the skipped ones), with its size, through the tests' own storage view. */
async function storedObjects(location: string, skip: (object: string) => boolean): Promise<string[]> {
  if (!isUri(location)) return localFiles(location, skip);
  const found: string[] = [];
  const walk = async (prefix: string) => {
    for (const entry of await testStorages.for(prefix).list(prefix)) {
      const full = joinLocation(prefix, entry.name);
      if (skip(full)) continue;
      if (entry.kind === "prefix") await walk(full);
      else found.push(`${full} ${(await testStorages.for(full).head(full))?.size}`);
    }
  };
  await walk(location);
  return found.sort();
}

test("every routed operation, walked with path escapes in each string it takes → 4xx with a code, nothing outside the table touched, a canary's existence never told", { timeout: 600_000 }, async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  await addDatabase(server, "a");
  await addDatabase(server, "b");
  const aAdmin = await apiKey(server, "a", "admin");
  const bAdmin = await apiKey(server, "b", "admin");
  const as = (key: string, database: string) => ({ "x-api-key": key, "x-svc-database": database });

  // Database a: a namespace, a table with a branch and a tag, an open multipart write.
  const rows = arrowStream({ id: Int32Array.from([1, 2, 3]) });
  const create = (database: string, key: string, table: string) =>
    fetch(`${server.url}/v1/table/${table}/create`, { method: "POST", headers: { ...as(key, database), "content-type": "application/vnd.apache.arrow.stream" }, body: rows });
  await expectJson(await server.post("/v1/namespace/ns/create", {}, as(aAdmin, "a")));
  await expectJson(await create("a", aAdmin, "t"));
  await expectJson(await server.post("/v1/table/t/branches/create", { name: "dev" }, as(aAdmin, "a")));
  await expectJson(await server.post("/v1/table/t/tags/create", { tag: "v1", version: 1 }, as(aAdmin, "a")));
  const upload = await expectJson<{ upload_id: string }>(await server.post("/v1/table/t/multipart_write/create", undefined, as(aAdmin, "a")));
  // Database b: a table a's key must never reach.
  await expectJson(await create("b", bAdmin, "payroll"));
  const bTable = (await expectJson<{ location: string }>(await server.post("/v1/table/payroll/describe", {}, as(bAdmin, "b")))).location;

  // Canaries: `canary.json`, `canary.arrow` and `canary/` beside the databases; on a local
  // folder also at the server's root, which holds the store.
  const canaryHomes = [server.dataLocation, ...(isUri(server.dataLocation) ? [] : [server.root])];
  for (const home of canaryHomes) {
    for (const name of ["canary.json", "canary.arrow", "canary/keep.txt", "canary/_versions/keep.manifest"]) {
      const location = joinLocation(home, name);
      if (isUri(location)) await testStorages.for(location).put(location, Buffer.from("canary"));
      else {
        mkdirSync(path.dirname(location), { recursive: true });
        writeFileSync(location, "canary");
      }
    }
  }
  const aTables = joinLocation(server.dataLocation, "a", "tables");
  const isStore = (file: string) => /quiver\.sqlite/.test(path.basename(file));
  const outsideTarget = async () => [
    ...(await storedObjects(server.dataLocation, (object) => object === aTables)),
    ...(isUri(server.dataLocation) ? [] : localFiles(server.root, (file) => file === server.dataLocation || isStore(file))),
  ];
  const before = await outsideTarget();
  assert.ok(before.some((entry) => entry.startsWith(bTable)), "database b's table is among what is watched");

  const doc = await expectJson(await server.get("/openapi.json", as(aAdmin, "a")));
  const routes = routesOf(doc);
  assert.ok(routes.length > 80, `the document lists the routes (${routes.length})`);
  const fixture: Fixture = {
    pathDefaults: { id: "t", table_name: "t2", index_name: "idx", transaction_id: "tx", job_id: "job", database: "a", key_id: "key", client_id: "client" },
    companions: { upload_part_id: { upload_id: upload.upload_id } },
  };
  const namespaceDefault = (route: Route) => (route.path.startsWith("/v1/namespace/") ? "ns" : "t");
  const walker = new Walker(server, aAdmin);
  t.after(() => walker.close());
  /** What broke the rules, by operation and field: the spellings and answers. */
  const failures = new Map<string, string[]>();
  const fail = (where: string, what: string) => failures.set(where, [...(failures.get(where) ?? []), what]);
  let sent = 0;

  const walks = routes.flatMap((route) =>
    [
      ...route.pathParams.map((name) => ({ where: "path" as const, name })),
      ...route.queryStrings.map((name) => ({ where: "query" as const, name })),
      ...route.bodyStrings.map((name) => ({ where: "body" as const, name })),
    ].map((field) => ({ route, field, text: isText(route, field.name), closed: route.closed.has(field.name) })),
  );
  // Names first: text may be taken as given (a delimiter that splits `t` as `t`), and what a
  // drop with such text does must not leave the names' walk without its table.
  walks.sort((a, b) => Number(a.text) - Number(b.text));
  for (const { route, field, text, closed } of walks) {
    const pathValues = { ...fixture.pathDefaults, id: namespaceDefault(route) };
    const companions = Object.entries(fixture.companions[field.name] ?? {}).map(([name, value]): [string, string, boolean] => [name, value, false]);
    const attempt = async (spelling: Spelling): Promise<Sent> => {
      sent += 1;
      const encoded = spelling.raw ? spelling.value : encodeURIComponent(spelling.value);
      if (field.where === "path") return walker.send(route, { ...mapValues(pathValues, encodeURIComponent), [field.name]: encoded }, companions, undefined);
      if (field.where === "query") return walker.send(route, mapValues(pathValues, encodeURIComponent), [...companions, [field.name, spelling.value, spelling.raw ?? false]], undefined);
      return walker.send(route, mapValues(pathValues, encodeURIComponent), companions, withField({}, field.name, spelling.value));
    };
    const where = `${route.operationId} ${field.where} '${field.name}'`;
    // A name is refused (4xx); text may be taken, but is never a server error.
    const check = (spelling: Spelling, answer: Sent) => {
      const refused = answer.status >= 400 && answer.status < 500 && Number.isInteger(answer.code);
      if (!refused && (!text || answer.status >= 500)) fail(where, `${spelling.label} → HTTP ${answer.status} ${answer.text}`);
    };
    // Text never reaches a path, and a closed field takes only its listed values: a climb and the
    // oddities show either is refused or harmless. Names get every spelling.
    const there = escapesTo("canary").filter((spelling) => field.where !== "body" || !spelling.raw).slice(0, text || closed ? 1 : undefined);
    const missing = escapesTo("nocanary").filter((spelling) => field.where !== "body" || !spelling.raw);
    // One field at a time, a few of its spellings at once (the server answers them side by side).
    await inBatches([
      ...oddities.map((spelling) => async () => check(spelling, await attempt(spelling))),
      ...there.map((spelling, index) => async () => {
        const aimless = missing[index] as Spelling;
        const [existing, absent] = await Promise.all([attempt(spelling), attempt(aimless)]);
        check(spelling, existing);
        check(aimless, absent);
        // Text may be taken (a create with a delimiter creates), so the second answer of a pair may differ for that alone.
        if (!text && (existing.status !== absent.status || existing.code !== absent.code)) {
          fail(where, `${spelling.label}: a canary that exists answers HTTP ${existing.status} code ${existing.code}, a missing one HTTP ${absent.status} code ${absent.code}`);
        }
      }),
    ]);
  }
  const report = [...failures].map(([where, what]) => `${where}: ${what.length} × e.g. ${what[0]}`);
  t.diagnostic(`${routes.length} routes, ${sent} requests`);
  assert.deepEqual(report, [], `${report.length} fields broke the rules:\n${report.join("\n")}`);
  assert.deepEqual(await outsideTarget(), before, "nothing outside database a's tables changed");
  // Database b's table still reads as it did.
  assert.equal(await expectJson(await server.post("/v1/table/payroll/count_rows", {}, as(bAdmin, "b"))), 3);
});
