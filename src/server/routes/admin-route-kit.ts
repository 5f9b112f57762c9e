/**
 * @module Registers the admin (non-spec) operations: listed in the OpenAPI document like the
 * spec operations, gated by their own scope (see `RouteScope`), audited when they change state.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ServedOperation } from "../../model/operations/operation-entry.js";
import { readJsonBody } from "../body-parsing.js";
import type { RouteAuthConfig, RouteScope } from "../auth/auth-gate.js";
import { fastifyPath, routeSchema } from "../route-kit.js";
import type { ServerServices } from "../services.js";

/** An admin operation: what it serves, who may call it and whether its calls are audited. */
export interface AdminOperation extends ServedOperation {
  scope: RouteScope;
  audit: boolean;
}

type AdminHandler<Body, Query, Params> = (input: { body: Body; query: Query; params: Params; request: FastifyRequest; reply: FastifyReply }) => Promise<unknown>;

/** Returns `define`, which registers one admin operation on `app`; its answer is JSON. */
export function adminOperationDefiner(app: FastifyInstance, services: ServerServices) {
  return function define<Body, Query, Params>(operation: AdminOperation, handler: AdminHandler<Body, Query, Params>): void {
    services.operations.add(operation);
    const config: RouteAuthConfig = { operation, scope: operation.scope, audit: operation.audit };
    app.route({
      method: [...operation.methods],
      url: fastifyPath(operation.path),
      schema: routeSchema(operation, operation.body === "json"),
      config,
      preValidation: operation.body === "json" ? readJsonBody : undefined,
      handler: async (request, reply) => {
        const result = await handler({
          body: request.body as Body,
          query: (request.query ?? {}) as Query,
          params: request.params as Params,
          request,
          reply,
        });
        if (reply.sent) return reply;
        return reply
          .status(operation.successStatus ?? 200)
          .type("application/json")
          .send(result ?? {});
      },
    });
  };
}
