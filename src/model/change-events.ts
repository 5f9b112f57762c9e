/**
 * @module Models of the change-event feed, `GET /v1/events` (a Quiver extension): CloudEvents 1.0
 * in JSON, in commit order, after an opaque cursor.
 */
import { Type, type Static } from "@sinclair/typebox";

export const ChangeEventsQuery = Type.Object({
  after: Type.Optional(Type.String({ description: "The `next` of an earlier answer; absent: from the oldest event kept" })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: "Most events answered; default 100" })),
  wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 60, description: "Seconds to wait for an event when none is there yet (long poll); default 0" })),
  tail: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: "The newest `tail` events instead, still in commit order, answered at once; not with `after`, `limit` or `wait`" }),
  ),
});
export type ChangeEventsQuery = Static<typeof ChangeEventsQuery>;

export const ChangeEvent = Type.Object(
  {
    specversion: Type.Literal("1.0"),
    id: Type.String(),
    source: Type.String(),
    type: Type.String({ description: "io.quiver.<object>.<change>, e.g. io.quiver.table.version.created" }),
    subject: Type.String({ description: "The database, then the namespace or table identifier joined with $: default/sales$orders" }),
    time: Type.String({ format: "date-time" }),
    datacontenttype: Type.Literal("application/json"),
    data: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: "ChangeEvent", additionalProperties: true },
);

export const ChangeEventsResponse = Type.Object(
  {
    events: Type.Array(ChangeEvent),
    next: Type.String({ description: "The cursor to pass as `after` next time; the same as `after` when no event came" }),
  },
  { $id: "ChangeEventsResponse" },
);
export type ChangeEventsResponse = Static<typeof ChangeEventsResponse>;
