/**
 * Compile-time checks of the `Namespace` method types derived from the operation table: the
 * build fails if a line marked `@ts-expect-error` stops being an error. Nothing here runs.
 */
import type { Table } from "apache-arrow";
import type { Namespace } from "../../src/client/index.js";

export async function methodTypes(ns: Namespace, data: Table): Promise<void> {
  // Namespace operations default to the root; list options are typed.
  await ns.listNamespaces();
  await ns.listTables({ id: ["a"], limit: 10, include_declared: false });
  // @ts-expect-error limit is an integer, not a string
  await ns.listNamespaces({ limit: "10" });

  // Table operations need an identifier; the service description's four also take { namespace, name }.
  await ns.describeTable({ id: ["a", "t"], version: 1 });
  // @ts-expect-error DescribeTable takes no namespace input
  await ns.describeTable({ namespace: ["a"], name: "t" });
  // @ts-expect-error a table operation without an identifier
  await ns.tableExists({});
  await ns.dropTable({ namespace: ["a"], name: "t" });
  await ns.renameTable({ name: "t", new_table_name: "u" });
  // @ts-expect-error RenameTable requires new_table_name
  await ns.renameTable({ id: ["t"] });

  // CreateTable takes Arrow data; its answer is the spec model.
  const created = await ns.createTable({ namespace: ["a"], name: "t", mode: "ExistOk" }, data);
  const version: number | undefined = created.version;
  // @ts-expect-error CreateTable without data
  await ns.createTable({ id: ["t"] });

  // Exists operations resolve with nothing; an opened table binds the identifier.
  // Rows take Arrow data; a query answers an apache-arrow Table, count a number, a plan a string.
  await ns.insertIntoTable({ id: ["t"], mode: "Overwrite" }, data);
  // @ts-expect-error InsertIntoTable without data
  await ns.insertIntoTable({ id: ["t"] });
  await ns.mergeInsertIntoTable({ id: ["t"], on: ["id"], when_matched_update_all: true }, data.batches);
  const rows: Table = await ns.queryTable({ id: ["t"], filter: "id > 1", k: 5 });
  const count: number = await ns.countTableRows({ id: ["t"] });
  const plan: string = await ns.explainTableQueryPlan({ id: ["t"], query: { filter: "id > 1" } });
  // @ts-expect-error UpdateTable requires updates
  await ns.updateTable({ id: ["t"] });

  // Path-carried names are required fields of the request.
  await ns.dropTableIndex({ id: ["t"], index_name: "id_idx" });
  // @ts-expect-error DropTableIndex without index_name
  await ns.dropTableIndex({ id: ["t"] });
  const status: string = (await ns.describeTransaction({ transaction_id: "x" })).status;
  // @ts-expect-error DescribeTransaction without transaction_id
  await ns.describeTransaction({});
  const metadata: Record<string, string> = await ns.updateTableSchemaMetadata({ id: ["t"], metadata: { a: "b" } });
  void [rows, count, plan, status, metadata];

  const nothing: void = await ns.namespaceExists({ id: ["a"] });
  const table = await ns.openTable({ namespace: ["a"], name: "t" });
  await table.describeTable({ load_detailed_metadata: true });
  const tags = (await table.listTableTags()).tags;
  await table.createTableTag({ tag: "v1", version: 1 });
  // @ts-expect-error an opened table has no transaction operations
  await table.describeTransaction({ transaction_id: "x" });
  void tags;
  void [version, nothing];
}
