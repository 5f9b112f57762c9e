/**
 * @module What every catalog operation runs against: one database (tenant) with its store,
 * engine and storage root, and the caller's context.
 */
import type { Engine } from "../engine/engine.js";
import type { OwnerMayRead } from "../model/authz/owner-may-read.js";
import type { Storages, Vending } from "../storage/storages.js";
import type { StorageOptions } from "../storage/storage-options.js";
import type { Store } from "../store/store.js";

export interface DatabaseInfo {
  name: string;
  /** Where every table of the database lives: an absolute folder or an object-store URI. */
  storageRoot: string;
  /** The database's own storage options for its root; empty when it uses the server's. */
  storageOptions: StorageOptions;
  /** Clients must commit versions through the catalog (spec/concepts.md §6.3). */
  managedVersioning: boolean;
  /**
   * How long a read may answer from its kept table handle without looking at the store for commits
   * made outside Quiver (ms); null looks on every read.
   */
  readConsistencyMs: number | null;
  /** Automatic maintenance of the database's tables: on, off, or null to follow the server. */
  autoMaintenance: boolean | null;
  /**
   * Writers holding their own storage keys commit to the database's tables: reads then always
   * look at the store alongside (docs/read-freshness.md).
   */
  outsideWriters: boolean;
  properties: Record<string, string>;
}

export interface CatalogScope {
  store: Store;
  engine: Engine;
  /** The runtime's storage: what the catalog reads and writes beside the engine. */
  storages: Storages;
  database: DatabaseInfo;
  /** Operator settings of the job system; absent means the defaults (one pool, "default"). */
  jobs?: JobSettings;
  /** What clients opening tables themselves receive in `storage_options`; absent means scoped, one hour. */
  vending?: Vending;
  /** Where databases without a location of their own keep their tables; absent means the parent of this one's. */
  dataLocation?: string;
  /** How long a dropped table stays restorable before its data is purged; absent or 0 deletes at once. */
  dropRetentionMs?: number;
  /** Whether a view's owner may still read its source (a refresh runs with its owner's privileges, auth/view-owner-reads.ts); absent: always. */
  ownerMayRead?: OwnerMayRead;
}


export interface JobSettings {
  /** Worker pools (a refresh's `cluster`) this deployment runs; the first is the default. */
  pools: readonly string[];
  /** The server's automatic maintenance settings (docs/maintenance.md); absent means the defaults. */
  autoMaintenance?: { enabled: boolean; retentionMs: number; smallFragments: number; deletedShare: number };
}

/** Who is calling and why: flows from the request into audit records, never into decisions. */
export interface CallContext {
  requestId?: string;
  /** Body `context` entries merged with `x-svc-ctx-<key>` headers. */
  context?: Record<string, string>;
  principal?: string;
}

/** A request addressed by an identifier: the spec's request model with the path's `id` made required. */
export type WithId<T> = T & { id: string[] };

/** Where work that spans databases (purges, sweeps) finds the scope of each database by name. */
export interface ScopesByName {
  /** The catalog of database `name`, or undefined when no such database exists. */
  catalogFor(name: string): Promise<{ readonly scope: CatalogScope } | undefined>;
}
