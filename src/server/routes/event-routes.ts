/**
 * @module `GET /v1/events` (a Quiver extension, docs/change-events.md): the change events the
 * caller may see, in commit order after a cursor, with an optional long poll; or, with `tail`, the
 * newest of them. A caller scoped to
 * databases sees theirs; a deployment-wide caller (an admin, or anyone under `--auth none`) sees
 * every database's.
 */
import type { FastifyInstance } from "fastify";
import { readEvents, readNewestEvents } from "../../catalog/events/event-feed.js";
import { invalidInput } from "../../model/catalog-error.js";
import { ChangeEventsQuery, ChangeEventsResponse } from "../../model/change-events.js";
import { json } from "../../model/operations/operation-entry.js";
import { principalOf } from "../auth/auth-gate.js";
import type { ServerServices } from "../services.js";
import { adminOperationDefiner } from "./admin-route-kit.js";

const defaultLimit = 100;

export function eventRoutes(app: FastifyInstance, services: ServerServices): void {
  const store = services.registry.store;
  const define = adminOperationDefiner(app, services);
  // A closing server ends the long polls at once rather than waiting out their `wait`.
  const closing = new AbortController();
  app.addHook("preClose", async () => closing.abort());

  define<unknown, ChangeEventsQuery, unknown>(
    {
      operationId: "ListChangeEvents",
      summary: "Change events after a cursor, in commit order, waiting up to `wait` seconds for one; or the newest `tail` (Quiver extension)",
      tag: "Events",
      methods: ["GET"],
      path: "/v1/events",
      body: "none",
      querySchema: ChangeEventsQuery,
      response: json(ChangeEventsResponse),
      access: "read",
      scope: "authenticated",
      audit: false,
    },
    async ({ query, request, reply }) => {
      const principal = principalOf(request);
      const databases = principal === undefined || principal.everyDatabase !== undefined ? undefined : [...principal.grants.keys()];
      if (query.tail !== undefined) {
        if (query.after !== undefined || query.limit !== undefined || query.wait !== undefined) {
          throw invalidInput("tail reads the newest events; it takes no after, limit or wait");
        }
        return readNewestEvents(store, query.tail, databases);
      }
      const gone = new AbortController();
      // The answer's stream closes when the caller hangs up (or once the answer is sent).
      reply.raw.once("close", () => gone.abort());
      return readEvents(store, {
        after: query.after,
        limit: query.limit ?? defaultLimit,
        waitMs: (query.wait ?? 0) * 1000,
        databases,
        signal: AbortSignal.any([gone.signal, closing.signal]),
      });
    },
  );
}
