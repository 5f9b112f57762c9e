/**
 * The `rest` namespace client: every operation goes over the Lance Namespace REST routes.
 *
 *   npm run build && node dist/examples/rest-client.js [uri]
 *
 * With a `uri` argument (e.g. http://localhost:2333 after `npm start`) it talks to that
 * server. Without one it starts a Quiver in-process on a free port over a temporary folder,
 * and stops it at the end. Outside this repository, import from "quiver/client".
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Int32, Table, Utf8, vectorFromArray } from "apache-arrow";
import { startServer } from "../src/cli/runtime.js";
import { NamespaceError, connect } from "../src/client/index.js";

const given = process.argv[2];
const root = given ? undefined : mkdtempSync(path.join(os.tmpdir(), "quiver-rest-example-"));
const server = root ? await startServer({ root, host: "127.0.0.1", port: 0 }) : undefined;
const uri = given ?? (server as { url: string }).url;

const ns = await connect("rest", {
  uri,
  // Sent as the header `x-client-name` on every call.
  "headers.x-client-name": "rest-example",
});

try {
  // Context entries travel as `x-svc-ctx-<key>` headers.
  await ns.createNamespace({ id: ["lab"], mode: "ExistOk", context: { "request-origin": "example" } });
  await ns.createNamespace({ id: ["lab", "runs"], mode: "ExistOk" });
  const runs = new Table({
    run: vectorFromArray([1, 2], new Int32()),
    status: vectorFromArray(["ok", "failed"], new Utf8()),
  });
  const created = await ns.createTable({ namespace: ["lab", "runs"], name: "results", mode: "Overwrite" }, runs);
  console.log(`created lab$runs$results version ${created.version}`);

  // Rows: append two runs, mark the failed ones for retry, drop the first run.
  const results = ["lab", "runs", "results"];
  const more = new Table({
    run: vectorFromArray([3, 4], new Int32()),
    status: vectorFromArray(["ok", "failed"], new Utf8()),
  });
  console.log("inserted:", (await ns.insertIntoTable({ id: results }, more)).num_inserted_rows);
  console.log("updated:", (await ns.updateTable({ id: results, predicate: "status = 'failed'", updates: [["status", "'retry'"]] })).updated_rows);
  await ns.deleteFromTable({ id: results, predicate: "run = 1" });

  // The query answer is an Arrow IPC file on the wire and an apache-arrow Table here.
  const retries = await ns.queryTable({ id: results, filter: "status = 'retry'", columns: { column_names: ["run"] } });
  console.log("runs to retry:", retries.toArray().map((row) => row.run));
  console.log("rows:", await ns.countTableRows({ id: results }));
  console.log("versions:", (await ns.listTableVersions({ id: results })).versions.map((entry) => entry.version));

  const described = await ns.describeTable({ id: ["lab", "runs", "results"] });
  console.log(`described: version ${described.version}, location ${described.location}`);
  console.log("all tables:", (await ns.listAllTables()).tables);

  try {
    await ns.createNamespace({ id: ["lab"] });
  } catch (error) {
    if (!(error instanceof NamespaceError)) throw error;
    console.log(`creating lab again: ${error.name} (code ${error.code}, HTTP ${error.status}): ${error.message}`);
  }

  const dropped = await ns.dropTable({ namespace: ["lab", "runs"], name: "results" });
  console.log(`dropped ${dropped.id?.join("$")}`);
} finally {
  await ns.close();
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
}
