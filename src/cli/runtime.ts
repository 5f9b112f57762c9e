/**
 * @module The composition root: opens the metadata store and the engine under a root folder,
 * makes sure the default database exists, and builds the server. The CLI and the tests start
 * Quiver through here.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import type { AuthStore } from "../auth/auth-store.js";
import { databaseStorageRoot, hasOwnLocation } from "../catalog/database-info.js";
import { type CatalogRegistry, defaultDatabaseName } from "../catalog/runtime/database-registry.js";
import { openLocalRoot } from "../catalog/runtime/local-root.js";
import { restrictMetadataFileAccess } from "./metadata-file-access.js";
import { defaultOrphanGraceMs } from "../catalog/tables/orphaned-folders.js";
import { type SweepLog, defaultOrphanSweepIntervalMs, startOrphanSweeper, sweepOnce } from "../catalog/tables/orphan-sweeper.js";
import { expireMultipartWrites, multipartExpiryIntervalMs } from "../catalog/rows/multipart-writes.js";
import { startPeriodicTask } from "../catalog/periodic-task.js";
import { defaultDropPurgeIntervalMs, startDroppedTablePurger } from "../catalog/tables/dropped-table-purger.js";
import { settlePendingVersions } from "../catalog/versions/version-commit.js";
import { defaultEventPurgeIntervalMs, defaultEventRetentionMs, startEventRetention } from "../catalog/events/event-retention.js";
import { defaultOutsideCommitCheckIntervalMs, startOutsideCommitCheck } from "../catalog/outside-commits.js";
import type { WebhookSettings } from "../catalog/events/webhook-delivery.js";
import { sharedContainerReasons } from "../catalog/shared-containers.js";
import type { Engine } from "../engine/engine.js";
import { buildServer } from "../server/build-server.js";
import type { RateLimitConfig } from "../server/rate-limits.js";
import { requireConditionalCreates, setConditionalCreateProbe } from "../storage/conditional-create-probe.js";
import { type Storages, type Vending, defaultVending } from "../storage/storages.js";
import type { StorageOptions } from "../storage/storage-options.js";
import { joinLocation } from "../storage/locations.js";
import { type ObjectCacheSettings, defaultCacheBytes } from "../storage/object-cache/object-cache.js";
import { defaultStoreTimeoutSeconds, setStoreTimeout, storeTimeout } from "../storage/store-timeout.js";
import type { Store } from "../store/store.js";
import { type AuthConfig, buildAuthGate, checkAuthExposure } from "./auth-runtime.js";
import { viewOwnerReads } from "../auth/view-owner-reads.js";
import { authStoreOf } from "./auth-store-adapter.js";
import { type JobSystem, startJobSystem } from "../jobs/job-system.js";
import { type JobSystemConfig, jobSettings } from "../jobs/job-settings.js";
import { type SecureContextHolder, type TlsFiles, readTlsFiles, reloadTlsFiles } from "./tls-files.js";

export interface RuntimeConfig {
  /** Folder holding the metadata store (and, by default, the table data under `databases/`). */
  root: string;
  /** A PostgreSQL URL for the metadata store, shared by several replicas; default `<root>/quiver.sqlite`. */
  store?: string;
  /** Where table data lives: a folder or an object-store URI; default `<root>/databases`. */
  data?: string;
  /** Lance's storage options for `data`. */
  storageOptions?: StorageOptions;
  /**
   * The local read-through cache of the engine's object-store reads: its folder (default
   * `<root>/cache`) and bound in bytes (default 10 GiB; 0 turns it off), and the part of the bound
   * given to local copies of tables (default half; 0 keeps blocks only).
   */
  objectCache?: { dir?: string | undefined; maxBytes?: number | undefined; copyBytes?: number | undefined; blockSize?: number };
  /** What clients receive to open tables themselves; default scoped credentials for an hour. */
  vending?: Vending;
  /** Write to object stores that fail the conditional-create probe (concurrent commits may lose data). */
  allowUnsafeObjectStore?: boolean;
  logger?: FastifyServerOptions["logger"];
  /** Commit table versions through the catalog in the default database. */
  managedVersioning?: boolean;
  /** Authentication; default mode `none` (allowed on loopback hosts only). */
  auth?: AuthConfig;
  /** Job system settings (worker pools, lease); environment defaults otherwise. */
  jobs?: JobSystemConfig;
  /** Attempts of a write whose Lance commits keep conflicting before it answers 409 (default 6). */
  commitAttempts?: number;
  /** Largest Arrow upload of one request in bytes (default 1 GiB). */
  maxUploadBytes?: number;
  /** The memory uploads in flight may hold together (`--upload-memory`); default a quarter of the machine's memory. */
  uploadMemoryBytes?: number;
  /** How long a request waits for an object store before it answers 503 (default 10 s; see `store-timeout.ts`). */
  storeTimeoutMs?: number;
  /** Table folders without a catalog row are removed once unchanged this long (default 1 hour). */
  orphanGraceMs?: number;
  /** Time between two sweeps for such folders while serving, besides the one at start-up (default 1 hour; 0: none). */
  orphanSweepIntervalMs?: number;
  /** Request rate limits per caller and per database, shared by the replicas of a PostgreSQL store; none by default. */
  rateLimits?: RateLimitConfig;
  /** How long an `Idempotency-Key` answers its retries (default 24 hours). */
  idempotencyTtlMs?: number | undefined;
  /** How long a dropped table stays restorable before its data is purged (default 0: deleted at once). */
  dropRetentionMs?: number;
  /** Time between two purges of dropped tables past their retention (default 5 minutes). */
  dropPurgeIntervalMs?: number;
  /** Serve HTTPS (HTTP/1.1 and HTTP/2) with this certificate and key; default plain HTTP. */
  tls?: TlsFiles;
  /** Push change events to these webhook targets, signed with the secret; none by default. */
  eventWebhooks?: WebhookSettings;
  /** How long change events are kept (default 7 days). */
  eventRetentionMs?: number;
  /** Time between two purges of change events past their retention (default 10 minutes). */
  eventPurgeIntervalMs?: number;
  /** Time between two looks at the tables others may write, for commits no one recorded (default a minute; 0: never). */
  outsideCommitCheckIntervalMs?: number;
}

export interface Runtime {
  app: FastifyInstance;
  /** Where databases without a location of their own keep their tables. */
  dataLocation: string;
  store: Store;
  /** The store as auth sees it: credentials, signing key, audit log. */
  authStore: AuthStore;
  engine: Engine;
  /** This runtime's storage: its data location and the databases' own roots, with their options. */
  storages: Storages;
  registry: CatalogRegistry;
  jobs: JobSystem;
  /**
   * Reads the TLS files again and serves connections opened from now on with them; a pair that
   * does not check is logged as an error and the one in use keeps serving. Without TLS, nothing.
   */
  reloadTls(): void;
  /** Stops taking requests, lets in-flight ones finish, then closes the store. */
  close(): Promise<void>;
}

export async function openRuntime(config: RuntimeConfig): Promise<Runtime> {
  // Checked first: a certificate that cannot serve stops the start before the store is opened.
  const tls = config.tls ? readTlsFiles(config.tls) : undefined;
  const jobConfig = jobSettings(config.jobs);
  setConditionalCreateProbe(!config.allowUnsafeObjectStore);
  // Before any root is configured: each takes the timeout when it is.
  setStoreTimeout(config.storeTimeoutMs ?? defaultStoreTimeoutSeconds * 1000);
  const local = await openLocalRoot(config.root, {
    managedVersioning: config.managedVersioning,
    jobs: { pools: jobConfig.pools, autoMaintenance: jobConfig.autoMaintenance },
    commitAttempts: config.commitAttempts,
    store: config.store,
    data: config.data,
    storageOptions: config.storageOptions,
    vending: config.vending,
    dropRetentionMs: config.dropRetentionMs,
    objectCache: objectCacheSettingsOf(config),
  });
  const { root, store, engine, storages, registry } = local;
  restrictMetadataFileAccess(root);
  const databases = (await store.rows.listDatabases()).map((row) => ({ name: row.name, location: databaseStorageRoot(row, local.dataLocation), own: hasOwnLocation(row) }));
  const dataRoots = new Set([local.dataLocation, ...databases.map((database) => database.location)]);
  try {
    // Every location tables are written to is made ready (an emptied store may have lost its
    // container) and probed before serving (see `requireConditionalCreates`).
    for (const dataRoot of dataRoots) {
      await storages.for(dataRoot).preparePrefix(dataRoot);
      await requireConditionalCreates(storages, dataRoot);
    }
  } catch (error) {
    await local.close();
    throw error;
  }
  // Versions committed before a crash but not yet finalized are rolled forward before serving.
  const unsettled: { record: unknown; error: unknown }[] = [];
  await settlePendingVersions(engine.files, store, undefined, (record, error) => unsettled.push({ record, error }));
  const authStore = authStoreOf(store);
  const gate = await buildAuthGate(root, registry, authStore, config.auth ?? { mode: "none" });
  if (gate.access) registry.ownerMayRead = viewOwnerReads(authStore, gate.access);
  let closed = false;
  const readiness = {
    checks: { store: () => store.ping(), data: () => probeWrite(storages, local.dataLocation) },
    draining: () => closed,
  };
  const app = await buildServer({
    registry,
    logger: config.logger ?? false,
    auth: { gate, store: authStore, dataLocation: local.dataLocation },
    readiness,
    maxUploadBytes: config.maxUploadBytes,
    uploadMemoryBytes: config.uploadMemoryBytes,
    metrics: { countJobsByStatus: () => store.rows.countJobsByStatus() },
    readDeadlineMs: storeTimeout(),
    rateLimits: config.rateLimits,
    sharedBudgets:
      store.dialect === "postgres" ? { take: (cells) => store.rows.takeRateLimitCells(cells), forgetWhole: () => store.rows.forgetWholeRateLimitCells() } : undefined,
    idempotencyTtlMs: config.idempotencyTtlMs,
    tls,
  });
  app.log.info({ data: local.dataLocation }, "table data location");
  // Where each database's new tables go; one without a location of its own follows the data location.
  for (const database of databases) app.log.info({ database: database.name, location: database.location, own_location: database.own }, "database location");
  warnOfUnmintableLocations(storages, dataRoots, config.vending, app);
  for (const { database, reason } of await sharedContainerReasons(storages, store, local.dataLocation, config.vending)) app.log.warn({ database }, reason);
  for (const { record, error } of unsettled) app.log.warn({ err: error, record }, "a committed version could not be finalized at start-up; its next reader tries again");
  // Folders left by a create or drop that crashed half-way are reclaimed before serving, then
  // every interval, so a replica that runs for weeks reclaims them too.
  const sweepOptions = { graceMs: config.orphanGraceMs ?? defaultOrphanGraceMs, dataLocation: local.dataLocation };
  const sweepLog: SweepLog = {
    removed: (location) => app.log.info({ location }, "removed an orphaned table folder"),
    failed: (location, error) => app.log.warn({ err: error, location }, "could not remove an orphaned table folder"),
  };
  await sweepOnce(store, engine, sweepOptions, sweepLog);
  const sweeper = startOrphanSweeper(store, engine, { ...sweepOptions, intervalMs: config.orphanSweepIntervalMs ?? defaultOrphanSweepIntervalMs }, {
    ...sweepLog,
    sweepFailed: (error) => app.log.warn({ err: error }, "the orphaned table folder sweep failed; the next one runs on time"),
  });
  // Drops kept for an undrop are purged after their retention; those kept under an earlier, longer
  // retention are purged too when the server now runs with none.
  const purger = startDroppedTablePurger(store, registry, config.dropPurgeIntervalMs ?? defaultDropPurgeIntervalMs, {
    purged: (location) => app.log.info({ location }, "purged a dropped table past its retention"),
    failed: (error) => app.log.warn({ err: error }, "the purge of dropped tables failed; the next one runs on time"),
  });
  // A retention of 0 keeps change events for ever.
  const retentionMs = config.eventRetentionMs ?? defaultEventRetentionMs;
  const eventRetention = startEventRetention(store, retentionMs, retentionMs > 0 ? (config.eventPurgeIntervalMs ?? defaultEventPurgeIntervalMs) : 0, (error) =>
    app.log.warn({ err: error }, "the purge of change events past their retention failed; the next one runs on time"),
  );
  // Delivery, and the `standardwebhooks` signing it, is loaded only when webhooks are configured.
  const webhooks = config.eventWebhooks
    ? (await import("../catalog/events/webhook-delivery.js")).startWebhookDelivery(store, config.eventWebhooks, {
        failed: (target, event, reason, attempt) => app.log.warn({ target, event, reason, attempt }, "a change event was not acknowledged by its webhook target; retrying with backoff"),
        stalled: (error) => app.log.warn({ err: error }, "change-event delivery stopped on a store failure; it resumes shortly"),
      })
    : undefined;
  // Multipart writes a client never completed nor aborted are aborted after their time.
  const uploadExpiry = startPeriodicTask(
    multipartExpiryIntervalMs,
    async () => {
      const expired = await expireMultipartWrites({ store, storages });
      if (expired > 0) app.log.info({ expired }, "aborted multipart writes past their time");
    },
    (error) => app.log.warn({ err: error }, "aborting expired multipart writes failed; the next run is on time"),
  );
  // Commits made around Quiver to tables others may write are recorded, with their events, even when no read looks.
  const outsideCommits = startOutsideCommitCheck(store, registry, config.outsideCommitCheckIntervalMs ?? defaultOutsideCommitCheckIntervalMs, (error) =>
    app.log.warn({ err: error }, "the check for commits made around Quiver failed; the next one runs on time"),
  );
  await warnOfUnappliedManagedVersioning(config, store, app);
  const jobs = startJobSystem(store, registry, jobConfig, { warn: (message, detail) => app.log.warn(detail ?? {}, message) });
  return {
    app,
    dataLocation: local.dataLocation,
    store,
    authStore,
    engine,
    storages,
    registry,
    jobs,
    reloadTls() {
      if (!config.tls) return;
      try {
        reloadTlsFiles(app.server as unknown as SecureContextHolder, config.tls);
        app.log.info({ cert: config.tls.certFile }, "TLS certificate reloaded; new connections use it");
      } catch (error) {
        app.log.error({ err: error }, "TLS certificate reload failed; the previous certificate keeps serving");
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await sweeper.stop();
      await purger.stop();
      await eventRetention.stop();
      await webhooks?.stop();
      await uploadExpiry.stop();
      await outsideCommits.stop();
      await jobs.stop();
      await app.close();
      await local.close();
    },
  };
}

/** The object cache's settings: `<root>/cache`, 10 GiB, unless the config says otherwise. */
function objectCacheSettingsOf(config: RuntimeConfig): ObjectCacheSettings {
  const given = config.objectCache ?? {};
  return {
    dir: path.resolve(given.dir ?? path.join(config.root, "cache")),
    maxBytes: given.maxBytes ?? defaultCacheBytes,
    ...(given.copyBytes === undefined ? {} : { copyBytes: given.copyBytes }),
    ...(given.blockSize === undefined ? {} : { blockSize: given.blockSize }),
  };
}

/**
 * Readiness of the data location: a small object is written and removed, so a location that can
 * be read but no longer written (a full disk, revoked write access) is caught. Each check uses its
 * own name, so replicas sharing the location never touch each other's probe.
 */
async function probeWrite(storages: Storages, dataLocation: string): Promise<void> {
  const storage = storages.for(dataLocation);
  const probe = joinLocation(dataLocation, `.quiver-ready-${randomUUID()}`);
  await storage.put(probe, readinessProbeBytes);
  await storage.delete(probe);
}

const readinessProbeBytes = new TextEncoder().encode("quiver readiness probe\n");

/** Under scoped vending, a location that cannot mint hands clients no credentials; the operator is told why. */
function warnOfUnmintableLocations(storages: Storages, roots: ReadonlySet<string>, vending: Vending | undefined, app: FastifyInstance): void {
  if ((vending ?? defaultVending).mode !== "scoped") return;
  for (const root of roots) {
    if (!storages.canMintFor(root)) {
      app.log.warn({ location: root }, "scoped credentials cannot be minted for this location with its storage options; clients receive none and need their own");
    }
  }
}

/**
 * `--managed-versioning` chooses the mode of the default database when it is created; an existing
 * database keeps the mode it was created with, which the operator is told rather than left to guess.
 */
async function warnOfUnappliedManagedVersioning(config: RuntimeConfig, store: Store, app: FastifyInstance): Promise<void> {
  if (!config.managedVersioning) return;
  const database = await store.rows.findDatabase(defaultDatabaseName);
  if (database && !database.managed_versioning) {
    app.log.warn(
      { database: defaultDatabaseName },
      "managed versioning was asked for, but the default database was created without it and keeps its mode; create a database with managed_versioning to use it",
    );
  }
}

/** Opens a runtime and listens; resolves with the base URL. */
export async function startServer(config: RuntimeConfig & { host: string; port: number }): Promise<Runtime & { url: string }> {
  checkAuthExposure(config.host, config.auth ?? { mode: "none" });
  const runtime = await openRuntime(config);
  try {
    await runtime.app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await runtime.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new Error(`port ${config.port} on ${config.host} is already in use by another process; choose another with --port (0 picks a free one)`);
    if (code === "EADDRNOTAVAIL") throw new Error(`cannot bind ${config.host}: no network interface of this machine has that address; choose another with --host`);
    throw error;
  }
  const address = runtime.app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return { ...runtime, url: `${config.tls ? "https" : "http"}://${host}:${port}` };
}
