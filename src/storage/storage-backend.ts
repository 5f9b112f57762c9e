/**
 * @module What each backend (one folder per provider, like a database dialect) provides: a
 * descriptor that says what the backend is and can do, known without loading anything heavy, and,
 * for object stores, the backend itself, loaded on first use: its `TableStorage` and, where the
 * provider can mint them, credentials scoped to one table that the catalog hands to clients.
 */
import type { TableAccess } from "../model/table-access.js";
import type { StorageOptions } from "./storage-options.js";
import type { VendingMode } from "./storages.js";
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

/** What a backend can do, asked by the code shared across backends instead of testing schemes. */
export interface BackendCapabilities {
  /**
   * Whether the engine can shallow-clone a table stored here. Lance's clone opens the source by
   * URI without the connection's storage options, so only a store that needs none qualifies.
   */
  shallowClone: boolean;
  /**
   * How the commits' conditional create is known to hold: `native`, the backend itself guarantees
   * it; `probed`, checked once per location before writing there (see `conditional-create-probe.ts`),
   * because an endpoint option can point the backend at a compatible store that ignores it.
   */
  conditionalCreate: "native" | "probed";
  /**
   * The vending modes that hand clients anything for a table here. Empty where clients need no
   * options to open a table (a local folder); `scoped` also needs a minter for the root's options.
   */
  vendingModes: readonly VendingMode[];
}

/**
 * One backend as the rest of Quiver sees it: cheap to import (the SDKs stay unloaded until a root
 * of the backend is configured), so start-up, log redaction and capability checks never load one.
 */
export interface BackendDescriptor {
  /** The URI scheme served, without `://` (`az`, `s3`, `gs`); `file` for local paths, which carry none. */
  scheme: string;
  /** The storage-option keys (Lance's names and their aliases, lower case) whose values grant access. */
  secretKeys: readonly string[];
  /** The keys Quiver reads for itself from this backend's options (how to mint credentials); never passed to Lance or clients. */
  quiverKeys: readonly string[];
  capabilities: BackendCapabilities;
  /** Loads the object-store backend; undefined for local folders, which need no configuration. */
  load?: () => Promise<StorageBackend>;
}
