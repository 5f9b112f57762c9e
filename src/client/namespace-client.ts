/**
 * @module The `Namespace` API: one method per entry of the operation table, built once over
 * either implementation. Every call runs the same shared steps (resolve the identifier, check
 * the request against its model, serialise Arrow data) before the implementation carries it.
 */
import type { Capabilities } from "../model/capabilities.js";
import type { DescribeTableRequest, DescribeTableResponse } from "../model/table.js";
import { type ArrowInput, toIpcStream } from "./arrow-io.js";
import { NamespaceError } from "./namespace-error.js";
import type { BoundTableMethod, OperationEntry, OperationMethod, TableNameInput } from "./operation-types.js";
import { type OperationName, type Operations, type TableOperationName, operations } from "./operations.js";
import { checkContext, checkIdentifier, checkRequest } from "./request-checks.js";
import type { ImplName, Transport } from "./transport.js";

/** One method per operation of the table in `operations.ts`, named and typed after it. */
export type OperationMethods = { [K in keyof Operations]: OperationMethod<Operations[K]> };

/** The table operations of an opened table, its identifier already filled in. */
export type TableMethods = { [K in TableOperationName]: BoundTableMethod<Operations[K]> };

/** What `openTable` takes: the table (by `id` or by namespace and name) and what to describe. */
export type OpenTableInput = ({ id: string[] } | TableNameInput) & Omit<DescribeTableRequest, "id">;

/**
 * A client of a Lance namespace. Obtain one with `connect("dir", { root })` or
 * `connect("rest", { uri })`; both answer every method alike. Every method rejects with a
 * `NamespaceError` carrying the spec's error code.
 */
export interface Namespace extends OperationMethods {
  /** Which implementation carries the calls. */
  readonly implName: ImplName;
  /** Separator of string identifiers; default `$`. */
  readonly delimiter: string;
  /**
   * Opens a table (service description: "open table" takes a namespace input): describes it, by default with
   * its version and schema when it has data, and returns a handle whose table methods need no
   * identifier. Throws 1, 4, 8, 11, 13, 22.
   */
  openTable(input: OpenTableInput): Promise<TableHandle>;
  /**
   * What the catalog serves: version, operations, optional features (`order_by`, multipart
   * writes, jobs), limits, credential vending and the database's managed versioning. `rest`
   * reads the server's `GET /v1/capabilities`; `dir` answers the same from its own settings.
   */
  capabilities(): Promise<Capabilities>;
  /** Releases the implementation's resources (`dir`: the metadata store). Idempotent. */
  close(): Promise<void>;
}

/** An opened table. Its table methods take the request without `id`. */
export interface TableHandle extends TableMethods {
  readonly id: string[];
  readonly namespace: string[];
  readonly name: string;
  /** The DescribeTable answer at open time. */
  readonly description: DescribeTableResponse;
}

type Input = Record<string, unknown> & { id?: unknown; namespace?: unknown; name?: unknown };

/** The request in list-identifier form; `{ namespace, name }` is accepted where the entry allows it. */
function resolveRequest(entry: OperationEntry, input: Input): Record<string, unknown> & { id?: string[] } {
  if (entry.target === "none") return { ...input } as Record<string, unknown>;
  if (entry.target === "namespace") return { ...input, id: input.id ?? [] } as { id: string[] };
  if (entry.namespaceInput && input.id === undefined && input.name !== undefined) {
    const { namespace, name, ...rest } = input;
    if (namespace !== undefined && !Array.isArray(namespace)) throw NamespaceError.of("InvalidInput", "namespace must be a list of names");
    return { ...rest, id: [...((namespace as string[] | undefined) ?? []), name] as string[] };
  }
  if (input.id === undefined) {
    const forms = entry.namespaceInput ? "`id` or `{ namespace, name }`" : "`id`";
    throw NamespaceError.of("InvalidInput", `${entry.operationId} needs a table identifier: ${forms}`);
  }
  if (entry.namespaceInput && input.name !== undefined) throw NamespaceError.of("InvalidInput", "give either `id` or `{ namespace, name }`, not both");
  return { ...input } as { id: string[] };
}

async function invoke(transport: Transport, name: OperationName, input: unknown, data?: ArrowInput): Promise<unknown> {
  const entry: OperationEntry = operations[name];
  if (input !== undefined && (input === null || typeof input !== "object" || Array.isArray(input))) {
    throw NamespaceError.of("InvalidInput", `${entry.operationId} takes a request object`);
  }
  const request = resolveRequest(entry, (input ?? {}) as Input);
  checkRequest(entry, request);
  checkIdentifier(request.id);
  const context = checkContext(request.context);
  if (entry.body !== "arrow") return transport.invoke({ name, entry, request, context });
  if (data === undefined || data === null) throw NamespaceError.of("InvalidInput", `${entry.operationId} needs Arrow data`);
  return transport.invoke({ name, entry, request, context, data: toIpcStream(data) });
}

/** Builds the `Namespace` over an implementation. */
export function namespaceOver(transport: Transport): Namespace {
  const methods: Record<string, unknown> = {};
  for (const name of Object.keys(operations) as OperationName[]) {
    methods[name] = (request?: unknown, data?: ArrowInput) => invoke(transport, name, request, data);
  }
  const namespace = {
    ...methods,
    implName: transport.implName,
    delimiter: transport.delimiter,
    close: () => transport.close(),
    capabilities: () => transport.capabilities(),
    async openTable(input: OpenTableInput): Promise<TableHandle> {
      // Open is the service description's fourth method with a namespace input; it describes the table by either form.
      const request = resolveRequest({ ...operations.describeTable, namespaceInput: true }, input as unknown as Input);
      const description = await namespace.describeTable(request as { id: string[] });
      return tableHandle(transport, request.id as string[], description);
    },
  } as Namespace;
  return namespace;
}

function tableHandle(transport: Transport, id: string[], description: DescribeTableResponse): TableHandle {
  const handle: Record<string, unknown> = { id, namespace: id.slice(0, -1), name: id[id.length - 1], description };
  for (const name of Object.keys(operations) as OperationName[]) {
    if (operations[name].target !== "table") continue;
    handle[name] = (request?: Record<string, unknown>, data?: ArrowInput) => invoke(transport, name, { ...(request ?? {}), id }, data);
  }
  return handle as unknown as TableHandle;
}
