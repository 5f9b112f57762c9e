/**
 * The console's only way to the server: same-origin calls to Quiver's own HTTP API, carrying the
 * API key (`x-api-key`) and database (`x-svc-database`) the operator entered. Both live in
 * sessionStorage, so they vanish with the tab and never reach a URL or the server's log.
 */

const KEY_STORAGE = "quiver.console.apiKey";
const DATABASE_STORAGE = "quiver.console.database";
/** Namespace ids travel joined with the spec's default delimiter; `$` alone is the root. */
const DELIMITER = "$";

/** Names of the spec's error codes (spec/errors.md §2), for messages. */
export const ERROR_NAMES = [
  "Unsupported", "NamespaceNotFound", "NamespaceAlreadyExists", "NamespaceNotEmpty", "TableNotFound",
  "TableAlreadyExists", "TableIndexNotFound", "TableIndexAlreadyExists", "TableTagNotFound",
  "TableTagAlreadyExists", "TransactionNotFound", "TableVersionNotFound", "TableColumnNotFound",
  "InvalidInput", "ConcurrentModification", "PermissionDenied", "Unauthenticated", "ServiceUnavailable",
  "Internal", "InvalidTableState", "TableSchemaValidationError", "Throttling", "TableBranchNotFound",
  "TableBranchAlreadyExists",
];

export const connection = {
  get apiKey() {
    return sessionStorage.getItem(KEY_STORAGE) ?? "";
  },
  get database() {
    return sessionStorage.getItem(DATABASE_STORAGE) ?? "";
  },
  save(apiKey, database) {
    for (const [name, value] of [[KEY_STORAGE, apiKey.trim()], [DATABASE_STORAGE, database.trim()]]) {
      if (value) sessionStorage.setItem(name, value);
      else sessionStorage.removeItem(name);
    }
  },
};

/** A refused call: the ErrorResponse's `code` and `error` when the server sent one. */
export class ApiError extends Error {
  constructor(status, code, error, detail) {
    super(error);
    this.status = status;
    this.code = code;
    this.detail = detail;
  }

  get codeName() {
    return this.code === null ? null : (ERROR_NAMES[this.code] ?? "Unknown");
  }
}

/** The path form of an id: parts joined by the delimiter, percent-encoded. */
export function pathId(parts) {
  return encodeURIComponent(parts.length === 0 ? DELIMITER : parts.join(DELIMITER));
}

function queryString(query) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== "") params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * Calls `method path`; `body` (when given) is sent as JSON, `bytes` as an Arrow IPC stream,
 * `headers` besides the connection's. Answers parsed JSON, the raw bytes when `as` is "bytes", or
 * the Response itself when "response". Throws ApiError for any non-2xx answer or network failure.
 */
export async function call(method, path, { body, bytes, query, headers: extra, as = "json" } = {}) {
  const headers = { ...extra };
  if (connection.apiKey) headers["x-api-key"] = connection.apiKey;
  if (connection.database) headers["x-svc-database"] = connection.database;
  if (body !== undefined) headers["content-type"] = "application/json";
  if (bytes !== undefined) headers["content-type"] = "application/vnd.apache.arrow.stream";
  let response;
  try {
    response = await fetch(path + queryString(query), {
      method,
      headers,
      body: bytes ?? (body === undefined ? undefined : JSON.stringify(body)),
      credentials: "omit",
    });
  } catch (error) {
    throw new ApiError(0, null, `the server did not answer (${error.message})`);
  }
  if (!response.ok) {
    const error = await errorOf(response);
    // The page offers the connection settings when the server asks for credentials.
    if (response.status === 401) window.dispatchEvent(new CustomEvent("quiver:unauthenticated"));
    throw error;
  }
  if (as === "response") return response;
  if (as === "bytes") return new Uint8Array(await response.arrayBuffer());
  const text = await response.text();
  return text === "" ? undefined : JSON.parse(text);
}

async function errorOf(response) {
  const text = await response.text();
  try {
    const body = JSON.parse(text);
    if (typeof body?.code === "number") return new ApiError(response.status, body.code, body.error ?? "", body.detail);
  } catch {
    // not an ErrorResponse (a proxy's page, say): report the status and the start of the text
  }
  return new ApiError(response.status, null, `HTTP ${response.status} ${response.statusText}: ${text.slice(0, 200)}`);
}

/** A table's path on the server, under which its operations lie. */
export const tablePath = (parts) => `/v1/table/${pathId(parts)}`;
const table = (parts, operation) => `${tablePath(parts)}/${operation}`;
const database = (name, rest = "") => `/v1/admin/databases/${encodeURIComponent(name)}${rest}`;

/**
 * The operations the console uses, by their spec names (Quiver's own for jobs and admin).
 * `at` is where a read looks: `{ version, branch }`, either absent for the latest of main.
 */
export const api = {
  health: () => call("GET", "/health"),
  capabilities: () => call("GET", "/v1/capabilities"),
  /** The newest `tail` change events the connection may read, in commit order (ListChangeEvents with `tail`). */
  newestChangeEvents: (tail) => call("GET", "/v1/events", { query: { tail } }),
  listNamespaces: (parts, pageToken) => call("GET", `/v1/namespace/${pathId(parts)}/list`, { query: { page_token: pageToken, limit: 100 } }),
  listTables: (parts, pageToken) => call("GET", `/v1/namespace/${pathId(parts)}/table/list`, { query: { page_token: pageToken, limit: 100 } }),
  listAllTables: (pageToken) => call("GET", "/v1/table", { query: { page_token: pageToken, limit: 100 } }),
  describeNamespace: (parts) => call("POST", `/v1/namespace/${pathId(parts)}/describe`, { body: {} }),
  createNamespace: (parts, properties) => call("POST", `/v1/namespace/${pathId(parts)}/create`, { body: { mode: "Create", properties } }),
  dropNamespace: (parts) => call("POST", `/v1/namespace/${pathId(parts)}/drop`, { body: { mode: "Fail", behavior: "Restrict" } }),

  describeTable: (parts, at = {}) => call("POST", table(parts, "describe"), { body: { ...at }, query: { load_detailed_metadata: true, check_declared: true } }),
  getTableStats: (parts) => call("POST", table(parts, "stats"), { body: {} }),
  createTable: (parts, stream) => call("POST", table(parts, "create"), { bytes: stream, query: { mode: "Create" } }),
  insertIntoTable: (parts, stream) => call("POST", table(parts, "insert"), { bytes: stream, query: { mode: "Append" } }),
  deleteFromTable: (parts, predicate) => call("POST", table(parts, "delete"), { body: { predicate } }),
  renameTable: (parts, newName) => call("POST", table(parts, "rename"), { body: { new_table_name: newName } }),
  dropTable: (parts) => call("POST", table(parts, "drop"), { body: {} }),
  listTablesNeedingMaintenance: (parts, pageToken) => call("GET", `/v1/namespace/${pathId(parts)}/tables_needing_maintenance`, { query: { page_token: pageToken, limit: 20 } }),
  listDroppedTables: (parts, pageToken) => call("GET", `/v1/namespace/${pathId(parts)}/dropped_tables`, { query: { page_token: pageToken, limit: 100 } }),
  undropTable: (parts, droppedId) => call("POST", table(parts, "undrop"), { body: { dropped_id: droppedId } }),
  restoreTable: (parts, version) => call("POST", table(parts, "restore"), { body: { version } }),
  countTableRows: (parts, at = {}, predicate) => call("POST", table(parts, "count_rows"), { body: { ...at, predicate: predicate || undefined } }),
  queryTable: (parts, request) => call("POST", table(parts, "query"), { body: request, as: "bytes" }),
  explainTableQueryPlan: (parts, request) => call("POST", table(parts, "explain_plan"), { body: { query: request, verbose: true } }),
  analyzeTableQueryPlan: (parts, request) => call("POST", table(parts, "analyze_plan"), { body: request }),
  /** One blob's bytes (GetTableBlobBytes) as the Response, `range` (e.g. `bytes=0-15`) when given: 206 a range, 204 a null blob. */
  getTableBlobBytes: (parts, column, rowId, at = {}, range) =>
    call("GET", table(parts, `blob/${encodeURIComponent(column)}/${rowId}/bytes`), { query: { version: at.version, branch: at.branch }, headers: range ? { range } : undefined, as: "response" }),

  listTableVersions: (parts, pageToken, limit = 50) => call("POST", table(parts, "version/list"), { query: { descending: true, limit, page_token: pageToken } }),
  listTableTags: (parts, pageToken) => call("POST", table(parts, "tags/list"), { query: { limit: 100, page_token: pageToken } }),
  createTableTag: (parts, tag, version) => call("POST", table(parts, "tags/create"), { body: { tag, version } }),
  deleteTableTag: (parts, tag) => call("POST", table(parts, "tags/delete"), { body: { tag } }),
  listTableBranches: (parts, pageToken) => call("POST", table(parts, "branches/list"), { query: { limit: 100, page_token: pageToken } }),
  createTableBranch: (parts, name, fromVersion) => call("POST", table(parts, "branches/create"), { body: { name, from_version: fromVersion } }),
  deleteTableBranch: (parts, name) => call("POST", table(parts, "branches/delete"), { body: { name } }),

  listTableIndices: (parts, pageToken) => call("POST", table(parts, "index/list"), { body: { limit: 100, page_token: pageToken } }),
  /** Asks for a job (`wait: false`), so the build's progress can be watched. */
  createTableIndex: (parts, request) => call("POST", table(parts, "create_index"), { body: { ...request, wait: false } }),
  dropTableIndex: (parts, name) => call("POST", table(parts, `index/${encodeURIComponent(name)}/drop`), { query: { wait: false } }),
  refreshMaterializedView: (parts) => call("POST", `/v1/materialized_view/${pathId(parts)}/refresh`, { body: {} }),
  compactTable: (parts) => call("POST", table(parts, "compact"), { body: {} }),
  cleanupTableVersions: (parts, olderThanSeconds) => call("POST", table(parts, "cleanup"), { body: { older_than_seconds: olderThanSeconds } }),
  optimizeTableIndices: (parts) => call("POST", table(parts, "optimize_indices"), { body: {} }),

  listJobs: (pageToken) => call("POST", "/v1/jobs/list", { body: { limit: 20, page_token: pageToken } }),
  getJob: (jobId) => call("GET", `/v1/jobs/${encodeURIComponent(jobId)}`),
  cancelJob: (jobId) => call("POST", "/v1/jobs/cancel", { body: { job_id: jobId } }),

  /** LanceDB's authorization API: deployment-wide, so the database header plays no part. */
  listAcls: (object, continuationToken) => call("POST", "/admin/authz/acl/list", { body: { object, continuation_token: continuationToken, max_results: 100 } }),
  addAcl: (subject, object, privilege) => call("POST", "/admin/authz/acl/add", { body: { subject, object, privilege } }),
  deleteAcl: (subject, object, privilege) => call("POST", "/admin/authz/acl/delete", { body: { subject, object, privilege } }),

  listDatabases: () => call("GET", "/v1/admin/databases"),
  createDatabase: (name) => call("POST", "/v1/admin/databases", { body: { name } }),
  dropDatabase: (name, cascade) => call("POST", database(name, "/drop"), { query: { cascade } }),
  listApiKeys: (name) => call("GET", database(name, "/api-keys")),
  createApiKey: (name, role, description) => call("POST", database(name, "/api-keys"), { body: { role, description } }),
  listAudit: (name, pageToken) => call("GET", database(name, "/audit"), { query: { page_token: pageToken, limit: 200 } }),
  revokeApiKey: (name, keyId) => call("POST", database(name, `/api-keys/${encodeURIComponent(keyId)}/revoke`)),
};
