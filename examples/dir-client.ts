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
import { Field, FixedSizeList, Float32, Int32, Table, Utf8, vectorFromArray } from "apache-arrow";
import { NamespaceError, connect } from "../src/client/index.js";

const given = process.argv[2];
const root = given ?? mkdtempSync(path.join(os.tmpdir(), "quiver-dir-example-"));
const ns = await connect("dir", { root });

try {
  await ns.createNamespace({ id: ["shop"], mode: "ExistOk", properties: { owner: "example" } });
  // A 2-dimensional embedding per order, for the vector search below.
  const embedding = new FixedSizeList(2, new Field("item", new Float32(), true));
  const ordersOf = (rows: { id: number; amount: number; customer: string; at: [number, number] }[]) =>
    new Table({
      order_id: vectorFromArray(rows.map((row) => row.id), new Int32()),
      amount: vectorFromArray(rows.map((row) => row.amount), new Float32()),
      customer: vectorFromArray(rows.map((row) => row.customer), new Utf8()),
      embedding: vectorFromArray(rows.map((row) => row.at), embedding),
    });
  const orders = ordersOf([
    { id: 1, amount: 9.5, customer: "ada", at: [0, 0] },
    { id: 2, amount: 12, customer: "grace", at: [1, 0] },
    { id: 3, amount: 3.25, customer: "linus", at: [0, 1] },
  ]);
  const created = await ns.createTable({ namespace: ["shop"], name: "orders", mode: "Overwrite" }, orders);
  console.log(`created shop$orders version ${created.version} at ${created.location}`);

  const table = await ns.openTable({ namespace: ["shop"], name: "orders" });
  const fields = (table.description.schema as { fields: { name: string }[] }).fields.map((field) => field.name);
  console.log(`opened ${table.id.join("$")}: version ${table.description.version}, columns ${fields.join(", ")}`);

  // Rows: an append, then an upsert keyed on order_id (order 3 changes, order 5 is new).
  const appended = await table.insertIntoTable({}, ordersOf([{ id: 4, amount: 20, customer: "ada", at: [1, 1] }]));
  console.log(`inserted ${appended.num_inserted_rows} row, now version ${appended.version}`);
  const merged = await table.mergeInsertIntoTable(
    { on: "order_id", when_matched_update_all: true, when_not_matched_insert_all: true },
    ordersOf([
      { id: 3, amount: 4.75, customer: "linus", at: [0, 1] },
      { id: 5, amount: 7, customer: "grace", at: [0.9, 0.1] },
    ]),
  );
  console.log(`merged: ${merged.num_updated_rows} updated, ${merged.num_inserted_rows} inserted`);

  // Queries answer apache-arrow Tables.
  const big = await table.queryTable({ filter: "amount > 5", columns: { column_names: ["order_id", "customer", "amount"] } });
  console.log("orders over 5:", big.toArray().map((row) => `${row.order_id} ${row.customer} ${row.amount}`));
  const near = await table.queryTable({ vector: { single_vector: [1, 0] }, vector_column: "embedding", k: 2 });
  console.log("nearest to [1, 0]:", near.toArray().map((row) => row.order_id));
  console.log("orders of ada:", await table.countTableRows({ predicate: "customer = 'ada'" }));

  await table.createTableTag({ tag: "reviewed", version: merged.version as number });
  console.log("tags:", Object.keys((await table.listTableTags()).tags));

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
