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
 * Calls `method path`; `body` (when given) is sent as JSON. Answers parsed JSON, or the raw
 * bytes when `as` is "bytes". Throws ApiError for any non-2xx answer or network failure.
 */
export async function call(method, path, { body, query, as = "json" } = {}) {
  const headers = {};
  if (connection.apiKey) headers["x-api-key"] = connection.apiKey;
  if (connection.database) headers["x-svc-database"] = connection.database;
  if (body !== undefined) headers["content-type"] = "application/json";
  let response;
  try {
    response = await fetch(path + queryString(query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
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

/** The spec operations the console uses, by their spec names. */
export const api = {
  health: () => call("GET", "/health"),
  listNamespaces: (parts, pageToken) => call("GET", `/v1/namespace/${pathId(parts)}/list`, { query: { page_token: pageToken, limit: 100 } }),
  listTables: (parts, pageToken) => call("GET", `/v1/namespace/${pathId(parts)}/table/list`, { query: { page_token: pageToken, limit: 100 } }),
  describeNamespace: (parts) => call("POST", `/v1/namespace/${pathId(parts)}/describe`, { body: {} }),
  createNamespace: (parts, properties) => call("POST", `/v1/namespace/${pathId(parts)}/create`, { body: { mode: "Create", properties } }),
  dropNamespace: (parts) => call("POST", `/v1/namespace/${pathId(parts)}/drop`, { body: { mode: "Fail", behavior: "Restrict" } }),
  describeTable: (parts) => call("POST", `/v1/table/${pathId(parts)}/describe`, { body: {}, query: { load_detailed_metadata: true, check_declared: true } }),
  getTableStats: (parts) => call("POST", `/v1/table/${pathId(parts)}/stats`, { body: {} }),
  listTableVersions: (parts, pageToken) => call("POST", `/v1/table/${pathId(parts)}/version/list`, { query: { descending: true, limit: 50, page_token: pageToken } }),
  listTableTags: (parts, pageToken) => call("POST", `/v1/table/${pathId(parts)}/tags/list`, { query: { limit: 100, page_token: pageToken } }),
  listTableBranches: (parts, pageToken) => call("POST", `/v1/table/${pathId(parts)}/branches/list`, { query: { limit: 100, page_token: pageToken } }),
  listTableIndices: (parts, pageToken) => call("POST", `/v1/table/${pathId(parts)}/index/list`, { body: { limit: 100, page_token: pageToken } }),
  countTableRows: (parts) => call("POST", `/v1/table/${pathId(parts)}/count_rows`, { body: {} }),
  queryTable: (parts, k) => call("POST", `/v1/table/${pathId(parts)}/query`, { body: { k, vector: null }, as: "bytes" }),
  listJobs: (pageToken) => call("POST", "/v1/jobs/list", { body: { limit: 20, page_token: pageToken } }),
  getJob: (jobId) => call("GET", `/v1/jobs/${encodeURIComponent(jobId)}`),
};
