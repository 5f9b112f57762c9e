/**
 * @module Records every mutating call in the audit log once its answer is known: who, which
 * database, which operation on what, the outcome with its status and error code, the request
 * id and the call context. It runs after the response is sent, so a failing audit write can
 * never turn a committed change into an error answer; such a failure is logged instead. Calls
 * refused for want of valid credentials (401) are counted per source instead, and written once a
 * minute and at shutdown (see attempt-tally.ts), so that anonymous callers cannot fill the log.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AttemptTally } from "../../auth/attempt-tally.js";
import { recordAudit } from "../../auth/audit.js";
import type { AuthStore } from "../../auth/auth-store.js";
import { requestedDatabase } from "../database-resolution.js";
import { callContextOf } from "../call-context.js";
import { type RouteAuthConfig, gatedCatalogOf, principalOf } from "./auth-gate.js";
import { sourceOf } from "./request-source.js";

const errorCodes = new WeakMap<FastifyRequest, number>();

function isAudited(config: RouteAuthConfig | undefined): config is RouteAuthConfig & Required<Pick<RouteAuthConfig, "operation">> {
  if (!config?.operation) return false;
  return config.audit ?? config.operation.access !== "read";
}

function targetOf(params: Record<string, string | undefined>): string {
  return params.id ?? params.table_name ?? params.key_id ?? params.client_id ?? params.database ?? "";
}

export function registerAuditHook(app: FastifyInstance, store: AuthStore): void {
  const unauthenticated = new AttemptTally(store, (error) => app.log.error({ err: error }, "audit record of unauthenticated attempts lost"));
  app.addHook("onClose", async () => unauthenticated.flush());
  app.addHook("onSend", async (request, reply, payload) => {
    const config = request.routeOptions.config as RouteAuthConfig | undefined;
    if (reply.statusCode >= 400 && isAudited(config) && typeof payload === "string") {
      try {
        const code = (JSON.parse(payload) as { code?: unknown }).code;
        if (typeof code === "number") errorCodes.set(request, code);
      } catch {
        // not an ErrorResponse; the status alone is recorded
      }
    }
    return payload;
  });

  app.addHook("onResponse", async (request, reply) => {
    const config = request.routeOptions.config as RouteAuthConfig | undefined;
    if (config?.operation && reply.statusCode === 401 && !principalOf(request)) {
      unauthenticated.record(sourceOf(request), request.id);
      return;
    }
    if (!isAudited(config)) return;
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    const status = reply.statusCode;
    const database = gatedCatalogOf(request)?.database.name ?? params.database ?? requestedDatabase(request) ?? null;
    try {
      await recordAudit(store, {
        database,
        principal: principalOf(request)?.subject ?? "unauthenticated",
        operation: config.operation.operationId,
        target: targetOf(params),
        outcome: status < 400 ? "ok" : status === 401 || status === 403 ? "denied" : "failed",
        status,
        errorCode: errorCodes.get(request) ?? null,
        requestId: request.id,
        context: callContextOf(request, request.body).context ?? {},
      });
    } catch (error) {
      request.log.error({ err: error, operation: config.operation.operationId }, "audit record lost");
    }
  });
}
