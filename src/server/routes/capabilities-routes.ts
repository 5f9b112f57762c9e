/**
 * @module `GET /v1/capabilities` (a Quiver extension): the capability document of this server.
 * Like `/health` it answers callers without credentials, even under `--auth required`, but then
 * only the deployment-wide protocol facts (version, operations, features, limits): where table
 * data lives and how credentials are vended (`storage`) and the caller's database (`database`)
 * need a credential. A credential that is sent must be valid (401, code 16), and a database it
 * names must be one the caller may read (403, code 15), as on every operation.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { describeCapabilities } from "../../catalog/capabilities.js";
import type { DatabaseInfo } from "../../catalog/catalog-scope.js";
import { Capabilities } from "../../model/capabilities.js";
import { CatalogError } from "../../model/catalog-error.js";
import { ErrorCode } from "../../model/error-codes.js";
import { operations } from "../../model/operations/index.js";
import { type ServedOperation, json } from "../../model/operations/operation-entry.js";
import type { AuthGate } from "../auth/auth-gate.js";
import { credentialsOf } from "../auth/credentials-of.js";
import { jsonBodyLimit } from "../body-parsing.js";
import type { ServerServices } from "../services.js";

const getCapabilities: ServedOperation = {
  operationId: "GetCapabilities",
  summary: "What this server is and serves: version, operations, optional features, limits (Quiver extension)",
  tag: "Service",
  methods: ["GET"],
  path: "/v1/capabilities",
  body: "none",
  response: json(Capabilities),
  access: "read",
};

function sentCredentials(request: FastifyRequest): boolean {
  const { apiKey, bearerToken } = credentialsOf(request);
  return apiKey !== undefined || bearerToken !== undefined;
}

export function capabilitiesRoutes(app: FastifyInstance, services: ServerServices, gate: AuthGate | undefined): void {
  services.operations.add(getCapabilities);
  const served = Object.values(operations).map((entry) => entry.operationId);
  const authMode = gate?.mode ?? "none";
  app.get(getCapabilities.path, async (request) => {
    const identified = authMode === "none" || sentCredentials(request);
    let database: DatabaseInfo | undefined;
    if (identified) {
      if (gate) await gate.principalFor(request);
      database = await addressedDatabase(services, request);
    }
    return describeCapabilities({
      operations: served,
      authMode,
      vending: services.registry.vending,
      objectStores: services.registry.engine.storages.configuredSchemes(),
      jobs: services.registry.jobs,
      maxJsonBodyBytes: jsonBodyLimit,
      maxUploadBytes: services.maxUploadBytes,
      showStorage: identified,
      database,
      changeEvents: true,
    });
  });
}

/**
 * The database the request addresses, once the caller may read it; none when the request names
 * none and the deployment has no default to fall back on (the document is still useful).
 */
async function addressedDatabase(services: ServerServices, request: FastifyRequest): Promise<DatabaseInfo | undefined> {
  try {
    const catalog = await services.resolveCatalog(request);
    await services.authorize(request, catalog, getCapabilities);
    return catalog.database;
  } catch (error) {
    if (error instanceof CatalogError && error.code === ErrorCode.InvalidInput) return undefined;
    throw error;
  }
}
