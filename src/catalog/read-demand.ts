/**
 * @module What a reader asks of the version it reads, beside the request model: the newest
 * version it has written or read (the read must not be older) and the time it last saw the store
 * (a look older than that is not trusted). The server takes them from the LanceDB client's
 * freshness headers (spec/clients.md §2.1); they ride on the catalog request under a symbol, so
 * no body or query field can set them and no answer carries them.
 */
import type { EngineErrorKind } from "../engine/engine-errors.js";
import type { TableRef } from "../engine/engine.js";
import { CatalogError } from "../model/catalog-error.js";

export interface ReadDemand {
  /** The read must be at this version of the table or newer. */
  minVersion?: number;
  /** Epoch ms: the read must see every commit made before then. */
  minTimestampMs?: number;
  /** Told the version a read of the newest version answered from. */
  onRead?: (version: number) => void;
}

const readDemandKey = Symbol("readDemand");

/** `request` carrying `demand` (the same object; a copy made by spreading it carries it too, JSON never). */
export function withReadDemand<T extends object>(request: T, demand: ReadDemand): T {
  (request as { [readDemandKey]?: ReadDemand })[readDemandKey] = demand;
  return request;
}

/** The demand `request` carries, if any. */
export function readDemandOf(request: object): ReadDemand | undefined {
  return (request as { [readDemandKey]?: ReadDemand })[readDemandKey];
}

/** How a read fails that asked for a version newer than the store holds. */
export function demandOverrides(subject: string, ref: TableRef, demand: ReadDemand | undefined): Partial<Record<EngineErrorKind, CatalogError>> {
  const minVersion = demand?.minVersion;
  if (minVersion === undefined || (ref.version !== undefined && ref.version !== null) || ref.tag || ref.branch) return {};
  return {
    // A getter, as in `refOverrides`: the error is built only when the read fails.
    get "version-not-found"() {
      return CatalogError.of("TableVersionNotFound", `${subject} has no version ${minVersion} or newer yet`);
    },
  };
}
