/**
 * @module The feed's cursors (`after`, `next`). A deployment-wide reader sees every database, so
 * its cursor is the number across databases (`seq`), a decimal: `"42"`. A reader confined to
 * some databases gets each stream's own number instead (`database_seq`: one database's events of
 * one audience), so that no cursor it is given moves with changes it cannot read: `"sales:17"`
 * for a reader of `sales`, `"sales:17,sales/admin:2"` for its admin (key administration, which
 * only admins see, is numbered apart), entries sorted, names percent-encoded. A stream the
 * cursor does not name is read from its start.
 */
import { invalidInput } from "../../model/catalog-error.js";
import type { EventStream } from "../../store/rows/change-event-rows.js";

/** Longest number a cursor may hold (within a double's exact integers). */
const number = /^\d{1,15}$/;

/** Parses a deployment-wide reader's cursor: the `seq` of the last event read. Throws 13 for anything else. */
export function parseGlobalCursor(after: string | undefined): number {
  if (after === undefined || after === "") return 0;
  if (number.test(after)) return Number(after);
  if (/^[^,]+:\d+(,[^,]+:\d+)*$/.test(after)) {
    throw invalidInput("after is a cursor of some databases' events; a deployment-wide credential reads every database's: start again without after (or with tail)");
  }
  throw invalidInput(`after must be the 'next' cursor of an earlier answer; got ${JSON.stringify(after)}`);
}

/** A stream's name in a cursor: the database, then `/` and the audience unless it is `read`. */
function streamName(stream: EventStream): string {
  const database = encodeURIComponent(stream.database);
  return stream.audience === "read" ? database : `${database}/${stream.audience}`;
}

/**
 * Parses a confined reader's cursor into its position in each of `streams`, in their order (0
 * for those it does not name; names outside `streams` are passed over). Throws 13 for anything
 * else, saying so plainly for a decimal: a cursor across every database, from a deployment-wide
 * credential or from before databases numbered their own events.
 */
export function parseStreamCursor(after: string | undefined, streams: readonly EventStream[]): number[] {
  const named = new Map<string, number>();
  if (after !== undefined && after !== "") {
    if (number.test(after)) {
      throw invalidInput(
        "after is a cursor across every database's events; this credential's cursors count each database's events on their own: start again without after (or with tail)",
      );
    }
    for (const entry of after.split(",")) {
      const colon = entry.lastIndexOf(":");
      const position = entry.slice(colon + 1);
      if (colon <= 0 || !number.test(position)) throw invalidInput(`after must be the 'next' cursor of an earlier answer; got ${JSON.stringify(after)}`);
      named.set(entry.slice(0, colon), Number(position));
    }
  }
  return streams.map((stream) => named.get(streamName(stream)) ?? 0);
}

/** A confined reader's cursor at `positions` in `streams`. */
export function formatStreamCursor(streams: readonly EventStream[], positions: readonly number[]): string {
  return streams
    .map((stream, index) => [streamName(stream), positions[index] ?? 0] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, position]) => `${name}:${position}`)
    .join(",");
}
