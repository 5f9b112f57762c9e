/**
 * @module Routes about the service itself: health and the OpenAPI document.
 */
import type { FastifyInstance } from "fastify";
import { buildOpenApiDocument } from "../openapi.js";
import type { ServerServices } from "../services.js";
import { quiverVersion } from "../version.js";

export function serviceRoutes(app: FastifyInstance, services: ServerServices): void {
  app.get("/health", async () => ({ status: "ok", version: quiverVersion }));
  let document: unknown;
  app.get("/openapi.json", async () => (document ??= buildOpenApiDocument(services.operations.all(), quiverVersion)));
}
