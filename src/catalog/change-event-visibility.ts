/**
 * @module What a reader of the change-event feed may see of each event, by the event's type and
 * the role the reader holds on the event's database: the event whole, the event with some of its
 * `data` left out, or nothing. Declared once, here; the feed asks `viewOf` for every event it
 * answers, so a finer rule (per namespace or table) hooks in there.
 *
 * An event's audience is the least role that sees it. Each database numbers the events of each
 * audience on their own (`audienceOf`, when the event is written), and a reader pages by the
 * numbers of the audiences its role reads (`audiencesSeenBy`): the numbers it sees run on with
 * no gap where an event it may not see was written. A rule that later changes who sees an
 * event at all numbers only the events written afterwards in the new audience; `viewOf` still
 * judges every event answered, so the ones kept are never shown to a role they are hidden from.
 *
 * The rules follow what each role may ask for elsewhere (docs/auth.md):
 * - Key administration (`key.*`) is the database's admins' business: ListApiKeys and
 *   ListOAuthClients are theirs alone. So are grants and role bindings (`grant.*`, `role.*`).
 * - Table locations need `write`. A reader can describe a live table, but an event's location may
 *   be that of a table dropped since, and dropped tables (their locations, their kept drops) are
 *   listed to writers only (ListDroppedTables); the feed cannot tell, so it leaves them out.
 * - A database's location stays: every role of it reads it in ListDatabases.
 */
import { type Access, accessAllows, accessLevels } from "../model/operations/operation-entry.js";
import type { ChangeKind } from "./change-events.js";

/** What a rule keeps from roles below the one it names. */
interface VisibilityRule {
  /** The least role that sees the event at all (default: every role). */
  event?: Access;
  /** `data` fields left out for roles below `fieldsFor`. */
  fields?: readonly string[];
  fieldsFor?: Access;
}

const tableLocation: VisibilityRule = { fields: ["location"], fieldsFor: "write" };
const keptDrop: VisibilityRule = { fields: ["location", "dropped_id", "purge_at"], fieldsFor: "write" };

/** The rules; a type not listed is seen whole by every role. */
const rules: Partial<Record<ChangeKind, VisibilityRule>> = {
  "key.created": { event: "admin" },
  "key.revoked": { event: "admin" },
  "grant.added": { event: "admin" },
  "grant.deleted": { event: "admin" },
  "role.bound": { event: "admin" },
  "role.unbound": { event: "admin" },
  "table.created": tableLocation,
  "table.declared": tableLocation,
  "table.registered": tableLocation,
  "table.cloned": tableLocation,
  "view.created": tableLocation,
  "table.dropped": keptDrop,
  "table.deregistered": keptDrop,
  "table.undropped": keptDrop,
};

const atLeast = (held: Access, needed: Access | undefined) => needed === undefined || accessAllows(held, needed);

/** What `role` sees of an event: hidden, or shown without the `data` fields named. */
export type EventView = { visible: false } | { visible: true; withoutFields: readonly string[] };

/** What a reader holding `role` on the event's database sees of an event of `kind`. */
export function viewOf(kind: ChangeKind, role: Access): EventView {
  const rule = rules[kind];
  if (rule === undefined) return { visible: true, withoutFields: [] };
  if (!atLeast(role, rule.event)) return { visible: false };
  return { visible: true, withoutFields: atLeast(role, rule.fieldsFor) ? [] : (rule.fields ?? []) };
}

/** The least role that sees an event of `kind`: the audience it is numbered in. */
export function audienceOf(kind: ChangeKind): Access {
  return rules[kind]?.event ?? "read";
}

/** Every audience some event has: `read`, and each role a rule names for seeing an event at all. */
const audiences: readonly Access[] = accessLevels.filter((role) => role === "read" || Object.values(rules).some((rule) => rule.event === role));

/** The audiences whose events `role` sees. */
export function audiencesSeenBy(role: Access): Access[] {
  return audiences.filter((audience) => atLeast(role, audience));
}

/** The event (a parsed CloudEvent) as `view` shows it. */
export function shownEvent(event: { data?: Record<string, unknown> }, view: EventView & { visible: true }): unknown {
  if (view.withoutFields.length === 0 || event.data === undefined) return event;
  const data = Object.fromEntries(Object.entries(event.data).filter(([key]) => !view.withoutFields.includes(key)));
  return { ...event, data };
}
