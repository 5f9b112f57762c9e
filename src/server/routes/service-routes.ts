/**
 * @module Routes about the service itself: liveness and the OpenAPI document. `/livez` is the
 * name Kubernetes probes use, `/healthz` the older one, `/health` Quiver's first; all three say
 * only that the process answers (readiness is `/readyz`).
 */
import type { FastifyInstance } from "fastify";
import { buildOpenApiDocument } from "../openapi.js";
import type { ServerServices } from "../services.js";
import { quiverVersion } from "../version.js";

export function serviceRoutes(app: FastifyInstance, services: ServerServices): void {
  const alive = async () => ({ status: "ok", version: quiverVersion });
  for (const path of ["/livez", "/healthz", "/health"]) app.get(path, alive);
  let document: unknown;
  app.get("/openapi.json", async () => (document ??= buildOpenApiDocument(services.operations.all(), quiverVersion)));
}
