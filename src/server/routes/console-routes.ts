/**
 * @module The web console: `GET /console` (the page), `GET /console/assets/{file}` (its scripts
 * and styles), `GET /console/vendor/{package}/{path}` (the libraries it loads, from the installed
 * packages) and `GET /` redirecting to the page. These routes carry no operation, so the auth
 * gate leaves them open; every API call the page makes is an ordinary, authorized request.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { type ConsoleAsset, loadConsoleAssets } from "../console-assets.js";

export const consolePath = "/console";
export const consoleAssetPath = "/console/assets";
export const consoleVendorPath = "/console/vendor";

/**
 * Only same-origin scripts, styles and API calls; no inline script or style, no framing, no
 * form posts elsewhere. `data:` images allow the empty favicon that spares a request; `blob:`
 * images, the row panel's preview of a blob's bytes, read through the API with the connection's key.
 */
export const consoleContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

function send(reply: FastifyReply, asset: ConsoleAsset): FastifyReply {
  return (
    reply
      .type(asset.contentType)
      .header("x-content-type-options", "nosniff")
      .header("referrer-policy", "no-referrer")
      // Revalidated on every load so an upgraded server never runs with a stale script.
      .header("cache-control", "no-cache")
      .send(asset.body)
  );
}

export function consoleRoutes(app: FastifyInstance): void {
  const assets = loadConsoleAssets();
  app.get("/", async (_request, reply) => reply.redirect(consolePath, 302));
  app.get(consolePath, async (_request, reply) => send(reply.header("content-security-policy", consoleContentSecurityPolicy), assets.page));
  app.get(`${consoleAssetPath}/:file`, async (request, reply) => {
    const asset = assets.files.get((request.params as { file: string }).file);
    return asset ? send(reply, asset) : reply.callNotFound();
  });
  app.get(`${consoleVendorPath}/*`, async (request, reply) => {
    const asset = assets.vendor.get((request.params as { "*": string })["*"]);
    return asset ? send(reply, asset) : reply.callNotFound();
  });
}
