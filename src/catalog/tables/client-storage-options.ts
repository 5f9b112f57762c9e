/**
 * @module The `storage_options` a client receives with a table's location (declare, create,
 * describe), so that it can open the table's objects itself: the table's own options, then what
 * the storage layer vends for the caller's access (none where they would reach another
 * database's tables, see `sharedContainerReason`). Only `vend_credentials: false` withholds
 * credentials: the LanceDB namespace client's first call does not send the field at all.
 */
import { CatalogError } from "../../model/catalog-error.js";
import type { TableAccess } from "../../model/table-access.js";
import { isUri, parentLocation } from "../../storage/locations.js";
import { defaultVending } from "../../storage/storages.js";
import { type StorageOptions, clientWriteOptionsOf } from "../../storage/storage-options.js";
import type { CatalogScope } from "../catalog-scope.js";
import { credentialsVended } from "../../metrics/metrics.js";
import { sharedContainerReason } from "../shared-containers.js";

/**
 * On an answer that read the table's row (DescribeTable): the row's `outside_writes_until` as
 * read, so that credentials the row already covers record nothing (a store write per describe).
 */
export const outsideWritesRecorded = Symbol("outsideWritesRecorded");

/** Outside writes recorded for a local folder reach to a whole minute, so that describes within it record nothing more. */
const localWindowStepMs = 60_000;

export async function storageOptionsForClient(
  scope: CatalogScope,
  answer: { location?: string; storage_options?: StorageOptions; [outsideWritesRecorded]?: number | string | null },
  access: TableAccess,
  vendCredentials: boolean | null | undefined,
): Promise<StorageOptions> {
  // A table's own options are what its creator sent; only the keys a client may send go back out
  // (a table stored before they were checked may hold others).
  const own = clientWriteOptionsOf(answer.storage_options ?? {});
  if (!answer.location) return own;
  const vending = scope.vending ?? defaultVending;
  let mode = vendCredentials === false ? "none" : vending.mode;
  // Credentials that would open other databases' tables are never handed out by default.
  const dataLocation = scope.dataLocation ?? parentLocation(scope.database.storageRoot);
  if (mode === "scoped" && (await sharedContainerReason(scope.storages, scope.store, scope.database, dataLocation, vending, answer.location)) !== undefined) mode = "none";
  const labels = { mode, access, backend: backendOf(answer.location) };
  let vended: StorageOptions;
  try {
    vended = await scope.storages.clientOptions(answer.location, access, { ...vending, mode });
    credentialsVended.inc({ ...labels, outcome: Object.keys(vended).length > 0 ? "vended" : "none" });
  } catch (error) {
    credentialsVended.inc({ ...labels, outcome: "failed" });
    // A provider that cannot mint right now (STS down, throttled) is not the client's mistake.
    throw CatalogError.of("ServiceUnavailable", `credentials for the table could not be issued: ${(error as Error).message}`, { cause: error });
  }
  const writableUntil = access === "write" ? outsideWritesUntil(answer.location, vended, vending.ttlSeconds) : undefined;
  // Recorded before the credentials leave: every replica's reads then look at the store until they run out.
  const recorded = answer[outsideWritesRecorded];
  const covered = recorded !== undefined && recorded !== null && Number(recorded) >= (writableUntil ?? 0);
  if (writableUntil !== undefined && !covered) await scope.store.rows.raiseOutsideWrites(scope.database.name, answer.location, writableUntil);
  return { ...own, ...vended };
}

/**
 * Until when a client given `vended` for `location` with write access can commit to it without
 * the catalog: minted credentials until they expire; a local folder, which needs none, for the
 * credentials' lifetime from now, rounded up to a whole minute (the client writes the folder
 * itself; see docs/read-freshness.md).
 * Undefined when nothing vended lets it write (no credentials; static ones are covered by the mode).
 */
function outsideWritesUntil(location: string, vended: StorageOptions, ttlSeconds: number): number | undefined {
  const expires = Number(vended.expires_at_millis);
  if (Number.isFinite(expires) && expires > 0) return expires;
  return isUri(location) ? undefined : Math.ceil((Date.now() + ttlSeconds * 1000) / localWindowStepMs) * localWindowStepMs;
}

/**
 * The storage options a caller gets for the table now at `location`, as `storageOptionsForClient`
 * completes an answer's: what a replayed answer carries instead of the credentials its first
 * answer had, which are never kept. None when no table of the database is there any more, so that
 * a replay never hands out access to a dropped table's files.
 */
export async function storageOptionsForTableAt(scope: CatalogScope, location: string, access: TableAccess, vendCredentials: boolean | null | undefined): Promise<StorageOptions> {
  const table = await scope.store.rows.findTableByLocation(scope.database.name, location);
  if (!table) return {};
  return storageOptionsForClient(scope, { location, storage_options: table.storage_options }, access, vendCredentials);
}

/** The storage backend of a location, a label with few values: its URI scheme, or `file`. */
function backendOf(location: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(location)?.[1];
  return scheme ? scheme.toLowerCase() : "file";
}
