/**
 * @module Registers one spec operation as a route. Every handler runs the same steps in the
 * same order: resolve the database, parse the id and delimiter, authenticate and authorize,
 * take the validated body, call one catalog function, shape the answer.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Readable } from "node:stream";
import type { CallContext } from "../catalog/catalog-scope.js";
import type { Catalog } from "../catalog/catalog.js";
import { readJsonBody } from "./body-parsing.js";
import { defaultDelimiter, parsePathId, reconcileBodyId } from "./identifiers.js";
import type { OperationDef } from "./operation-registry.js";
import type { ServerServices } from "./services.js";

export interface OperationContext<Body = Record<string, unknown>, Query = Record<string, unknown>> {
  catalog: Catalog;
  /** The path id, reconciled with the body's `id`; `[]` for the root or id-less routes. */
  id: string[];
  delimiter: string;
  body: Body;
  query: Query;
  call: CallContext;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type OperationHandler<Body, Query> = (ctx: OperationContext<Body, Query>) => Promise<unknown>;

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

export function defineOperation<Body = Record<string, unknown>, Query = Record<string, unknown>>(
  app: FastifyInstance,
  services: ServerServices,
  def: OperationDef,
  handler: OperationHandler<Body, Query>,
): void {
  services.operations.add(def);
  for (const url of [def.url, ...(def.aliases ?? [])]) registerRoute(app, services, def, url, handler);
}

function registerRoute<Body, Query>(
  app: FastifyInstance,
  services: ServerServices,
  def: OperationDef,
  url: string,
  handler: OperationHandler<Body, Query>,
): void {
  // Fastify validates no body on GET, so a GET-and-POST JSON operation is two routes; the GET
  // one reads an empty body (spec/clients.md §6.4).
  const bodyMethods = def.body.kind === "json" ? def.methods.filter((m) => m !== "GET") : def.methods;
  if (bodyMethods.length < def.methods.length && bodyMethods.length > 0) {
    registerRoute(app, services, { ...def, methods: ["GET"], body: { kind: "none" } }, url, handler);
  }
  const schema: Record<string, unknown> = {};
  if (def.body.kind === "json") schema.body = def.body.schema;
  if (def.querystring) schema.querystring = def.querystring;
  app.route({
    method: bodyMethods.length > 0 ? bodyMethods : def.methods,
    url,
    schema,
    config: { operation: def },
    preValidation: def.body.kind === "json" ? readJsonBody : undefined,
    handler: async (request, reply) => {
      const catalog = await services.resolveCatalog(request);
      const query = (request.query ?? {}) as Record<string, unknown>;
      const delimiter = typeof query.delimiter === "string" && query.delimiter !== "" ? query.delimiter : defaultDelimiter;
      const params = request.params as { id?: string };
      const pathId = parsePathId(params.id, delimiter);
      await services.authorize(request, catalog, def);
      const body = def.body.kind === "json" ? (request.body as Record<string, unknown>) : ({} as Record<string, unknown>);
      const id = def.body.kind === "json" && "id" in params ? reconcileBodyId(pathId, body.id) : pathId;
      const result = await handler({
        catalog,
        id,
        delimiter,
        body: body as Body,
        query: query as Query,
        call: callContextOf(request, body),
        request,
        reply,
      });
      if (reply.sent) return reply;
      return shapeResponse(reply, def, result);
    },
  });
}

function shapeResponse(reply: FastifyReply, def: OperationDef, result: unknown): FastifyReply {
  reply.status(def.successStatus ?? 200);
  switch (def.response.kind) {
    case "empty":
      return reply.send();
    case "arrow-file":
      // Streamed as produced: large results never sit whole in memory.
      return reply.type("application/vnd.apache.arrow.file").send(Readable.from(result as AsyncIterable<Uint8Array>, { objectMode: false }));
    case "integer":
    case "string":
      // Clients parse these bodies as a bare JSON number or string.
      return reply.type("application/json").send(JSON.stringify(result));
    default:
      return reply.type("application/json").send(result ?? {});
  }
}
