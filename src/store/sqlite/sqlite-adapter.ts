/**
 * @module SQLite's side of the dialect adapter. One connection serialises every transaction,
 * so there is no lock to take beyond the single writer.
 */
import type { DialectAdapter } from "../dialect-adapter.js";

function sqliteCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : undefined;
}

const busy = (error: unknown) => {
  const code = sqliteCode(error);
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED";
};

export const sqliteAdapter: DialectAdapter = {
  name: "sqlite",
  isUniqueViolation: (error) => {
    const code = sqliteCode(error);
    return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
  },
  isTransient: busy,
  isRetryable: busy,
  rowLocks: false,
  tryLockUntilCommit: async () => true,
};
