/**
 * @module `GET /v1/events` (a Quiver extension, docs/change-events.md): the change events the
 * caller may see, in commit order after a cursor, with an optional long poll; or, with `tail`, the
 * newest of them. A caller scoped to databases sees theirs, each paged by its own numbers; a
 * deployment-wide caller (an admin, or anyone under `--auth none`) sees every database's. What
 * each role sees of an event is `catalog/change-event-visibility.ts`'s to say.
 */
import type { FastifyInstance } from "fastify";
import { type FeedReader, readEvents, readNewestEvents } from "../../catalog/events/event-feed.js";
import type { Principal } from "../../auth/principal.js";
import { invalidInput } from "../../model/catalog-error.js";
import { ChangeEventsQuery, ChangeEventsResponse } from "../../model/change-events.js";
import { json } from "../../model/operations/operation-entry.js";
import { principalOf } from "../auth/auth-gate.js";
import type { ServerServices } from "../services.js";
import { adminOperationDefiner } from "./admin-route-kit.js";

const defaultLimit = 100;

/** The feed's reader for `principal`: deployment-wide with its role, or confined to its grants. */
function readerOf(principal: Principal | undefined): FeedReader {
  if (principal === undefined) return { everyDatabase: "admin" };
  if (principal.everyDatabase !== undefined) return { everyDatabase: principal.everyDatabase };
  return { databases: principal.grants };
}

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
      const reader = readerOf(principalOf(request));
      if (query.tail !== undefined) {
        if (query.after !== undefined || query.limit !== undefined || query.wait !== undefined) {
          throw invalidInput("tail reads the newest events; it takes no after, limit or wait");
        }
        return readNewestEvents(store, query.tail, reader);
      }
      const gone = new AbortController();
      // The answer's stream closes when the caller hangs up (or once the answer is sent).
      reply.raw.once("close", () => gone.abort());
      return readEvents(store, {
        after: query.after,
        limit: query.limit ?? defaultLimit,
        waitMs: (query.wait ?? 0) * 1000,
        reader,
        signal: AbortSignal.any([gone.signal, closing.signal]),
      });
    },
  );
}
