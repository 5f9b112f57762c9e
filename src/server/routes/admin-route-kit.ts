/**
 * @module Registers one admin (non-spec) operation: listed in the OpenAPI document like the
 * spec operations, gated by its own scope (see `RouteScope`), audited when it changes state.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { readJsonBody } from "../body-parsing.js";
import type { RouteAuthConfig, RouteScope } from "../auth/auth-gate.js";
import type { OperationDef } from "../operation-registry.js";
import type { ServerServices } from "../services.js";

export interface AdminRouteOptions {
  scope: RouteScope;
  audit: boolean;
}

export function defineAdminOperation<Body, Query, Params>(
  app: FastifyInstance,
  services: ServerServices,
  def: OperationDef,
  options: AdminRouteOptions,
  handler: (input: { body: Body; query: Query; params: Params; request: FastifyRequest; reply: FastifyReply }) => Promise<unknown>,
): void {
  services.operations.add(def);
  const schema: Record<string, unknown> = {};
  if (def.body.kind === "json") schema.body = def.body.schema;
  if (def.querystring) schema.querystring = def.querystring;
  const config: RouteAuthConfig = { operation: def, scope: options.scope, audit: options.audit };
  app.route({
    method: def.methods,
    url: def.url,
    schema,
    config,
    preValidation: def.body.kind === "json" ? readJsonBody : undefined,
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
        .status(def.successStatus ?? 200)
        .type("application/json")
        .send(result ?? {});
    },
  });
}
