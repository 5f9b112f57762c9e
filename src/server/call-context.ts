/**
 * @module A request's call context (service description: Context): the body's `context` entries
 * and the `x-svc-ctx-<key>` headers, as one map. The request log and the audit log record it.
 */
import type { FastifyRequest } from "fastify";
import type { CallContext } from "../catalog/catalog-scope.js";

const contextHeaderPrefix = "x-svc-ctx-";

/** Body `context` entries and `x-svc-ctx-<key>` headers, as one map (headers win). */
export function callContextOf(request: FastifyRequest, body: unknown): CallContext {
  const context: Record<string, string> = {};
  const bodyContext = (body as { context?: unknown } | undefined)?.context;
  if (bodyContext && typeof bodyContext === "object") {
    for (const [key, value] of Object.entries(bodyContext)) if (typeof value === "string") context[key] = value;
  }
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.startsWith(contextHeaderPrefix) && typeof value === "string") context[name.slice(contextHeaderPrefix.length)] = value;
  }
  return { requestId: request.id, context };
}
