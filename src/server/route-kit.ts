/**
 * @module Registers every entry of the operation table as a route. Every handler runs the same
 * steps in the same order: resolve the database, parse the id and delimiter, authenticate and
 * authorize, take the validated body, call one catalog function, shape the answer.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { Readable } from "node:stream";
import { type HttpMethod, type OperationEntry, type OperationName, type ServedOperation, bodySchemaOf, operations } from "../model/operations/index.js";
import { readJsonBody } from "./body-parsing.js";
import { arrowBody, catalogRequestOf } from "./catalog-request.js";
import { withReadDemand } from "../catalog/read-demand.js";
import { readDemandOfHeaders } from "./read-freshness-headers.js";
import { withinDeadline } from "./read-deadline.js";
import { finishIdempotent, startIdempotent } from "./idempotent-requests.js";
import { answerConditionally } from "./conditional-reads.js";
import { delimiterOf, parsePathId, reconcileBodyId } from "./identifiers.js";
import { type OperationHandler, answerSecrets, catalogMethodHandler, customHandlers } from "./operation-handlers.js";
import type { ServerServices } from "./services.js";
import { limitedUpload, refuseDeclaredOversize, uploadErrorOr } from "./upload-limit.js";
import { budgetErrorOr, budgetedUpload } from "./upload-memory.js";

/** Fastify's form of an OpenAPI path template: `{id}` becomes `:id`. */
export function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

/** The schemas Fastify validates a route's body (when it reads one) and query string with. */
export function routeSchema(served: ServedOperation, jsonBody: boolean): Record<string, unknown> {
  const schema: Record<string, unknown> = {};
  if (jsonBody) schema.body = bodySchemaOf(served);
  if (served.querySchema) schema.querystring = served.querySchema;
  return schema;
}

/** Routes every operation of the table, at its path and its aliases. */
export function registerOperations(app: FastifyInstance, services: ServerServices): void {
  for (const name of Object.keys(operations) as OperationName[]) {
    const entry: OperationEntry = operations[name];
    const handler = customHandlers[name] ?? catalogMethodHandler(name);
    services.operations.add(entry);
    for (const path of [entry.path, ...(entry.aliases ?? [])]) {
      const route = { app, services, name, entry, url: fastifyPath(path), handler };
      // Fastify validates no body on GET, so a GET-and-POST JSON operation is two routes; the GET
      // one reads an empty body (spec/clients.md §6.4).
      const bodyMethods = entry.body === "json" ? entry.methods.filter((method) => method !== "GET") : entry.methods;
      if (bodyMethods.length < entry.methods.length && bodyMethods.length > 0) registerRoute(route, ["GET"], false);
      registerRoute(route, bodyMethods.length > 0 ? bodyMethods : entry.methods, entry.body === "json");
    }
  }
}

interface Route {
  app: FastifyInstance;
  services: ServerServices;
  name: OperationName;
  entry: OperationEntry;
  url: string;
  handler: OperationHandler;
}

function registerRoute({ app, services, name, entry, url, handler }: Route, methods: readonly HttpMethod[], jsonBody: boolean): void {
  app.route({
    method: [...methods],
    url,
    schema: routeSchema(entry, jsonBody),
    config: { operation: entry },
    preValidation: jsonBody ? readJsonBody : undefined,
    // An upload declared too large is refused before a byte of it is read.
    preParsing: entry.body === "arrow" ? async (http) => refuseDeclaredOversize(http, services.maxUploadBytes) : undefined,
    onSend: finishIdempotent,
    handler: async (http, reply) => {
      const catalog = await services.resolveCatalog(http);
      const query = (http.query ?? {}) as Record<string, unknown>;
      const delimiter = delimiterOf(query);
      const params = http.params as Record<string, string>;
      const pathId = parsePathId(params.id, delimiter);
      const body = jsonBody ? (http.body as Record<string, unknown>) : {};
      const id = jsonBody && "id" in params ? reconcileBodyId(pathId, body.id) : pathId;
      const request = catalogRequestOf(entry, { id, delimiter, body, query, params });
      if (entry.access === "read") withReadDemand(request, readDemandOfHeaders(http, reply));
      await services.authorize(http, catalog, entry, { id, request });
      await services.rateLimiter?.admit(http, reply, catalog);
      if (entry.body === "arrow") http.body = budgetedUpload(services.uploadMemory, http, limitedUpload(http, arrowBody(http.body), services.maxUploadBytes));
      const call = { name, entry, catalog, request, id, delimiter, body, query, http, reply, services };
      const idempotent = { mutating: entry.access !== "read", body: entry.body, database: catalog.database.name, secrets: answerSecrets[name]?.(call) };
      if (await startIdempotent(http, reply, idempotent, services)) return reply;
      const answer = async () => {
        let result: unknown;
        try {
          result = await handler(call);
        } catch (error) {
          throw budgetErrorOr(http, uploadErrorOr(http, error));
        }
        if (services.afterOperation) result = await services.afterOperation(http, catalog, entry, { id, request }, result);
        if (reply.sent || answerConditionally(http, reply, { name, catalog, id, answer: result })) return reply;
        return await shapeResponse(reply, entry, result);
      };
      // Local folders have no outages to wait out, and a long scan of one must not be cut short.
      const deadline = entry.access === "read" && catalog.onObjectStore ? services.readDeadlineMs : undefined;
      return await withinDeadline(deadline, reply, answer());
    },
  });
}

/** An Arrow result up to this size goes out whole, with its length; a larger one streams as produced. */
const wholeArrowResultBytes = 1 << 20;

async function shapeResponse(reply: FastifyReply, entry: OperationEntry, result: unknown): Promise<FastifyReply> {
  reply.status(entry.successStatus ?? 200);
  switch (entry.response.kind) {
    case "empty":
      return reply.send();
    case "arrow-file": {
      // Large results never sit whole in memory; small ones (most) avoid a chunked stream's writes.
      const whole = await wholeOrStreamed(result as AsyncIterable<Uint8Array>, wholeArrowResultBytes);
      // A read past its deadline was answered meanwhile (read-deadline.ts).
      if (reply.sent) return reply;
      return reply.type("application/vnd.apache.arrow.file").send(whole);
    }
    case "arrow-stream": {
      const body = result instanceof Uint8Array ? Buffer.from(result) : Readable.from((result as { chunks: AsyncIterable<Uint8Array> }).chunks, { objectMode: false });
      return reply.type("application/vnd.apache.arrow.stream").send(body);
    }
    case "integer":
    case "string":
      // Clients parse these bodies as a bare JSON number or string.
      return reply.type("application/json").send(JSON.stringify(result));
    default:
      return reply.type("application/json").send(result ?? {});
  }
}

/** The chunks as one buffer when they end within `limit` bytes; otherwise a stream of them all. */
async function wholeOrStreamed(chunks: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer | Readable> {
  const iterator = chunks[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  for (let size = 0; size <= limit; ) {
    const next = await iterator.next();
    if (next.done) return Buffer.concat(head);
    head.push(next.value);
    size += next.value.length;
  }
  async function* all(): AsyncGenerator<Uint8Array> {
    yield* head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return Readable.from(all(), { objectMode: false });
}
