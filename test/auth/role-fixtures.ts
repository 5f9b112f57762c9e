/**
 * One fixture per documented operation for the role matrix: it prepares the state the call
 * needs and returns a request that succeeds. Fixtures of calls that consume their object
 * (drops, renames, revocations, deletes…) make a fresh one each time they are asked, so every
 * allowed credential's call really succeeds; the others share objects made once.
 */
import { Field, FixedSizeList, Float32, Float64, Int32, LargeBinary, RecordBatch, RecordBatchStreamWriter, Schema, Struct, Utf8, makeData, vectorFromArray } from "apache-arrow-21";
import { createApiKey, createOAuthClient } from "../../src/auth/credentials.js";
import type { Role } from "../../src/auth/roles.js";
import { arrowStream } from "../helpers/arrow.js";
import type { TestServer } from "../helpers/test-server.js";
import { TableData, schemaBase64 } from "../helpers/views.js";
import { stageVersion } from "../versions/fixtures.js";
import { addDatabase } from "./auth-helpers.js";

export interface Operation {
  operationId: string;
  method: string;
  /** The documented template, e.g. `/v1/table/{id}/describe`. */
  path: string;
  access: Role;
  arrow: boolean;
  /** The 2xx status the document gives for success. */
  success: number;
}

/** A concrete request: values for the template's parameters, a query string, and a JSON or Arrow body. */
export interface Call {
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
}

type Fixture = (env: FixtureEnv, op: Operation) => Promise<Call>;

/** Operations that refuse every request by design; the matrix expects exactly this answer from allowed roles. */
export const unsupportedOperations = new Map<string, { status: number; code: number; reason: string }>([
  ["DiffTableBranch", { status: 406, code: 0, reason: "open-source Lance has no branch diff (Enterprise only)" }],
  ["CherryPickTableBranch", { status: 406, code: 0, reason: "open-source Lance has no cherry-pick (Enterprise only)" }],
  ["PrewarmTablePageCache", { status: 406, code: 0, reason: "the engine prewarms data pages only for remote tables" }],
]);

const dim = 4;
const vectorType = new FixedSizeList(dim, new Field("item", new Float32(), true));
const probe = [0.5, 0.25, 0.125, 1];

/** Rows `{ id, score, vector }` as the Arrow IPC stream a client uploads. */
function rows(ids: number[]): Uint8Array {
  return arrowStream({
    id: Int32Array.from(ids),
    score: Float64Array.from(ids, (id) => id / 2),
    vector: vectorFromArray(ids.map((id) => Array.from({ length: dim }, (_, j) => Math.sin(id * dim + j))), vectorType),
  });
}

/** One row `{ id, payload }` whose payload is a blob v2 column holding three bytes. */
function blobRow(): Uint8Array {
  const blobType = new Struct([new Field("data", new LargeBinary(), true), new Field("uri", new Utf8(), true)]);
  const blobField = new Field("payload", blobType, true, new Map([["ARROW:extension:name", "lance.blob.v2"]]));
  const schema = new Schema([new Field("id", new Int32()), blobField]);
  const id = vectorFromArray([1], new Int32());
  const payload = vectorFromArray([{ data: Uint8Array.of(1, 2, 3), uri: null }], blobType);
  const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: 1, children: [id.data[0]!, payload.data[0]!] }));
  return RecordBatchStreamWriter.writeAll([batch]).toUint8Array(true);
}

const viewSchema = new Schema([new Field("id", new Int32()), new Field("double_score", new Float64())]);

/** Prepares state as a database admin (over HTTP) or straight in the store for deployment-wide objects. */
export class FixtureEnv {
  private count = 0;
  private readonly cache = new Map<string, Promise<unknown>>();
  readonly data = new TableData();

  constructor(
    readonly server: TestServer,
    private readonly key: string,
  ) {}

  name(prefix: string): string {
    this.count += 1;
    return `${prefix}_${this.count}`;
  }

  /** Sends a setup request and returns its JSON answer; any non-2xx fails the test at once. */
  async send(method: string, route: string, body?: unknown): Promise<any> {
    const headers: Record<string, string> = { "x-api-key": this.key };
    let payload: Uint8Array | string | undefined;
    if (body instanceof Uint8Array) {
      headers["content-type"] = "application/vnd.apache.arrow.stream";
      payload = body;
    } else if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const response = await fetch(this.server.url + route, { method, headers, body: payload });
    const text = await response.text();
    if (response.status < 200 || response.status > 299) throw new Error(`setup ${method} ${route} → ${response.status}: ${text}`);
    return text === "" ? undefined : JSON.parse(text);
  }

  /** Made once, shared by every call that only reads it or adds to it under fresh names. */
  once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.cache.has(key)) this.cache.set(key, make());
    return this.cache.get(key) as Promise<T>;
  }

  /** A new table: three rows at version 1, one more row in each later version. */
  async table(versions = 1, prefix = "t"): Promise<{ name: string; location: string }> {
    const name = this.name(prefix);
    const { location } = await this.send("POST", `/v1/table/${name}/create`, rows([1, 2, 3]));
    for (let v = 2; v <= versions; v += 1) await this.send("POST", `/v1/table/${name}/insert`, rows([v + 2]));
    return { name, location };
  }

  /** A table with one row (row id 0) whose `payload` is a blob column. */
  blobTable(): Promise<string> {
    return this.once("blobs", async () => {
      const name = this.name("blobs");
      await this.send("POST", `/v1/table/${name}/create`, blobRow());
      return name;
    });
  }

  /** A table of the operation's own, for calls that change it in ways later calls do not mind. */
  scratch(op: Operation, versions = 1): Promise<{ name: string; location: string }> {
    return this.once(`scratch ${op.operationId}`, () => this.table(versions, "scratch"));
  }

  /** A table with two versions, an index, a tag, a branch, a transaction, and a view over it with a job. */
  shared(): Promise<{ name: string; location: string; transaction: string; view: string; job: string }> {
    return this.once("shared", async () => {
      const { name, location } = await this.table(1, "shared");
      const { transaction_id: transaction } = await this.send("POST", `/v1/table/${name}/insert`, rows([4]));
      await this.send("POST", `/v1/table/${name}/create_index`, { column: "id", index_type: "BTREE", name: "id_idx" });
      await this.send("POST", `/v1/table/${name}/tags/create`, { tag: "first", version: 1 });
      await this.send("POST", `/v1/table/${name}/branches/create`, { name: "dev" });
      const view = await this.view(name);
      const { job_id: job } = await this.send("POST", `/v1/materialized_view/${view}/refresh`, {});
      return { name, location, transaction, view, job };
    });
  }

  /** A declared table (no data yet), for versions staged the way a managed-versioning writer stages them. */
  async declared(): Promise<{ name: string; location: string }> {
    const name = this.name("declared");
    return { name, location: (await this.send("POST", `/v1/table/${name}/declare`, {})).location };
  }

  async namespace(): Promise<string> {
    const name = this.name("ns");
    await this.send("POST", `/v1/namespace/${name}/create`, {});
    return name;
  }

  /** Body of a query view over `source`. */
  viewDefinition(source: string): Record<string, unknown> {
    const query = { source: [source], projections: [["id", "id"], ["double_score", "score * 2"]], filter: "score > 0" };
    return { kind: "query", source_query: JSON.stringify(query), output_schema: schemaBase64(viewSchema) };
  }

  async view(source: string): Promise<string> {
    const name = this.name("view");
    await this.send("POST", `/v1/materialized_view/${name}/create`, this.viewDefinition(source));
    return name;
  }

  close(): void {
    this.data.close();
  }
}

const table = async (env: FixtureEnv, body?: unknown, query?: string): Promise<Call> => ({ params: { id: (await env.shared()).name }, body, query });
const scratch = async (env: FixtureEnv, op: Operation, body?: unknown, query?: string): Promise<Call> => ({ params: { id: (await env.scratch(op)).name }, body, query });
const fresh = async (env: FixtureEnv, body?: unknown, versions = 1): Promise<Call> => ({ params: { id: (await env.table(versions)).name }, body });
const queryBody = { k: 2, vector: probe, vector_column: "vector" };
/** A fresh multipart write on the operation's scratch table, with one staged part when `staged`. */
const upload = async (env: FixtureEnv, op: Operation, staged: boolean): Promise<Call> => {
  const { name } = await env.scratch(op);
  const { upload_id: id } = await env.send("POST", `/v1/table/${name}/multipart_write/create`);
  if (staged) await env.send("POST", `/v1/table/${name}/insert?upload_id=${id}&upload_part_id=${env.name("part")}`, rows([20, 21]));
  return { params: { id: name }, query: `upload_id=${id}` };
};

export const fixtures: Record<string, Fixture> = {
  // Namespaces and tables.
  CreateNamespace: async (env) => ({ params: { id: env.name("ns") }, body: {} }),
  ListNamespaces: async () => ({ params: { id: "$" } }),
  DescribeNamespace: async (env) => ({ params: { id: await env.once("namespace", () => env.namespace()) }, body: {} }),
  NamespaceExists: async (env) => ({ params: { id: await env.once("namespace", () => env.namespace()) }, body: {} }),
  DropNamespace: async (env) => ({ params: { id: await env.namespace() }, body: {} }),
  ListTables: async (env) => ({ params: { id: await env.once("namespace", () => env.namespace()) } }),
  ListAllTables: async () => ({}),
  ListTablesExtended: async () => ({}),
  RegisterTable: async (env) => {
    const { name } = await env.table();
    const { location } = await env.send("POST", `/v1/table/${name}/deregister`, {});
    return { params: { id: env.name("registered") }, body: { location } };
  },
  CloneTable: async (env) => ({ params: { id: env.name("clone") }, body: { source_location: (await env.shared()).location, is_shallow: true } }),
  DescribeTable: (env) => table(env, {}),
  TableExists: (env) => table(env, {}),
  DropTable: (env) => fresh(env),
  DeregisterTable: (env) => fresh(env, {}),
  ListDroppedTables: async () => ({ params: { id: "$" } }),
  ListTablesNeedingMaintenance: async () => ({ params: { id: "$" } }),
  ListChangeEvents: async () => ({}),
  UndropTable: async (env) => {
    const { name } = await env.table();
    await env.send("POST", `/v1/table/${name}/drop`);
    return { params: { id: name }, body: {} };
  },
  RestoreTable: (env) => fresh(env, { version: 1 }, 2),
  RenameTable: async (env) => ({ ...(await fresh(env)), body: { new_table_name: env.name("renamed") } }),
  DeclareTable: async (env) => ({ params: { id: env.name("declared") }, body: {} }),
  CreateTable: async (env) => ({ params: { id: env.name("created") }, body: rows([1, 2]) }),
  CreateTableExtended: async (env) => ({ params: { table_name: env.name("created") }, body: rows([1, 2]) }),

  // Admin API: the matrix's credentials belong to database `default`.
  ListDatabases: async () => ({}),
  CreateDatabase: async (env) => ({ body: { name: env.name("db") } }),
  UpdateDatabaseSettings: async (env) => {
    const database = env.name("db");
    await addDatabase(env.server, database);
    return { params: { database }, body: { read_consistency_interval_ms: 1000 } };
  },
  DropDatabase: async (env) => {
    const database = env.name("db");
    await addDatabase(env.server, database);
    return { params: { database } };
  },
  ListApiKeys: async () => ({ params: { database: "default" } }),
  CreateApiKey: async () => ({ params: { database: "default" }, body: { role: "read" } }),
  RevokeApiKey: async (env) => ({ params: { database: "default", key_id: (await createApiKey(env.server.runtime.authStore, { database: "default", role: "read" })).id } }),
  ListDeploymentApiKeys: async () => ({}),
  CreateDeploymentApiKey: async () => ({ body: { role: "read" } }),
  RevokeDeploymentApiKey: async (env) => ({ params: { key_id: (await createApiKey(env.server.runtime.authStore, { database: null, role: "read" })).id } }),
  ListOAuthClients: async () => ({ params: { database: "default" } }),
  CreateOAuthClient: async () => ({ params: { database: "default" }, body: { role: "read" } }),
  RevokeOAuthClient: async (env) => ({ params: { database: "default", client_id: (await createOAuthClient(env.server.runtime.authStore, { database: "default", role: "read" })).client_id } }),
  ListAuditRecords: async () => ({ params: { database: "default" }, query: "limit=5" }),

  // Authorization API: grants on database `default` need its ownership (its admins); role
  // bindings and identity lookups are deployment-wide.
  ListAcls: async () => ({ body: { object: "database:default" } }),
  AddAcl: async (env) => ({ body: { subject: `p:external-token:${env.name("someone")}`, object: "database:default", privilege: "USAGE" } }),
  DeleteAcl: async (env) => {
    const grant = { subject: `p:external-token:${env.name("someone")}`, object: "database:default", privilege: "USAGE" };
    await env.server.runtime.authStore.addGrant(grant, false, { by: "test", database: "default" });
    return { body: grant };
  },
  ListRoleBindings: async () => ({ body: {} }),
  AddRoleBinding: async (env) => ({ body: { subject: "g:analysts", role: env.name("role") } }),
  DeleteRoleBinding: async (env) => ({ body: { subject: "g:analysts", role: env.name("role") } }),
  GetPrincipal: async () => ({ body: { principal: "p:external-token:someone" } }),
  GetGroup: async () => ({ body: { group: "g:analysts" } }),
  ListDeploymentAuditRecords: async () => ({ query: "limit=5" }),

  // Rows and queries.
  InsertIntoTable: (env, op) => scratch(env, op, rows([10, 11])),
  CreateMultipartWrite: (env, op) => scratch(env, op),
  CompleteMultipartWrite: (env, op) => upload(env, op, true),
  AbortMultipartWrite: (env, op) => upload(env, op, true),
  MergeInsertIntoTable: (env, op) => scratch(env, op, rows([3, 12]), "on=id&when_matched_update_all=true&when_not_matched_insert_all=true"),
  UpdateTable: (env, op) => scratch(env, op, { predicate: "id = 1", updates: [["score", "score + 1"]] }),
  DeleteFromTable: (env) => fresh(env, { predicate: "id = 1" }),
  QueryTable: (env) => table(env, queryBody),
  CountTableRows: (env, op) => table(env, op.method === "GET" ? undefined : { predicate: "id > 1" }),
  ExplainTableQueryPlan: (env) => table(env, { query: queryBody }),
  AnalyzeTableQueryPlan: (env) => table(env, queryBody),
  GetTableStats: (env, op) => table(env, op.method === "GET" ? undefined : {}),
  FetchTableBlobs: async (env) => ({ params: { id: await env.blobTable() }, body: { column: "payload", row_ids: [0] } }),
  GetTableBlobBytes: async (env) => ({ params: { id: await env.blobTable(), column: "payload", row_id: "0" } }),
  GetTableLsmWriteSpec: (env) => table(env, {}),
  GetTableLsmStats: (env) => table(env, {}),

  // Schema.
  AlterTableAddColumns: (env, op) => scratch(env, op, { new_columns: [{ name: env.name("col"), expression: "id * 2" }] }),
  AlterTableAlterColumns: (env) => fresh(env, { alterations: [{ path: "score", rename: "points" }] }),
  AlterTableDropColumns: (env) => fresh(env, { columns: ["score"] }),
  UpdateFieldMetadata: (env, op) => scratch(env, op, { updates: [{ path: "id", metadata: { [env.name("key")]: "v" } }] }),
  UpdateTableSchemaMetadata: (env, op) => scratch(env, op, { [env.name("key")]: "v" }),
  AlterTableBackfillColumns: async (env, op) => {
    const { name } = await env.once("backfill", async () => {
      const made = await env.scratch(op);
      await env.data.addComputedColumn(made.location, "twice", "id * 2");
      return made;
    });
    return { params: { id: name }, body: { column: "twice" } };
  },

  // Indexes.
  CreateTableIndex: (env, op) => scratch(env, op, { column: "id", index_type: "BTREE" }),
  // Maintenance: its own table, so compaction never changes what other fixtures read.
  CompactTable: (env, op) => scratch(env, op, {}),
  CleanupTableVersions: (env, op) => scratch(env, op, { older_than_seconds: 3600 }),
  OptimizeTableIndices: (env, op) => scratch(env, op, {}),
  SetTableMaintenanceSchedule: (env, op) => scratch(env, op, { interval_seconds: 86_400 }),
  DescribeTableMaintenanceSchedule: (env) => table(env, {}),
  CreateTableScalarIndex: (env, op) => scratch(env, op, { column: "id", index_type: "BITMAP" }),
  ListTableIndices: (env) => table(env, {}),
  DescribeTableIndexStats: async (env, op) => ({ params: { id: (await env.shared()).name, index_name: "id_idx" }, body: op.method === "GET" ? undefined : {} }),
  DropTableIndex: async (env) => {
    const { name } = await env.table();
    await env.send("POST", `/v1/table/${name}/create_index`, { column: "id", index_type: "BTREE", name: "doomed" });
    return { params: { id: name, index_name: "doomed" } };
  },
  PrewarmTableIndex: async (env) => ({ params: { id: (await env.shared()).name, index_name: "id_idx" } }),
  PrewarmTablePageCache: (env) => table(env, { columns: ["id"] }),

  // Versions and transactions.
  ListTableVersions: (env) => table(env),
  DescribeTableVersion: (env) => table(env, { version: 1 }),
  CreateTableVersion: async (env) => {
    const { name, location } = await env.declared();
    return { params: { id: name }, body: await stageVersion(location, [1, 2]) };
  },
  BatchCreateTableVersions: async (env) => {
    const { name, location } = await env.declared();
    return { body: { entries: [{ id: [name], ...(await stageVersion(location, [1])) }] } };
  },
  // Ranges are [start, end): this one removes version 1 and keeps the latest.
  BatchDeleteTableVersions: (env) => fresh(env, { ranges: [{ start_version: 1, end_version: 2 }] }, 2),
  BatchCommitTables: async (env) => ({ body: { operations: [{ declare_table: { id: [env.name("declared")] } }] } }),
  DescribeTransaction: async (env) => ({ params: { transaction_id: (await env.shared()).transaction }, body: {} }),
  AlterTransaction: async (env) => ({ params: { transaction_id: (await env.shared()).transaction }, body: { actions: [{ setPropertyAction: { key: env.name("key"), value: "v" } }] } }),

  // Tags and branches.
  ListTableTags: (env) => table(env),
  GetTableTagVersion: (env) => table(env, { tag: "first" }),
  CreateTableTag: (env, op) => scratch(env, op, { tag: env.name("tag"), version: 1 }),
  DeleteTableTag: async (env, op) => {
    const call = await scratch(env, op, { tag: env.name("tag") });
    await env.send("POST", `/v1/table/${call.params!.id}/tags/create`, { ...(call.body as object), version: 1 });
    return call;
  },
  UpdateTableTag: async (env, op) => {
    const { name } = await env.scratch(op, 2);
    const tag = env.name("tag");
    await env.send("POST", `/v1/table/${name}/tags/create`, { tag, version: 1 });
    return { params: { id: name }, body: { tag, version: 2 } };
  },
  ListTableBranches: (env) => table(env),
  CreateTableBranch: (env, op) => scratch(env, op, { name: env.name("branch") }),
  DeleteTableBranch: async (env, op) => {
    const call = await scratch(env, op, { name: env.name("branch") });
    await env.send("POST", `/v1/table/${call.params!.id}/branches/create`, call.body);
    return call;
  },
  DiffTableBranch: (env) => table(env, { from_branch: "dev" }),
  CherryPickTableBranch: (env) => table(env, { from_branch: "dev", dry_run: true }),

  // Materialized views and jobs (the worker is off: jobs stay queued).
  CreateMaterializedView: async (env) => ({ params: { id: env.name("view") }, body: env.viewDefinition((await env.shared()).name) }),
  RefreshMaterializedView: async (env) => ({ params: { id: (await env.shared()).view }, body: {} }),
  GetJob: async (env) => ({ params: { job_id: (await env.shared()).job } }),
  DescribeJob: async (env) => ({ body: { job_id: (await env.shared()).job } }),
  ListJobs: async () => ({ body: {} }),
  QueryJobEvents: async (env) => ({ body: { job_id: (await env.shared()).job } }),
  CancelJob: async (env) => {
    const { job_id } = await env.send("POST", `/v1/materialized_view/${(await env.shared()).view}/refresh`, {});
    return { body: { job_id } };
  },
};
