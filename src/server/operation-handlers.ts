/**
 * @module What a route does once its request is read: by default, call the `Catalog` method the
 * entry is keyed by with the catalog request (and the upload, for an Arrow body). The few
 * operations whose answer or call genuinely differs have their own handler here.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { Readable } from "node:stream";
import { Catalog } from "../catalog/catalog.js";
import type { OperationEntry, OperationName } from "../model/operations/index.js";
import { parseRange, resolveRange } from "./byte-ranges.js";
import { arrowBody } from "./catalog-request.js";
import { principalOf } from "./auth/auth-gate.js";
import { isCloudClientRequest } from "./cloud-client.js";
import { parsePathId } from "./identifiers.js";
import { accepted, runsAsJob } from "./job-switch.js";
import type { ServerServices } from "./services.js";
import { storeUsageHeaders } from "./store-usage-headers.js";
import { holdUploadMemory } from "./upload-memory.js";
import { storageOptionsVendedAgain, withClientStorageOptions } from "./vended-storage-options.js";
import type { AnswerSecrets } from "./idempotent-requests.js";

export interface OperationCall {
  name: OperationName;
  entry: OperationEntry;
  catalog: Catalog;
  /** The catalog request (see `catalogRequestOf`), checked by the route's schemas. */
  request: Record<string, unknown>;
  /** The path id, reconciled with the body's; `[]` for the root or id-less routes. */
  id: string[];
  delimiter: string;
  body: Record<string, unknown>;
  query: Record<string, unknown>;
  http: FastifyRequest;
  reply: FastifyReply;
  services: ServerServices;
}

export type OperationHandler = (call: OperationCall) => Promise<unknown>;

type CatalogMethod = (this: Catalog, ...args: unknown[]) => Promise<unknown>;
/** The request `Catalog[N]` takes; the route's schemas have checked it. */
type RequestFor<N extends keyof Catalog> = Catalog[N] extends (request: infer R, ...rest: never[]) => unknown ? R : never;

/** The default handler; throws at start-up when `Catalog` has no method of that name. */
export function catalogMethodHandler(name: OperationName): OperationHandler {
  const method = (Catalog.prototype as unknown as Record<string, CatalogMethod | undefined>)[name];
  if (typeof method !== "function") throw new Error(`operation ${name} has neither a Catalog method nor a handler`);
  return ({ catalog, entry, request, http }) => {
    // Read from the catalog itself, not its prototype: a traced catalog wraps its methods in spans.
    const own = (catalog as unknown as Record<string, CatalogMethod>)[name] as CatalogMethod;
    return entry.body === "arrow" ? own.call(catalog, request, arrowBody(http.body)) : own.call(catalog, request);
  };
}

/** Index builds and drops run as jobs, answering 202, when the client asked not to wait (docs/jobs.md). */
const buildIndex: OperationHandler = (call) => {
  const { catalog, request, body, query, http, reply } = call;
  if (!runsAsJob(http, body.wait as boolean | null | undefined, query.wait as boolean | undefined)) return catalogMethodHandler(call.name)(call);
  return accepted(reply, catalog.createTableIndexJob(request as RequestFor<"createTableIndexJob">));
};

/** Maintenance tasks run as jobs, answering 202, when the client asked not to wait (docs/jobs.md). */
function maintenance(task: "compact" | "cleanup" | "optimize_indices"): OperationHandler {
  return (call) => {
    const { catalog, request, body, query, http, reply } = call;
    if (!runsAsJob(http, body.wait as boolean | null | undefined, query.wait as boolean | undefined)) return catalogMethodHandler(call.name)(call);
    return accepted(reply, catalog.queueTableMaintenance(request as RequestFor<"cleanupTableVersions">, task));
  };
}

/** The default handler, for an answer carrying a table's location. */
function completedWithStorageOptions(name: OperationName): OperationHandler {
  const plain = catalogMethodHandler(name);
  return async (call) => withClientStorageOptions(call, (await plain(call)) as { location?: string });
}

/**
 * One blob's bytes as the LanceDB client reads them (spec/clients.md §2.3): 204 for a null blob;
 * 206 with `Content-Range` for a range, 200 without one; 416 with a `Content-Range` of `bytes *` and the size
 * for an empty blob or a range past the end. The bytes stream from the store a chunk at a time.
 */
const getTableBlobBytes: OperationHandler = async ({ catalog, request, http, reply }) => {
  const range = parseRange(http.headers.range);
  const { version, blob } = await catalog.getTableBlobBytes(request as RequestFor<"getTableBlobBytes">);
  reply.header("x-lancedb-version", String(version));
  if (!blob) return reply.status(204).send();
  reply.header("accept-ranges", "bytes");
  const span = range ? resolveRange(range, blob.size) : { start: 0, end: blob.size };
  if (span === "unsatisfiable") return reply.status(416).header("content-range", `bytes */${blob.size}`).send();
  if (range) reply.status(206).header("content-range", `bytes ${span.start}-${span.end - 1}/${blob.size}`);
  else reply.status(200);
  reply.header("content-length", String(span.end - span.start)).type("application/octet-stream");
  return reply.send(span.end === span.start ? Buffer.alloc(0) : Readable.from(blob.read(span.start, span.end), { objectMode: false }));
};

export const customHandlers: Partial<Record<OperationName, OperationHandler>> = {
  describeTable: completedWithStorageOptions("describeTable"),
  // Who dropped a table is kept with a drop an undrop may restore.
  dropTable: ({ catalog, request, http }) => catalog.dropTable({ ...(request as RequestFor<"dropTable">), dropped_by: principalOf(http)?.subject }),
  declareTable: completedWithStorageOptions("declareTable"),
  createTable: completedWithStorageOptions("createTable"),
  listNamespaces: ({ catalog, request, id, delimiter }) => {
    // `/v1/namespace/table/list?delimiter=.` is the root's table listing with its "." dropped (spec/clients.md §2.2).
    if (delimiter === "." && id.length === 1 && id[0] === "table") return catalog.listTables({ ...(request as RequestFor<"listTables">), id: [] });
    return catalog.listNamespaces(request as RequestFor<"listNamespaces">);
  },
  listTablesExtended: ({ catalog, request }) => catalog.listAllTables(request as RequestFor<"listAllTables">),
  createTableExtended: async (call) => {
    const { catalog, request, delimiter, http } = call;
    const { table_name: tableName, delimiter: _delimiter, ...fields } = request as Omit<RequestFor<"createTable">, "id"> & { table_name: string; delimiter: string };
    return withClientStorageOptions(call, await catalog.createTable({ ...fields, id: parsePathId(tableName, delimiter) }, arrowBody(http.body)));
  },
  queryTable: async ({ catalog, request, reply }) => {
    const result = await catalog.queryTable(request as RequestFor<"queryTable">);
    // The Cloud client echoes this back as its read-freshness hint (spec/clients.md §2.1).
    reply.header("x-lancedb-version", String(result.version));
    if (result.storeUsage) reply.headers(storeUsageHeaders(result.storeUsage));
    return result.chunks;
  },
  fetchTableBlobs: async ({ catalog, request, reply }) => {
    const fetched = (await catalog.fetchTableBlobs(request as RequestFor<"fetchTableBlobs">)) as { version: number; chunks: AsyncIterable<Uint8Array> };
    reply.header("x-lancedb-version", String(fetched.version));
    return fetched;
  },
  getTableBlobBytes,
  listTableTags: async ({ catalog, request, http }) => {
    const listed = await catalog.listTableTags(request as RequestFor<"listTableTags">);
    // The Cloud client parses the bare name → contents map; the spec wraps it in `tags`.
    return isCloudClientRequest(http) ? listed.tags : listed;
  },
  createTableIndex: buildIndex,
  createTableScalarIndex: buildIndex,
  dropTableIndex: ({ catalog, request, http, reply }) => {
    const { wait, ...drop } = request as RequestFor<"dropTableIndex"> & { wait?: boolean };
    return runsAsJob(http, undefined, wait) ? accepted(reply, catalog.dropTableIndexJob(drop)) : catalog.dropTableIndex(drop);
  },
  // Completing holds every staged part at once: the memory budget must admit them first.
  completeMultipartWrite: async ({ catalog, request, http, services }) => {
    const completion = request as RequestFor<"completeMultipartWrite">;
    holdUploadMemory(services.uploadMemory, http, await catalog.stagedMultipartBytes(completion.upload_id));
    return catalog.completeMultipartWrite(completion);
  },
  getJob: ({ catalog, request }) => catalog.describeJob(request as RequestFor<"describeJob">),
  compactTable: maintenance("compact"),
  cleanupTableVersions: maintenance("cleanup"),
  optimizeTableIndices: maintenance("optimize_indices"),
};

/**
 * The mutating operations whose answer holds secrets: vended credentials, which a kept
 * `Idempotency-Key` answer leaves out and its replay vends afresh. (DescribeTable vends too, but
 * reads keep no answer.)
 */
export const answerSecrets: Partial<Record<OperationName, (call: OperationCall) => AnswerSecrets>> = {
  declareTable: storageOptionsVendedAgain,
  createTable: storageOptionsVendedAgain,
  createTableExtended: storageOptionsVendedAgain,
};
