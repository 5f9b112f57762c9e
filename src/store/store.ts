/**
 * @module The metadata store interface. The catalog sees only this; SQLite and PostgreSQL
 * implement it with the same row modules over Kysely.
 */
import type { DatabaseRows } from "./rows/database-rows.js";
import type { NamespaceRows } from "./rows/namespace-rows.js";
import type { TableRows } from "./rows/table-rows.js";
import type { CredentialRows } from "./rows/credential-rows.js";
import type { SigningKeyRows } from "./rows/signing-key-rows.js";
import type { AuditRows } from "./rows/audit-rows.js";
import type { TransactionRows } from "./rows/transaction-rows.js";
import type { VersionRows } from "./rows/version-rows.js";
import type { JobRows } from "./rows/job-rows.js";
import type { ViewRows } from "./rows/view-rows.js";
import type { SharedDataRows } from "./rows/shared-data-rows.js";
import type { RateLimitRows } from "./rows/rate-limit-rows.js";
import type { IdempotencyKeyRows } from "./rows/idempotency-key-rows.js";
import type { DroppedTableRows } from "./rows/dropped-table-rows.js";
import type { ChangeEventRows } from "./rows/change-event-rows.js";
import type { MultipartWriteRows } from "./rows/multipart-write-rows.js";
import type { AuthzRows } from "./rows/authz-rows.js";
import type { StoreEvents } from "./store-events.js";
import type { StoreLocks } from "./store-locks.js";

/** Every data-named store function, bound to one connection or transaction. */
export interface StoreTx
  extends DatabaseRows,
    NamespaceRows,
    TableRows,
    CredentialRows,
    SigningKeyRows,
    AuditRows,
    VersionRows,
    TransactionRows,
    JobRows,
    ViewRows,
    SharedDataRows,
    RateLimitRows,
    IdempotencyKeyRows,
    DroppedTableRows,
    ChangeEventRows,
    MultipartWriteRows,
    AuthzRows {}

/** How a dialect's opener opens a store. */
export interface OpenStoreOptions {
  /** Apply pending migrations (default true); `quiver migrate` opens without, then migrates itself. */
  migrate?: boolean;
}

export interface Store extends StoreLocks {
  readonly dialect: "sqlite" | "postgres";
  /**
   * Runs `fn` in one transaction: all its writes commit together or not at all. Inside it use
   * only the given `tx`, and do no object-store or engine I/O: that would hold the transaction
   * (and its locks) open for as long as the I/O takes. A transaction the database rolled back as
   * a serialization failure or deadlock runs again, so `fn` must not act outside `tx`.
   * Unique-key clashes surface as `UniqueViolation`, transient failures as `StoreUnavailable`.
   */
  transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T>;
  /** Store functions outside any transaction (single statements, reads). */
  readonly rows: StoreTx;
  /** Change notices shared by every process on the store. */
  readonly events: StoreEvents;
  /** Resolves when the store answers a query and its change notices are heard; for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
