/**
 * @module Change events: every committed change of the catalog, as a CloudEvents 1.0 event in the
 * store's outbox (`change_events`). A change writes its event with `recordChange` inside the
 * store transaction that records the change, so the two commit or roll back together. A change
 * Lance commits first (rows, schema, indexes, tags) is recorded, event included, by the
 * transaction record written right after the engine's commit (`recordCommittedWrite`).
 */
import { randomUUID } from "node:crypto";
import type * as CloudEvents from "cloudevents";
import type { StoreTx } from "../store/store.js";
import type { NewChangeEvent } from "../store/rows/change-event-rows.js";
import { audienceOf } from "./change-event-visibility.js";

/** The prefix of every event type. */
export const eventTypePrefix = "io.quiver.";

/** What changed, as the suffix of the event type (`io.quiver.table.version.created`). */
export type ChangeKind =
  | "namespace.created"
  | "namespace.dropped"
  | "table.created"
  | "table.declared"
  | "table.registered"
  | "table.cloned"
  | "table.dropped"
  | "table.deregistered"
  | "table.renamed"
  | "table.restored"
  | "table.undropped"
  | "table.version.created"
  | "table.version.undone"
  | "table.versions.deleted"
  | "table.schema.changed"
  | "table.index.created"
  | "table.index.dropped"
  | "table.maintained"
  | "table.tag.created"
  | "table.tag.updated"
  | "table.tag.deleted"
  | "table.branch.created"
  | "table.branch.deleted"
  | "view.created"
  | "view.refreshed"
  | "database.created"
  | "database.dropped"
  | "key.created"
  | "key.revoked"
  | "grant.added"
  | "grant.deleted"
  | "role.bound"
  | "role.unbound";

export interface Change {
  kind: ChangeKind;
  /** The database changed, or `""` for a deployment-wide change (a credential of every database, a role binding). */
  database: string;
  /** The subject when it names no namespace or table (a credential); else `subjectOf`'s. */
  subject?: string;
  /** The namespace or table changed, as its identifier; absent for a database or key change. */
  object?: readonly string[];
  /** What the event's `data` says besides `database` and `id`. */
  data?: Record<string, unknown>;
}

/**
 * The event's subject: the database, then the object's identifier joined with `$` (the
 * namespace delimiter of the REST API), e.g. `default/sales$orders`.
 */
export function subjectOf(database: string, object?: readonly string[]): string {
  return object === undefined || object.length === 0 ? database : `${database}/${object.join("$")}`;
}

let loadingCloudEvents: Promise<typeof CloudEvents> | undefined;

/** `cloudevents`, loaded with the first change recorded rather than at start-up. */
function cloudEvents(): Promise<typeof CloudEvents> {
  loadingCloudEvents ??= import("cloudevents");
  return loadingCloudEvents;
}

/** The outbox row of `change`, happening now: a CloudEvent checked by the `cloudevents` package. */
export async function changeEventOf(change: Change, now = new Date()): Promise<NewChangeEvent> {
  const { CloudEvent } = await cloudEvents();
  const event = new CloudEvent({
    id: randomUUID(),
    source: change.database === "" ? "/quiver" : `/quiver/databases/${encodeURIComponent(change.database)}`,
    type: `${eventTypePrefix}${change.kind}`,
    subject: change.subject ?? subjectOf(change.database, change.object),
    time: now.toISOString(),
    datacontenttype: "application/json",
    data: { database: change.database, ...(change.object ? { id: [...change.object] } : {}), ...change.data },
  });
  return { id: event.id, database: change.database, audience: audienceOf(change.kind), type: event.type, subject: event.subject as string, time: now.getTime(), event: JSON.stringify(event) };
}

/** Writes `change`'s event with the transaction `tx` that records the change. */
export async function recordChange(tx: StoreTx, change: Change): Promise<void> {
  await tx.appendChangeEvent(await changeEventOf(change));
}
