/**
 * @module PostgreSQL's side of the dialect adapter: SQLSTATE codes classify errors, row locks
 * and advisory locks make read-modify-write exact under READ COMMITTED with several replicas.
 */
import { sql } from "kysely";
import type { DialectAdapter } from "../dialect-adapter.js";

function sqlState(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : undefined;
}

/** serialization_failure, deadlock_detected: the transaction was rolled back and may run again. */
const retryableStates = new Set(["40001", "40P01"]);
/**
 * Lock timeouts, too many connections, the server shutting down, starting or ending sessions
 * (restart, fail-over, idle reapers), and sockets that could not be opened or were lost.
 */
const unavailableStates = new Set([
  "55P03",
  "53300",
  "57P01",
  "57P02",
  "57P03",
  "57P05",
  "25P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
/** What `pg` says, without a code, when a connection ends, cannot be opened in time, or was lost earlier. */
const lostConnection = /Connection terminated|timeout exceeded when trying to connect|is not queryable|^timeout expired$/i;

/** Whether `error` says the store cannot serve now (out of reach, restarting, busy), rather than that a statement is wrong. */
export function isUnavailable(error: unknown): boolean {
  return unavailableStates.has(sqlState(error) ?? "") || lostConnection.test(String((error as Error)?.message));
}

export const postgresAdapter: DialectAdapter = {
  name: "postgres",
  isUniqueViolation: (error) => sqlState(error) === "23505",
  isTransient: (error) => {
    return retryableStates.has(sqlState(error) ?? "") || isUnavailable(error);
  },
  isRetryable: (error) => retryableStates.has(sqlState(error) ?? ""),
  rowLocks: true,
  async tryLockUntilCommit(db, key) {
    const { rows } = await sql<{ taken: boolean }>`select pg_try_advisory_xact_lock(hashtextextended(${key}, 0)) as taken`.execute(db);
    return rows[0]?.taken === true;
  },
};
