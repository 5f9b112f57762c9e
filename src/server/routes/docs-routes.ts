/**
 * @module `GET /docs`: interactive API docs (Swagger UI) over `/openapi.json`, with its scripts
 * and styles under `/docs/assets/`. Like the console, the page carries no operation, so it is open
 * on every server; calls made from it are authorized like any client's.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { type DocsAsset, loadDocsAssets } from "../docs-assets.js";

/** Same-origin only. Swagger UI sets inline styles on its elements, hence 'unsafe-inline' for styles alone. */
const docsContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

function send(reply: FastifyReply, asset: DocsAsset): FastifyReply {
  return reply.type(asset.contentType).header("x-content-type-options", "nosniff").header("cache-control", "no-cache").send(asset.body);
}

export function docsRoutes(app: FastifyInstance): void {
  const assets = loadDocsAssets();
  app.get("/docs", async (_request, reply) => send(reply.header("content-security-policy", docsContentSecurityPolicy), assets.page));
  app.get("/docs/assets/:file", async (request, reply) => {
    const asset = assets.files.get((request.params as { file: string }).file);
    return asset ? send(reply, asset) : reply.callNotFound();
  });
}
