/**
 * @module The composition root: opens the metadata store and the engine under a root folder,
 * makes sure the default database exists, and builds the server. The CLI and the tests start
 * Quiver through here.
 */
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import type { CatalogRegistry } from "../catalog/databases.js";
import { openLocalRoot } from "../catalog/local-root.js";
import { settlePendingVersions } from "../catalog/version-records.js";
import type { Engine } from "../engine/engine.js";
import { buildServer } from "../server/build-server.js";
import type { Store } from "../store/store.js";
import { type AuthConfig, buildAuthGate, checkAuthExposure } from "./auth-runtime.js";

export interface RuntimeConfig {
  /** Folder holding the metadata store and every database's table data. */
  root: string;
  logger?: FastifyServerOptions["logger"];
  /** Commit table versions through the catalog in the default database. */
  managedVersioning?: boolean;
  /** Authentication; default mode `none` (allowed on loopback hosts only). */
  auth?: AuthConfig;
}

export interface Runtime {
  app: FastifyInstance;
  store: Store;
  engine: Engine;
  registry: CatalogRegistry;
  /** Stops taking requests, lets in-flight ones finish, then closes the store. */
  close(): Promise<void>;
}

export async function openRuntime(config: RuntimeConfig): Promise<Runtime> {
  const local = await openLocalRoot(config.root, { managedVersioning: config.managedVersioning });
  const { root, store, engine, registry } = local;
  // Versions committed before a crash but not yet finalized are rolled forward before serving.
  await settlePendingVersions(store);
  const gate = buildAuthGate(root, registry, config.auth ?? { mode: "none" });
  const app = await buildServer({ registry, logger: config.logger ?? false, auth: { gate, dataRoot: root } });
  let closed = false;
  return {
    app,
    store,
    engine,
    registry,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await local.close();
    },
  };
}

/** Opens a runtime and listens; resolves with the base URL. */
export async function startServer(config: RuntimeConfig & { host: string; port: number }): Promise<Runtime & { url: string }> {
  checkAuthExposure(config.host, config.auth ?? { mode: "none" });
  const runtime = await openRuntime(config);
  await runtime.app.listen({ host: config.host, port: config.port });
  const address = runtime.app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return { ...runtime, url: `http://${host}:${port}` };
}
