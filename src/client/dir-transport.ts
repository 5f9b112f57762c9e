/**
 * @module The `dir` implementation: the catalog runs in-process over a local folder, the same
 * catalog code the server runs. Answers are shaped as the server would send them (JSON answers
 * are copied through JSON), so both implementations resolve with equal values.
 */
import { describeCapabilities } from "../catalog/capabilities.js";
import type { Capabilities } from "../model/capabilities.js";
import { CatalogError } from "../model/catalog-error.js";
import type { LocalCatalog } from "../catalog/runtime/local-catalog.js";
import { fromIpc } from "./arrow-io.js";
import { NamespaceError } from "./namespace-error.js";
import { operations } from "./operations.js";
import type { ResponseShape } from "../model/wire-shapes.js";
import { type PreparedCall, type Transport, collectBytes } from "./transport.js";

type CatalogMethod = (this: unknown, ...args: unknown[]) => Promise<unknown>;

export class DirTransport implements Transport {
  readonly implName = "dir" as const;

  constructor(
    private readonly local: LocalCatalog,
    readonly delimiter: string,
  ) {}

  async invoke({ name, entry, request, data }: PreparedCall): Promise<unknown> {
    const method = (this.local.catalog as unknown as Record<string, CatalogMethod | undefined>)[name];
    if (typeof method !== "function") throw NamespaceError.of("Unsupported", `${entry.operationId} is not supported by this catalog`);
    // Operations without a path id render identifiers with the delimiter, as `?delimiter=` does in REST.
    const fields: Record<string, unknown> = entry.target === "none" ? { ...request, delimiter: this.delimiter } : { ...request };
    let result: unknown;
    try {
      result = await (entry.body === "arrow" ? method.call(this.local.catalog, fields, data ?? new Uint8Array()) : method.call(this.local.catalog, fields));
    } catch (error) {
      throw toNamespaceError(error);
    }
    return shapeResult(entry.response, result);
  }

  async capabilities(): Promise<Capabilities> {
    const catalog = this.local.catalog as unknown as Record<string, unknown>;
    const served = Object.entries(operations).filter(([name]) => typeof catalog[name] === "function");
    // In-process there is no wire (no body limits) and no caller to authenticate.
    return describeCapabilities({
      operations: served.map(([, entry]) => entry.operationId),
      authMode: "none",
      vending: this.local.catalog.scope.vending,
      objectStores: this.local.catalog.scope.storages.configuredSchemes(),
      jobs: this.local.catalog.scope.jobs,
      maxJsonBodyBytes: null,
      maxUploadBytes: null,
      showStorage: true,
      database: this.local.catalog.database,
      changeEvents: false,
    });
  }

  close(): Promise<void> {
    return this.local.close();
  }
}

/** Catalog refusals keep their code and message; anything else is Internal (18), as the server answers. */
export function toNamespaceError(error: unknown): NamespaceError {
  if (error instanceof NamespaceError) return error;
  if (error instanceof CatalogError) return new NamespaceError(error.code, error.message, { detail: error.detail, cause: error });
  const message = error instanceof Error ? error.message : String(error);
  return NamespaceError.of("Internal", `internal error: ${message}`, { cause: error });
}

async function shapeResult(response: ResponseShape, result: unknown): Promise<unknown> {
  switch (response.kind) {
    case "empty":
      return undefined;
    case "integer":
      return Number(result);
    case "string":
      return String(result);
    case "arrow-file": {
      // QueryTable answers `{ version, chunks }`; the version is a header in REST, not the result.
      const bytes = (result as { chunks?: unknown } | null | undefined)?.chunks ?? result;
      if (bytes instanceof Uint8Array) return fromIpc(bytes);
      if (isAsyncIterable(bytes)) return fromIpc(await collectBytes(bytes));
      throw NamespaceError.of("Internal", "the catalog answered a query without Arrow IPC bytes");
    }
    default:
      // The copy drops `undefined` fields and shares no object with the catalog, as a wire answer would.
      return result === undefined ? {} : JSON.parse(JSON.stringify(result));
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return value !== null && typeof value === "object" && Symbol.asyncIterator in value;
}
