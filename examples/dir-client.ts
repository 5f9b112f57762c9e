/**
 * The `dir` namespace client: the catalog runs in-process over a local folder.
 *
 *   npm run build && node dist/examples/dir-client.js [folder]
 *
 * Without a folder argument it works in a fresh temporary folder and removes it at the end.
 * Outside this repository, import from "quiver/client" instead of the relative path.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Float32, Int32, Table, Utf8, vectorFromArray } from "apache-arrow";
import { NamespaceError, connect } from "../src/client/index.js";

const given = process.argv[2];
const root = given ?? mkdtempSync(path.join(os.tmpdir(), "quiver-dir-example-"));
const ns = await connect("dir", { root });

try {
  await ns.createNamespace({ id: ["shop"], mode: "ExistOk", properties: { owner: "example" } });
  const orders = new Table({
    order_id: vectorFromArray([1, 2, 3], new Int32()),
    amount: vectorFromArray([9.5, 12, 3.25], new Float32()),
    customer: vectorFromArray(["ada", "grace", "linus"], new Utf8()),
  });
  const created = await ns.createTable({ namespace: ["shop"], name: "orders", mode: "Overwrite" }, orders);
  console.log(`created shop$orders version ${created.version} at ${created.location}`);

  const table = await ns.openTable({ namespace: ["shop"], name: "orders" });
  const fields = (table.description.schema as { fields: { name: string }[] }).fields.map((field) => field.name);
  console.log(`opened ${table.id.join("$")}: version ${table.description.version}, columns ${fields.join(", ")}`);

  console.log("namespaces:", (await ns.listNamespaces()).namespaces);
  console.log("tables in shop:", (await ns.listTables({ id: ["shop"] })).tables);

  try {
    await ns.describeTable({ id: ["shop", "missing"] });
  } catch (error) {
    if (!(error instanceof NamespaceError)) throw error;
    console.log(`describing a missing table: ${error.name} (code ${error.code}, HTTP ${error.status})`);
  }

  await table.renameTable({ new_table_name: "orders_2024" });
  console.log("after rename:", (await ns.listAllTables()).tables);
} finally {
  await ns.close();
  if (!given) rmSync(root, { recursive: true, force: true });
}
