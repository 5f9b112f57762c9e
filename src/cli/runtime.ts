/**
 * @module The composition root: opens the metadata store and the engine under a root folder,
 * makes sure the default database exists, and builds the server. The CLI and the tests start
 * Quiver through here.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import { CatalogRegistry, defaultDatabaseName, ensureDatabase } from "../catalog/databases.js";
import { Engine } from "../engine/engine.js";
import { buildServer } from "../server/build-server.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import type { Store } from "../store/store.js";
import { type JobSystem, startJobSystem } from "../jobs/job-system.js";
import { type JobSystemConfig, jobSettings } from "../jobs/job-settings.js";

export interface RuntimeConfig {
  /** Folder holding the metadata store and every database's table data. */
  root: string;
  logger?: FastifyServerOptions["logger"];
  /** Commit table versions through the catalog in the default database. */
  managedVersioning?: boolean;
  /** Job system settings (worker pools, lease); environment defaults otherwise. */
  jobs?: JobSystemConfig;
}

export interface Runtime {
  app: FastifyInstance;
  store: Store;
  engine: Engine;
  registry: CatalogRegistry;
  jobs: JobSystem;
  /** Stops taking requests, lets in-flight ones finish, then closes the store. */
  close(): Promise<void>;
}

export const metadataFileName = "quiver.sqlite";

export async function openRuntime(config: RuntimeConfig): Promise<Runtime> {
  const root = path.resolve(config.root);
  mkdirSync(root, { recursive: true });
  const store = await openSqliteStore(path.join(root, metadataFileName));
  const engine = new Engine();
  await ensureDatabase(store, root, defaultDatabaseName, { managedVersioning: config.managedVersioning ?? false });
  const jobConfig = jobSettings(config.jobs);
  const registry = new CatalogRegistry(store, engine, { pools: jobConfig.pools });
  const app = await buildServer({ registry, logger: config.logger ?? false });
  const jobs = startJobSystem(store, registry, jobConfig, { warn: (message, detail) => app.log.warn(detail ?? {}, message) });
  let closed = false;
  return {
    app,
    store,
    engine,
    registry,
    jobs,
    async close() {
      if (closed) return;
      closed = true;
      await jobs.stop();
      await app.close();
      engine.close();
      await store.close();
    },
  };
}

/** Opens a runtime and listens; resolves with the base URL. */
export async function startServer(config: RuntimeConfig & { host: string; port: number }): Promise<Runtime & { url: string }> {
  const runtime = await openRuntime(config);
  await runtime.app.listen({ host: config.host, port: config.port });
  const address = runtime.app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return { ...runtime, url: `http://${host}:${port}` };
}
