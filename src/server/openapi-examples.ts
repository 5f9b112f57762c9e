/**
 * @module Example bodies of the main operations for `/openapi.json` and the `/docs` page, keyed
 * by operationId. Each is a body the server accepts or answers; a test validates every one
 * against the operation's schema in the served document.
 */
type Example = { request?: unknown; response?: unknown };

export const openApiExamples: Readonly<Record<string, Example>> = {
  CreateNamespace: { request: { properties: { owner: "ana" } }, response: { properties: { owner: "ana" } } },
  ListNamespaces: { response: { namespaces: ["eu", "us"] } },
  DescribeNamespace: { request: {}, response: { properties: { owner: "ana" } } },
  ListTables: { response: { tables: ["orders", "customers"] } },
  DescribeTable: {
    request: { version: 3 },
    response: {
      table: "orders",
      namespace: ["sales"],
      version: 3,
      location: "/srv/quiver/databases/default/tables/0b6c9e0e-3a4f-4b8e-9d55-6a3c1f1b2a10.lance",
      schema: {
        fields: [
          { name: "id", type: { type: "int64" }, nullable: false },
          { name: "total", type: { type: "float64" }, nullable: true },
        ],
      },
      storage_options: {},
      stats: { num_deleted_rows: 0, num_fragments: 2 },
    },
  },
  DropTable: { request: {} },
  QueryTable: { request: { filter: "total > 10", columns: { column_names: ["id", "total"] }, k: 10 } },
  CountTableRows: { request: { predicate: "total > 10" }, response: 42 },
  UpdateTable: { request: { predicate: "id = 1", updates: [["total", "total * 2"]] } },
  DeleteFromTable: { request: { predicate: "total < 0" } },
  CreateTableIndex: { request: { column: "vector", index_type: "IVF_PQ", distance_type: "cosine", num_partitions: 16, num_sub_vectors: 8 } },
  CreateTableScalarIndex: { request: { column: "id", index_type: "BTREE" } },
  ListTableVersions: {
    response: { versions: [{ version: 1, manifest_path: "_versions/18446744073709551614.manifest", manifest_size: 712, timestamp_millis: 1767225600000, operation: "Append" }] },
  },
  CreateTableTag: { request: { tag: "golden", version: 1 } },
  CreateTableBranch: { request: { name: "experiment" } },
  RestoreTable: { request: { version: 1 } },
  CompactTable: {
    request: {},
    response: {
      version: 7,
      fragments_before: 6,
      fragments_after: 1,
      fragments_removed: 6,
      fragments_added: 1,
      files_removed: 6,
      files_added: 1,
      versions_removed: 0,
      bytes_removed: 0,
      removed_before_ms: 0,
      protected_tags: [],
    },
  },
  CleanupTableVersions: { request: { older_than_seconds: 604800 } },
  SetTableMaintenanceSchedule: { request: { interval_seconds: 86400, older_than_seconds: 604800 } },
};
