/**
 * @module Registers the admin (non-spec) operations: listed in the OpenAPI document like the
 * spec operations, gated by their own scope (see `RouteScope`), audited when they change state,
 * and, when they do, run once per `Idempotency-Key` as the catalog operations are.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { CatalogError } from "../../model/catalog-error.js";
import type { ServedOperation } from "../../model/operations/operation-entry.js";
import { readJsonBody } from "../body-parsing.js";
import type { RouteAuthConfig, RouteScope } from "../auth/auth-gate.js";
import { type AnswerSecrets, finishIdempotent, startIdempotent } from "../idempotent-requests.js";
import { fastifyPath, routeSchema } from "../route-kit.js";
import type { ServerServices } from "../services.js";

/** A secret that the answer creating a credential shows once, and the credential's id beside it. */
export interface OneTimeSecret {
  /** The answer's field holding the secret. */
  field: string;
  /** The answer's field naming the credential. */
  idField: string;
  /** What the credential is called in messages. */
  noun: string;
}

/** An admin operation: what it serves, who may call it and whether its calls are audited. */
export interface AdminOperation extends ServedOperation {
  scope: RouteScope;
  /** Whether calls are audited; true exactly for the operations that change state. */
  audit: boolean;
  /** Set when the answer shows a new credential's secret. */
  oneTimeSecret?: OneTimeSecret;
}

/**
 * A credential's secret is kept nowhere, not even in a kept `Idempotency-Key` answer: the store
 * holds only its hash, and a replayed secret would have to be stored readable (encrypting it with
 * a key in the same store, as the token-signing key is, would not change what a copy of the store
 * gives away). So the answer is kept without it, and a retry learns which credential its first
 * request made but not the secret: 409 code 14, naming the credential to revoke.
 */
function shownOnce({ field, idField, noun }: OneTimeSecret): AnswerSecrets {
  return {
    kept: ({ [field]: _secret, ...rest }) => rest,
    replayed: async (kept) => {
      const id = String(kept[idField]);
      throw CatalogError.of("ConcurrentModification", `the first request with this Idempotency-Key created ${noun} '${id}', whose secret was shown only in that answer; revoke it if the answer was lost and create another with a new Idempotency-Key`, {
        detail: `${idField}: ${id}`,
      });
    },
  };
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
      onSend: finishIdempotent,
      handler: async (request, reply) => {
        const params = (request.params ?? {}) as { database?: string };
        const idempotent = { mutating: operation.audit, body: operation.body, database: params.database ?? "", secrets: operation.oneTimeSecret && shownOnce(operation.oneTimeSecret) };
        if (await startIdempotent(request, reply, idempotent, services)) return reply;
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
