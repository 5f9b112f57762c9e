/**
 * @module What differs between metadata-store dialects, as capabilities and hooks rather than
 * `if (postgres)` at call sites.
 */
import type { Kysely } from "kysely";

export interface DialectAdapter {
  readonly name: "sqlite" | "postgres";
  /** Whether the driver reports this error as a unique-key violation. */
  isUniqueViolation(error: unknown): boolean;
  /** Whether the error means "busy, try again" (SQLITE_BUSY, serialization failure, lost connection...). */
  isTransient(error: unknown): boolean;
  /**
   * Whether the error rolled the whole transaction back for a reason a second run can avoid
   * (serialization failure, deadlock, busy file): the transaction is then run again.
   */
  isRetryable(error: unknown): boolean;
  /**
   * Whether `SELECT … FOR UPDATE [SKIP LOCKED]` exists. Without it (SQLite) the single writer
   * already serialises every transaction, so a plain read inside one is as good as a row lock.
   */
  readonly rowLocks: boolean;
  /**
   * Takes the lock named `key` until the surrounding transaction ends, if no other transaction
   * holds it; answers whether it did (PostgreSQL: an advisory lock). Always true where the single
   * writer serialises transactions.
   */
  tryLockUntilCommit(db: Kysely<any>, key: string): Promise<boolean>;
}
