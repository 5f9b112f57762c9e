/**
 * @module The locations a restore would bring into a store, checked before any row goes in by
 * the rules the API holds operators and clients to. Dropping a table or a database deletes its
 * folder, so a location a backup was edited to name (any folder of the machine, any container
 * the store's credentials reach) must never get into the catalog: each database's storage root
 * is checked as database creation checks it and must lie in one of the deployment's data roots;
 * each table's folder is checked as RegisterTable checks a client's location, inside its
 * database's storage root, and must be recorded in the spelling that check answers.
 */
import { normalizeLocation } from "../../storage/locations.js";
import type { StorageOptions } from "../../storage/storage-options.js";
import type { Storages } from "../../storage/storages.js";
import { databaseStorageRoot, followsDataLocation } from "../database-info.js";
import { validateName } from "../identifiers.js";
import { liesInside, resolveClientLocation } from "../table-locations.js";
import { ownStorageRoot } from "./database-registry.js";

/** A database as a backup records it. */
export interface RestoredDatabase {
  name: string;
  /** Its own location, or `''` when it follows the data location. */
  storageRoot: string;
  storageOptions: StorageOptions;
}

/** A folder of table data a backup records: a table's, a dropped table's, a kept folder. */
export interface RestoredLocation {
  database: string;
  /** What the folder is, for the operator: `table sales.orders`, `dropped table t`, ... */
  what: string;
  location: string;
}

/** Where the deployment keeps table data: its data location and the further roots the operator names. */
export interface DeploymentRoots {
  dataLocation: string;
  otherRoots: string[];
}

/** A location refused: whose it is and why. */
export interface LocationRefusal {
  subject: string;
  reason: string;
}

/**
 * Checks every database and table location of a backup; answers every refusal (none: the
 * backup may be restored). Configures `storages` for the databases' own object-store roots.
 */
export async function refusedLocations(storages: Storages, roots: DeploymentRoots, databases: RestoredDatabase[], locations: RestoredLocation[]): Promise<LocationRefusal[]> {
  const refusals: LocationRefusal[] = [];
  const storageRoots = new Map<string, string>();
  const deploymentRoots = [roots.dataLocation, ...roots.otherRoots].map(normalizeLocation);
  for (const database of databases) {
    const subject = `database ${database.name}`;
    const reason = await refusalOf(async () => {
      validateName(database.name, "database");
      const root =
        database.storageRoot === followsDataLocation
          ? databaseStorageRoot({ name: database.name, storage_root: database.storageRoot }, roots.dataLocation)
          : await ownStorageRoot(storages, database.storageRoot, database.storageOptions);
      if (!(await isInAny(storages, deploymentRoots, root))) {
        throw new Error(`its location '${root}' is outside the deployment's data roots (${deploymentRoots.join(", ")})`);
      }
      storageRoots.set(database.name, root);
    });
    if (reason !== undefined) refusals.push({ subject, reason });
  }
  const known = new Set(databases.map((database) => database.name));
  for (const { database, what, location } of locations) {
    const storageRoot = storageRoots.get(database);
    // A database refused already says why; its tables are not checked against a root it may not have.
    if (storageRoot === undefined) {
      if (!known.has(database)) refusals.push({ subject: `${what} of database ${database}`, reason: "its database is not in the backup" });
      continue;
    }
    const reason = await refusalOf(async () => {
      const resolved = await resolveClientLocation(storages, { storageRoot }, location);
      if (resolved !== location) throw new Error(`location '${location}' is not in the one spelling the catalog records ('${resolved}')`);
    });
    if (reason !== undefined) refusals.push({ subject: `${what} of database ${database} (storage root ${storageRoot})`, reason });
  }
  return refusals;
}

/** Whether `location` is one of `roots` or lies inside one, links resolved. */
async function isInAny(storages: Storages, roots: string[], location: string): Promise<boolean> {
  for (const root of roots) {
    if (root === location || (await liesInside(storages, root, location, location))) return true;
  }
  return false;
}

/** Runs `check`; answers the message of what it throws (a 13 of the API's checks, or its own), else undefined. */
async function refusalOf(check: () => Promise<void>): Promise<string | undefined> {
  try {
    await check();
    return undefined;
  } catch (error) {
    if (error instanceof Error) return error.message;
    throw error;
  }
}
