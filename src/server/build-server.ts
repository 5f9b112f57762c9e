/**
 * @module Builds the Quiver HTTP app without listening, so the CLI and tests start the same app.
 */
import { randomUUID } from "node:crypto";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { CatalogRegistry } from "../catalog/databases.js";
import { sharedSchemas, JsonArrowSchema } from "../model/schema-json.js";
import { registerBodyParsers } from "./body-parsing.js";
import { resolveCatalog } from "./database-resolution.js";
import { registerErrorMapper } from "./error-mapper.js";
import { OperationRegistry } from "./operation-registry.js";
import { registerRequestLog } from "./request-log.js";
import { registerValidation } from "./validation.js";
import { extendedRoutes } from "./routes/extended-routes.js";
import { namespaceRoutes } from "./routes/namespace-routes.js";
import { serviceRoutes } from "./routes/service-routes.js";
import { tableRoutes } from "./routes/table-routes.js";
import { materializedViewRoutes } from "./routes/materialized-view-routes.js";
import { jobRoutes } from "./routes/job-routes.js";
import type { ServerServices } from "./services.js";

export interface BuildServerOptions {
  registry: CatalogRegistry;
  /** Fastify logger setting; false silences the request log. */
  logger?: FastifyServerOptions["logger"];
  authorize?: ServerServices["authorize"];
}

/**
 * The capability level announced to the LanceDB Cloud client (spec/clients.md §2.7): 0.3.0
 * means batched multi-vector queries and structured full-text queries, and no multipart upload.
 */
const announcedServerVersion = "0.3.0";

export async function buildServer(options: BuildServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    disableRequestLogging: true,
    requestIdHeader: "x-request-id",
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 4096 },
  });
  const services: ServerServices = {
    registry: options.registry,
    operations: new OperationRegistry(),
    resolveCatalog: (request) => resolveCatalog(request, options.registry),
    authorize: options.authorize ?? (async () => undefined),
  };

  registerValidation(app, [...sharedSchemas, JsonArrowSchema]);
  registerBodyParsers(app);
  registerErrorMapper(app);
  registerRequestLog(app);
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
    reply.header("phalanx-version", announcedServerVersion);
  });

  serviceRoutes(app, services);
  namespaceRoutes(app, services);
  tableRoutes(app, services);
  extendedRoutes(app, services);
  materializedViewRoutes(app, services);
  jobRoutes(app, services);
  return app;
}
