#!/usr/bin/env node
/**
 * Lists the source files (`src/**`) one request runs through, for one request of each kind the
 * architecture document walks: QueryTable, UpdateTable and a managed-versioning commit
 * (CreateTableVersion).
 *
 * It starts a server in this process over a temporary root (SQLite, table data in local
 * folders), warms each request kind up, then takes V8's precise call counts (`node:inspector`)
 * just before and just after one request: a file of `dist/src/` counts when any of its functions
 * ran in between. Taking the counts resets them, so the second take holds only that window. A
 * timer of the server firing inside the window would add its files, so each kind is measured
 * several times and only the files seen every time are kept; the others are printed apart.
 *
 *   npx tsc -p tsconfig.json && node scripts/request-walk.mjs [checkout] [--json]
 *
 * `checkout` is the folder whose `dist/` is measured (default: the current folder).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { RecordBatchStreamWriter, tableFromArrays } from "apache-arrow-21";
import { stageVersion } from "./stage-version.mjs";

const args = process.argv.slice(2);
const asJson = args.includes("--json");
const checkout = path.resolve(args.find((arg) => !arg.startsWith("--")) ?? process.cwd());
const distSrc = path.join(checkout, "dist", "src");
const distSrcUrl = pathToFileURL(distSrc).href + "/";
const warmups = 5;
const measurements = 3;

if (!existsSync(path.join(distSrc, "cli", "runtime.js"))) {
  console.error(`no build under ${distSrc}: run \`npx tsc -p tsconfig.json\` in ${checkout} first`);
  process.exit(2);
}

// Counting starts before the server's modules load, so every function has its counter.
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });

const { startServer } = await import(pathToFileURL(path.join(distSrc, "cli", "runtime.js")).href);

/** The `src/` files (as `.ts` paths) with a function called since the last take. */
async function filesCalledSinceLastTake() {
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const files = new Set();
  for (const script of result) {
    if (!script.url.startsWith(distSrcUrl)) continue;
    if (!script.functions.some((fn) => fn.ranges[0].count > 0)) continue;
    files.add("src/" + script.url.slice(distSrcUrl.length).replace(/\.js$/, ".ts"));
  }
  return files;
}

/** The answer is sent and the server's after-answer hooks have run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/**
 * Runs `prepare` then `request` `warmups` times, then `measurements` times with the counts taken
 * around `request` alone; answers the files of every measurement and those of only some.
 */
async function walk(prepare, request) {
  for (let i = 0; i < warmups; i += 1) {
    await prepare();
    await request();
  }
  let always;
  const ever = new Set();
  for (let i = 0; i < measurements; i += 1) {
    await prepare();
    await settle();
    await filesCalledSinceLastTake();
    await request();
    await settle();
    const files = await filesCalledSinceLastTake();
    for (const file of files) ever.add(file);
    always = always ? new Set([...always].filter((file) => files.has(file))) : files;
  }
  return { files: [...always].sort(), sometimes: [...ever].filter((file) => !always.has(file)).sort() };
}

async function expectOk(response) {
  const body = new Uint8Array(await response.arrayBuffer());
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${Buffer.from(body).toString()}`);
  return body;
}

const json = (body) => JSON.parse(Buffer.from(body).toString());

function arrowStream(columns) {
  const writer = new RecordBatchStreamWriter();
  writer.write(tableFromArrays(columns));
  writer.finish();
  return writer.toUint8Array(true);
}

async function withServer(config, use) {
  const root = mkdtempSync(path.join(os.tmpdir(), "quiver-walk-"));
  const runtime = await startServer({ root, host: "127.0.0.1", port: 0, logger: false, ...config });
  const post = (route, body, contentType = "application/json") =>
    fetch(runtime.url + route, {
      method: "POST",
      headers: body === undefined ? {} : { "content-type": contentType },
      body: body === undefined ? undefined : contentType === "application/json" ? JSON.stringify(body) : body,
    }).then(expectOk);
  try {
    return await use(post);
  } finally {
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  }
}

const noop = async () => {};
const walks = {};

await withServer({}, async (post) => {
  await post("/v1/namespace/walk/create", {});
  const ids = Int32Array.from({ length: 100 }, (_, i) => i);
  await post("/v1/table/walk$t/create", arrowStream({ id: ids, n: Float64Array.from(ids) }), "application/vnd.apache.arrow.stream");
  walks.QueryTable = await walk(noop, () =>
    post("/v1/table/walk$t/query", { k: 10, vector: null, filter: "id > 10", columns: { column_names: ["id", "n"] } }),
  );
  walks.UpdateTable = await walk(noop, () => post("/v1/table/walk$t/update", { predicate: "id < 5", updates: [["n", "n + 1"]] }));
  // The control: a window without a request holds only what the server's timers run.
  walks["no request (control)"] = await walk(noop, settle);
});

await withServer({ managedVersioning: true }, async (post) => {
  await post("/v1/namespace/walk/create", {});
  const declared = json(await post("/v1/table/walk$m/declare", {}));
  const location = declared.location.startsWith("file://") ? fileURLToPath(declared.location) : declared.location;
  let staged;
  walks.CreateTableVersion = await walk(
    async () => {
      staged = await stageVersion(location);
    },
    () => post("/v1/table/walk$m/version/create", { version: staged.version, manifest_path: staged.manifestPath, naming_scheme: "V2" }),
  );
});


await session.post("Profiler.stopPreciseCoverage");
session.disconnect();

if (asJson) {
  console.log(JSON.stringify(walks, null, 2));
} else {
  for (const [kind, { files, sometimes }] of Object.entries(walks)) {
    console.log(`${kind}: ${files.length} source files`);
    for (const file of files) console.log(`  ${file}`);
    if (sometimes.length > 0) console.log(`  (in some measurements only, left out: ${sometimes.join(", ")})`);
  }
}
