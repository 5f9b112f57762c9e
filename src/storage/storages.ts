/**
 * @module The storage of one runtime: which `TableStorage` serves a location, with which storage
 * options, and which options a client gets for it. An object-store root is configured once with
 * Lance's own storage keys, and every location below it is served with them, by Quiver and by the
 * engine alike; local folders need no configuration. Each runtime builds its own `Storages` and
 * hands it down, so two runtimes in one process never see each other's roots.
 */
import { descriptorOf, objectStoreDescriptors } from "./backend-descriptors.js";
import { localDescriptor } from "./local/local-descriptor.js";
import { LocalStorage } from "./local/local-storage.js";
import { isInsideLocation, isUri, normalizeLocation, schemeOf } from "./locations.js";
import type { BackendCapabilities, CredentialMinter, CredentialReach, StorageBackend, TableAccess } from "./storage-backend.js";
import { type StorageOptions, lanceOptionsOf, nonSecretOptionsOf } from "./storage-options.js";
import type { TableStorage } from "./table-storage.js";
import { guardMinter, guardStorage } from "./outage-guard.js";
import { withStoreTimeout } from "./store-timeout.js";
import { withSpans } from "../tracing/spans.js";
import type { ObjectCache, StoreUsage } from "./object-cache/object-cache.js";

export type { StoreUsage };

export type { StorageOptions };

interface ConfiguredRoot {
  root: string;
  /** The operator's options: what clients receive (less secrets, as vending says). */
  options: StorageOptions;
  /** The same with the store timeout's bounds: what the server's own requests use. */
  serverOptions: StorageOptions;
  /** What the server's engine opens tables with: the server's options, pointed at the object cache when it is on. */
  engineOptions: StorageOptions;
  storage: TableStorage;
  capabilities: BackendCapabilities;
  minter: CredentialMinter | undefined;
  /** Counts the root's configurations with different options: what engine sessions are keyed by. */
  generation: number;
}

/** Each call Quiver makes to a storage itself is a span under the request's (`storage.putIfAbsent`), while tracing is on. */
function tracedStorage(storage: TableStorage, scheme: string): TableStorage {
  return withSpans(storage, "storage.", { "quiver.storage.scheme": scheme }, "client");
}

/** The URI schemes Quiver serves besides local folders. */
export function servedSchemes(): string[] {
  return objectStoreDescriptors().map((descriptor) => descriptor.scheme);
}

/**
 * The backend of an object-store root with what it can do, its SDK loaded when a root of its
 * scheme is first configured: the SDKs take most of a second to load, which a server on local
 * folders never needs.
 */
async function backendOf(root: string): Promise<{ backend: StorageBackend; capabilities: BackendCapabilities }> {
  const descriptor = descriptorOf(root);
  if (!descriptor?.load) {
    throw new Error(`'${root}' uses a storage scheme Quiver cannot serve; use a local folder or ${servedSchemes().map((name) => `${name}://`).join(", ")}`);
  }
  return { backend: await descriptor.load(), capabilities: descriptor.capabilities };
}

/**
 * What clients receive with a table's location: `scoped` credentials minted for the table,
 * `static` (the configured options, secrets included), or `none` (only what is not secret).
 */
export type VendingMode = "scoped" | "static" | "none";

export interface Vending {
  mode: VendingMode;
  ttlSeconds: number;
  /**
   * Mint `scoped` credentials for a database even when they would reach a container or bucket
   * other databases share (an operator's explicit choice; by default they are withheld).
   */
  vendSharedContainers?: boolean;
}

/** Scoped credentials for an hour, unless the operator says otherwise. */
export const defaultVending: Vending = { mode: "scoped", ttlSeconds: 3600 };

/**
 * The configured storage roots of one runtime and everything answered from them: the storage of a
 * location, the options the engine opens it with, and the options and credentials clients receive.
 */
export class Storages {
  private readonly local = tracedStorage(new LocalStorage(), "file");
  /** Object-store roots, longest first, so the most specific configuration wins. */
  private roots: ConfiguredRoot[] = [];
  /** Minted credentials are reused while more than half their lifetime is left: minting may call the provider. */
  private readonly minted = new Map<string, StorageOptions>();

  /** `cache`, when given, serves the engine's reads of immutable objects under every object-store root. */
  constructor(private readonly cache?: ObjectCache) {}

  /** The URI schemes of the object-store roots configured now (sorted, each once). */
  configuredSchemes(): string[] {
    return [...new Set(this.roots.map(({ root }) => schemeOf(root) ?? ""))].filter(Boolean).sort();
  }

  /**
   * Serves every location under the object-store `root` with `options` from now on (a later call
   * for the same root replaces them). Throws when the scheme is not served or the options cannot
   * reach a store. Local folders need no configuration.
   */
  async configure(root: string, options: StorageOptions): Promise<void> {
    if (!isUri(root)) return;
    const normalized = normalizeLocation(root);
    const { backend, capabilities } = await backendOf(normalized);
    const previous = this.roots.find((other) => other.root === normalized);
    // The same options again (every process re-reads a database's settings now and then) keep the root as it is.
    if (previous && JSON.stringify(previous.options) === JSON.stringify(options)) return;
    const serverOptions = withStoreTimeout(options);
    const lanceOptions = lanceOptionsOf(serverOptions);
    const engineOptions = this.cache ? await this.cache.engineOptionsFor(normalized, backend.scheme, lanceOptions) : lanceOptions;
    const generation = (previous?.generation ?? 0) + 1;
    const entry = { root: normalized, options, serverOptions, engineOptions, storage: tracedStorage(guardStorage(backend.open(serverOptions)), schemeOf(normalized) ?? ""), capabilities, minter: guardMinter(backend.minter(serverOptions)), generation };
    this.roots = [...this.roots.filter((other) => other.root !== normalized), entry].sort((a, b) => b.root.length - a.root.length);
  }

  /** The most specific configured root holding `location`, if any. */
  private rootAt(location: string): ConfiguredRoot | undefined {
    const normalized = normalizeLocation(location);
    return this.roots.find(({ root }) => normalized === root || isInsideLocation(root, normalized));
  }

  private rootOf(location: string): ConfiguredRoot {
    const entry = this.rootAt(location);
    if (!entry) throw new Error(`no storage is configured for '${location}'`);
    return entry;
  }

  /** Whether `location` is served: a local path, or a URI below a configured root. */
  isServed(location: string): boolean {
    return !isUri(location) || this.rootAt(location) !== undefined;
  }

  /** The storage holding `location`. */
  for(location: string): TableStorage {
    return isUri(location) ? this.rootOf(location).storage : this.local;
  }

  /**
   * The storage options the server's Lance needs to open `location` (none for a local folder),
   * bounded by the store timeout, and pointed at the object cache's proxy when the cache is on.
   */
  optionsFor(location: string): StorageOptions {
    return isUri(location) ? this.rootOf(location).engineOptions : {};
  }

  /**
   * Starts counting the object-store requests and cache hits of the engine's reads under
   * `location`; the returned function stops and returns the counts. Undefined for a local folder
   * or when the object cache does not serve the location.
   */
  meterEngineReads(location: string): (() => StoreUsage) | undefined {
    const root = isUri(location) ? this.rootAt(location) : undefined;
    return root && this.cache?.meter(root.root, normalizeLocation(location));
  }

  /** Stops what serves the engine's reads (the object cache's proxies). */
  async close(): Promise<void> {
    await this.cache?.close();
  }

  /**
   * Which configuration of its root serves `location` (0 for a local folder): it changes whenever
   * the root's options (its credentials) change, so what was opened with the old ones is let go.
   */
  credentialGeneration(location: string): number {
    return isUri(location) ? this.rootOf(location).generation : 0;
  }

  /** What the backend of `location` can do (a local folder's for a path); throws for a URI below no configured root. */
  private capabilitiesAt(location: string): BackendCapabilities {
    return isUri(location) ? this.rootOf(location).capabilities : localDescriptor.capabilities;
  }

  /** Whether clients need credentials for `location` at all, and so whether `scoped` vending must mint them. */
  private vendsScoped(location: string): boolean {
    return this.capabilitiesAt(location).vendingModes.includes("scoped");
  }

  /** Whether credentials can be minted for locations under `location` (`scoped` vending), or none are needed. */
  canMintFor(location: string): boolean {
    return !this.vendsScoped(location) || this.rootOf(location).minter !== undefined;
  }

  /** How far credentials minted for `location` would reach, or undefined when none can be minted (a local folder, a root not served or without a minter). */
  async credentialReachOf(location: string): Promise<CredentialReach | undefined> {
    const entry = this.rootAt(location);
    if (!entry?.capabilities.vendingModes.includes("scoped")) return undefined;
    return entry.minter?.reachOf(normalizeLocation(location));
  }

  /**
   * The storage options a client needs to open `location` with `access` itself: everything Lance
   * needs (endpoint, region, `allow_http`, ...) and, as `vending` says, credentials. A local folder
   * needs none. A root that cannot mint hands out no secrets under `scoped`.
   */
  async clientOptions(location: string, access: TableAccess, vending: Vending): Promise<StorageOptions> {
    if (!this.capabilitiesAt(location).vendingModes.includes(vending.mode)) return {};
    const entry = this.rootOf(location);
    const shared = nonSecretOptionsOf(entry.options);
    if (vending.mode === "none") return shared;
    if (vending.mode === "static") return lanceOptionsOf(entry.options);
    if (!entry.minter) return shared;
    const normalized = normalizeLocation(location);
    const key = `${entry.root}\n${normalized}\n${access}\n${vending.ttlSeconds}`;
    const cached = this.minted.get(key);
    if (cached && Number(cached.expires_at_millis) - Date.now() > (vending.ttlSeconds * 1000) / 2) return { ...shared, ...cached };
    const fresh = await entry.minter.mint(normalized, access, vending.ttlSeconds);
    for (const [other, options] of this.minted) if (Number(options.expires_at_millis) <= Date.now()) this.minted.delete(other);
    this.minted.set(key, fresh);
    return { ...shared, ...fresh };
  }
}
