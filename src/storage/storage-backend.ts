/**
 * @module What each object-store backend (one folder per provider, like a database dialect)
 * provides: its `TableStorage`, and, where the provider can mint them, credentials scoped to one
 * table that the catalog hands to clients.
 */
import type { TableAccess } from "../model/table-access.js";
import type { StorageOptions } from "./storage-options.js";
import type { TableStorage } from "./table-storage.js";

export type { TableAccess };

/**
 * How far credentials minted for a table reach: `prefix`, only the objects under the table's
 * location; `container`, every object of its container or bucket.
 */
export type CredentialReach = "prefix" | "container";

export interface CredentialMinter {
  /** How far credentials minted for `location` would reach; `container` when the store cannot tell. */
  reachOf(location: string): Promise<CredentialReach>;
  /**
   * Storage options (Lance's keys) whose credentials reach only the objects under `location`, for
   * `access`, and expire after `ttlSeconds`; they include `expires_at_millis`. Never the long-lived
   * secret the minter was configured with.
   */
  mint(location: string, access: TableAccess, ttlSeconds: number): Promise<StorageOptions>;
}

export interface StorageBackend {
  /** The URI scheme this backend serves, without `://` (`az`, `s3`, `gs`). */
  scheme: string;
  /** The storage for locations of this scheme, configured with Lance's storage options. Throws when they cannot reach a store. */
  open(options: StorageOptions): TableStorage;
  /** A minter of scoped credentials, or undefined when these options cannot mint any (e.g. they hold only a SAS token). */
  minter(options: StorageOptions): CredentialMinter | undefined;
}
