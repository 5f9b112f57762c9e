/**
 * @module Databases that share a container or bucket. Credentials vended for a table reach only
 * its prefix where the store can scope them so (S3 session policies, GCS access boundaries, Azure
 * directory SAS on an account with a hierarchical namespace); elsewhere (an Azure account without
 * one) they reach the whole container, so one tenant's token would open every other tenant's
 * tables there. Such databases get no scoped credentials unless the operator accepts the reach.
 */
import { joinLocation, storeRootOf } from "../storage/locations.js";
import { type Storages, type Vending, defaultVending } from "../storage/storages.js";
import type { Store } from "../store/store.js";
import type { DatabaseInfo } from "./catalog-scope.js";
import { databaseStorageRoot, toDatabaseInfo } from "./database-info.js";

/**
 * The other databases whose storage roots lie in the container or bucket of `database`'s, by name;
 * those without a location of their own lie under `dataLocation`.
 */
export async function containerNeighbours(store: Store, database: DatabaseInfo, dataLocation: string): Promise<string[]> {
  const container = storeRootOf(database.storageRoot);
  return (await store.rows.listDatabases())
    .filter((row) => row.name !== database.name && storeRootOf(databaseStorageRoot(row, dataLocation)) === container)
    .map((row) => row.name);
}

/**
 * Why clients of `database` get no scoped credentials for `location` (one of its tables; default
 * where its tables are placed), or undefined when they get them: under `scoped` vending,
 * credentials that would reach the whole container are withheld while another database shares
 * it, unless `vending.vendSharedContainers`.
 */
export async function sharedContainerReason(
  storages: Storages,
  store: Store,
  database: DatabaseInfo,
  dataLocation: string,
  vending: Vending = defaultVending,
  location?: string,
): Promise<string | undefined> {
  if (vending.mode !== "scoped" || vending.vendSharedContainers) return undefined;
  if ((await storages.credentialReachOf(location ?? joinLocation(database.storageRoot, "tables"))) !== "container") return undefined;
  const neighbours = await containerNeighbours(store, database, dataLocation);
  if (neighbours.length === 0) return undefined;
  return (
    `database '${database.name}' shares ${storeRootOf(database.storageRoot)} with ${neighbours.map((name) => `'${name}'`).join(", ")}, ` +
    "and credentials minted for its tables would reach that whole container (an Azure account without a hierarchical namespace signs only container-wide SAS tokens), " +
    "so clients get no credentials for its tables and open them with their own; give each database its own container, " +
    "use an account with a hierarchical namespace, or accept the shared reach with --vend-shared-containers"
  );
}

/** `sharedContainerReason` for every database of the store, for start-up to report. */
export async function sharedContainerReasons(storages: Storages, store: Store, dataLocation: string, vending: Vending = defaultVending): Promise<{ database: string; reason: string }[]> {
  const reasons: { database: string; reason: string }[] = [];
  for (const row of await store.rows.listDatabases()) {
    const reason = await sharedContainerReason(storages, store, toDatabaseInfo(row, dataLocation), dataLocation, vending);
    if (reason !== undefined) reasons.push({ database: row.name, reason });
  }
  return reasons;
}
