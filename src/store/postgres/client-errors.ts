/**
 * @module Gives every connection a pool opens a listener for its `error` event. `pg` emits
 * `error` on a client whose socket fails or whose server ends the session (a restart, a
 * fail-over, an idle reaper); the pool listens only while the client is idle, so one checked out
 * (by Kysely for a query or transaction, by a lock holder for its work) would take the process
 * down with an unhandled `error` event. The query in flight, if any, is rejected with the same
 * error and a dead client is dropped when it is released, so the listener has nothing to do.
 */
import type pg from "pg";

const ignore = () => undefined;

/** Makes every client `pool` opens, and the pool itself, survive a lost connection. */
export function listenForClientErrors(pool: pg.Pool): void {
  pool.on("error", ignore);
  pool.on("connect", (client) => client.on("error", ignore));
}
