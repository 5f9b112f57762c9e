/**
 * @module Builds the Quiver HTTP app without listening, so the CLI and tests start the same app.
 */
import { randomUUID } from "node:crypto";
import type { Http2SecureServer } from "node:http2";
import Fastify, { type FastifyHttp2SecureOptions, type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { AuthStore } from "../auth/auth-store.js";
import type { CatalogRegistry } from "../catalog/runtime/database-registry.js";
import { registerBodyParsers } from "./body-parsing.js";
import { resolveCatalog } from "./database-resolution.js";
import { frameworkErrorOptions, registerErrorMapper } from "./error-mapper.js";
import { OperationRegistry } from "./operation-registry.js";
import { registerRequestLog } from "./request-log.js";
import { registerRequestTracing } from "./request-tracing.js";
import { type MetricsSources, registerRequestMetrics } from "./request-metrics.js";
import { registerOperations } from "./route-kit.js";
import { registerUnusedConnectionDrop } from "./unused-connections.js";
import { registerUnreadBodyHandling } from "./unread-body.js";
import { defaultMaxUploadBytes } from "./upload-limit.js";
import { UploadMemoryBudget, defaultUploadMemoryBytes, releaseUploadMemory } from "./upload-memory.js";
import { registerValidation } from "./validation.js";
import { defaultIdempotencyTtlMs, idempotencyLeaseMs } from "../catalog/idempotency-keys.js";
import { serviceRoutes } from "./routes/service-routes.js";
import { capabilitiesRoutes } from "./routes/capabilities-routes.js";
import type { ServerServices } from "./services.js";
import type { AuthGate } from "./auth/auth-gate.js";
import { registerAuditHook } from "./auth/audit-hook.js";
import { adminRoutes } from "./routes/admin-routes.js";
import { oauthRoutes } from "./routes/oauth-routes.js";
import { authzRoutes } from "./routes/authz-routes.js";
import { AuthzAdmin } from "../auth/authz-admin.js";
import { authzObjectExists } from "../catalog/authz-objects.js";
import { consoleRoutes } from "./routes/console-routes.js";
import { docsRoutes } from "./routes/docs-routes.js";
import { eventRoutes } from "./routes/event-routes.js";
import { registerNulCharacterCheck } from "./nul-characters.js";
import { registerIdentifierBounds, routerParamLimit } from "./identifiers.js";
import { type Readiness, readinessRoutes } from "./routes/readiness-routes.js";
import { type RateLimitConfig, RateLimiter, type SharedBudgets } from "./rate-limits.js";

export interface BuildServerOptions {
  registry: CatalogRegistry;
  /** Fastify logger setting; false silences the request log. */
  logger?: FastifyServerOptions["logger"];
  authorize?: ServerServices["authorize"];
  /** Authentication, roles, admin routes and audit; without it every caller may do anything. */
  auth?: { gate: AuthGate; store: AuthStore; dataLocation: string };
  /** What `GET /ready` checks; without it the route is absent. */
  readiness?: Readiness;
  /** Largest Arrow upload of one request in bytes; default 1 GiB. */
  maxUploadBytes?: number | undefined;
  /** The memory uploads in flight may hold together, in bytes; default a quarter of the machine's memory. */
  uploadMemoryBytes?: number | undefined;
  /** What `GET /metrics` reads from the store when scraped (the jobs gauge). */
  metrics?: MetricsSources;
  /** How long a read operation may take before it answers 503 code 17 (see `read-deadline.ts`); none without it. */
  readDeadlineMs?: number;
  /** Request rate limits per caller and per database; none without them. */
  rateLimits?: RateLimitConfig;
  /** Budgets shared with the other replicas (a PostgreSQL store); without them each process keeps its own. */
  sharedBudgets?: SharedBudgets;
  /** How long an `Idempotency-Key` answers its retries; default 24 hours. */
  idempotencyTtlMs?: number | undefined;
  /** A PEM certificate chain and key: the server then speaks HTTPS, HTTP/1.1 and HTTP/2 alike. */
  tls?: { cert: Buffer; key: Buffer };
}

/**
 * The capability level announced to the LanceDB Cloud client (spec/clients.md §2.7): 0.4.0
 * means batched multi-vector queries, structured full-text queries and multipart writes; 0.5.0
 * adds blob reads (fetch_blobs and the ranged blob bytes route). The client gates nothing on a
 * later version, and a higher one would promise whatever a future client gates on it.
 */
const announcedServerVersion = "0.5.0";

export async function buildServer(options: BuildServerOptions): Promise<FastifyInstance> {
  const fastifyOptions = {
    logger: options.logger ?? false,
    disableRequestLogging: true,
    requestIdHeader: "x-request-id",
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: routerParamLimit },
    ...frameworkErrorOptions,
  } satisfies FastifyServerOptions;
  // Over TLS, clients choose HTTP/2 or HTTP/1.1 by ALPN. HTTP/1.1 requests reach the routes as
  // Node's HTTP objects; HTTP/2 ones through its compatibility API, with the same members the
  // hooks use (unread-body.ts and unused-connections.ts tell the two apart where they differ).
  const app = options.tls
    ? (Fastify({ ...fastifyOptions, http2: true, https: { allowHTTP1: true, ...options.tls } } as unknown as FastifyHttp2SecureOptions<Http2SecureServer>) as unknown as FastifyInstance)
    : Fastify(fastifyOptions);
  const gate = options.auth?.gate;
  const services: ServerServices = {
    registry: options.registry,
    operations: new OperationRegistry(),
    maxUploadBytes: options.maxUploadBytes ?? defaultMaxUploadBytes,
    uploadMemory: new UploadMemoryBudget(options.uploadMemoryBytes ?? defaultUploadMemoryBytes()),
    resolveCatalog: (request) => (gate ? gate.catalogFor(request) : resolveCatalog(request, options.registry)),
    authorize: options.authorize ?? (gate ? (request, catalog, op, call) => gate.authorize(request, catalog, op, call) : async () => undefined),
    afterOperation: gate ? (request, catalog, op, call, answer) => gate.afterOperation(request, catalog, op, call, answer) : undefined,
    readDeadlineMs: options.readDeadlineMs,
    idempotency: { ttlMs: options.idempotencyTtlMs ?? defaultIdempotencyTtlMs, leaseMs: idempotencyLeaseMs },
  };
  const limiter = new RateLimiter(options.rateLimits ?? {}, {
    shared: options.sharedBudgets,
    callerOf: async (request) => gate?.principalFor(request),
    warn: (message, error) => app.log.warn({ err: error }, message),
    info: (message) => app.log.info(message),
  });
  if (limiter.active) services.rateLimiter = limiter;

  registerValidation(app);
  registerBodyParsers(app);
  registerErrorMapper(app);
  registerRequestTracing(app);
  registerRequestLog(app);
  registerRequestMetrics(app, options.metrics);
  registerUnusedConnectionDrop(app);
  registerUnreadBodyHandling(app);
  registerNulCharacterCheck(app);
  registerIdentifierBounds(app);
  // What an upload held of the memory budget is given back once it is answered or cut off.
  app.addHook("onResponse", async (request) => releaseUploadMemory(services.uploadMemory, request));
  app.addHook("onRequestAbort", async (request) => releaseUploadMemory(services.uploadMemory, request));
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
    reply.header("phalanx-version", announcedServerVersion);
  });

  if (options.auth) {
    options.auth.gate.install(app);
    registerAuditHook(app, options.auth.store);
  }

  serviceRoutes(app, services);
  capabilitiesRoutes(app, services, gate);
  if (options.readiness) readinessRoutes(app, options.readiness);
  registerOperations(app, services);
  eventRoutes(app, services);
  if (options.auth) {
    const directory = options.auth.gate.access;
    adminRoutes(app, services, options.auth.store, options.auth.dataLocation, directory);
    oauthRoutes(app, services, options.auth.gate);
    if (directory) authzRoutes(app, services, new AuthzAdmin(options.auth.store, directory, (object) => authzObjectExists(options.registry.store, object)));
  }
  consoleRoutes(app);
  docsRoutes(app);
  return app;
}
