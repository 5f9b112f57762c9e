/**
 * @module The Store implementation shared by both dialects: Kysely compiles each row module's
 * queries for the dialect; the adapter classifies driver errors and supplies the locks.
 */
import type { Kysely } from "kysely";
import type { DialectAdapter } from "./dialect-adapter.js";
import { databaseRows } from "./rows/database-rows.js";
import { namespaceRows } from "./rows/namespace-rows.js";
import { tableRows } from "./rows/table-rows.js";
import { credentialRows } from "./rows/credential-rows.js";
import { signingKeyRows } from "./rows/signing-key-rows.js";
import { auditRows } from "./rows/audit-rows.js";
import { transactionRows } from "./rows/transaction-rows.js";
import { versionRows } from "./rows/version-rows.js";
import { jobRows } from "./rows/job-rows.js";
import { viewRows } from "./rows/view-rows.js";
import { sharedDataRows } from "./rows/shared-data-rows.js";
import { rateLimitRows } from "./rows/rate-limit-rows.js";
import { multipartWriteRows } from "./rows/multipart-write-rows.js";
import { authzRows } from "./rows/authz-rows.js";
import { idempotencyKeyRows } from "./rows/idempotency-key-rows.js";
import { droppedTableRows } from "./rows/dropped-table-rows.js";
import { changeEventRows, changeEventsTopic } from "./rows/change-event-rows.js";
import type { Database } from "./schema.js";
import type { Store, StoreTx } from "./store.js";
import type { StoreEvents } from "./store-events.js";
import type { LockedWork, StoreLocks } from "./store-locks.js";
import { StoreUnavailable, UniqueViolation } from "./store-errors.js";
import { migrateToLatest } from "./migrations/migrate.js";
import { type SnapshotInfo, type SnapshotSink, readSnapshot } from "./snapshot/read-snapshot.js";
import { type SnapshotSource, loadSnapshot } from "./snapshot/load-snapshot.js";
import { storeCallDuration } from "../metrics/metrics.js";
import { timed, withTimedMethods } from "../metrics/timed.js";
import { type SpanAttributes, inSpan, withSpans } from "../tracing/spans.js";
import { type BackoffPolicy, retrying } from "../model/retry.js";

/** Runs of one transaction the database rolled back as a serialization failure or deadlock. */
const transactionAttempts = 5;
/** Waits of up to 20, 40, 80 and 160 ms, drawn at random so the transactions that collided do not collide again. */
const transactionBackoff: BackoffPolicy = { firstMs: 20, jitter: [0, 1] };

/** The row modules, each making its functions over a Kysely instance: the store's own or a transaction's. */
const rowModules: ((db: Kysely<Database>, adapter: DialectAdapter) => Partial<StoreTx>)[] = [
  (db) => databaseRows(db),
  (db) => namespaceRows(db),
  (db, adapter) => tableRows(db, adapter),
  (db) => credentialRows(db),
  (db) => signingKeyRows(db),
  (db) => auditRows(db),
  (db) => versionRows(db),
  (db) => transactionRows(db),
  (db, adapter) => jobRows(db, adapter),
  (db) => viewRows(db),
  (db) => sharedDataRows(db),
  (db, adapter) => rateLimitRows(db, adapter.name),
  (db) => idempotencyKeyRows(db),
  (db) => droppedTableRows(db),
  (db, adapter) => changeEventRows(db, adapter.name),
  (db) => multipartWriteRows(db),
  (db) => authzRows(db),
];

/** Which row module makes each row function, by the function's name. */
function rowModuleIndex(rows: readonly Partial<StoreTx>[]): Map<string, number> {
  return new Map(rows.flatMap((functions, index) => Object.keys(functions).map((name) => [name, index] as const)));
}

/**
 * A transaction's rows, each module bound to the transaction when one of its functions is first
 * asked for: a transaction touches two or three of the row modules, so it makes only theirs.
 */
function bindRowsOnUse(trx: Kysely<Database>, adapter: DialectAdapter, moduleOf: ReadonlyMap<string, number>): StoreTx {
  const bound = new Map<number, Partial<StoreTx>>();
  return new Proxy({} as StoreTx, {
    get(_target, name) {
      const index = typeof name === "string" ? moduleOf.get(name) : undefined;
      if (index === undefined) return undefined;
      let functions = bound.get(index);
      if (!functions) bound.set(index, (functions = (rowModules[index] as (typeof rowModules)[number])(trx, adapter)));
      return functions[name as keyof StoreTx];
    },
  });
}

/** What a dialect brings besides its Kysely instance and adapter. */
export interface DialectServices {
  locks: StoreLocks;
  events: StoreEvents;
  /** Closes what the dialect opened besides the Kysely instance (listener, lock connections). */
  close(): Promise<void>;
  /** Why the dialect's own connections cannot serve now (a change listener reconnecting), if so. */
  trouble?(): string | undefined;
}

export class KyselyStore implements Store {
  readonly rows: StoreTx;
  readonly events: StoreEvents;
  /** What every store span says of the database it called. */
  private readonly spanAttributes: SpanAttributes;
  /** Which row module makes each row function, for binding a transaction's modules on use. */
  private readonly rowModuleOf: ReadonlyMap<string, number>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly adapter: DialectAdapter,
    private readonly services: DialectServices,
  ) {
    this.spanAttributes = { "db.system.name": adapter.name === "postgres" ? "postgresql" : "sqlite" };
    const modules = rowModules.map((module) => module(db, adapter));
    this.rowModuleOf = rowModuleIndex(modules);
    const rows = Object.assign({}, ...modules) as StoreTx;
    // Each row function a request calls is a span, named after the function (`store.findTableByName`).
    this.rows = withSpans(withTimedMethods(wrapErrors(rows, adapter), storeCallDuration), "store.", this.spanAttributes, "client");
    this.events = services.events;
  }

  get dialect() {
    return this.adapter.name;
  }

  /** Applies pending migrations under the dialect's migration lock; answers the names applied. */
  migrate(): Promise<string[]> {
    return migrateToLatest(this.db);
  }

  /** Reads every table as of one point in time into `sink` (for backups); writers go on meanwhile. */
  readSnapshot(sink: SnapshotSink): Promise<SnapshotInfo> {
    return readSnapshot(this.db, this.adapter.name, sink);
  }

  /** Loads a snapshot into this store, which must hold no rows (for restores); answers the rows loaded per table. */
  loadSnapshot(source: SnapshotSource): Promise<Record<string, number>> {
    return loadSnapshot(this.db, this.adapter.name, source);
  }

  transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T> {
    return inSpan("store.transaction", this.spanAttributes, () => timed(storeCallDuration, "transaction", () => this.runTransaction(fn)), "client");
  }

  private async runTransaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T> {
    try {
      return await retrying(
        async () => {
          const appended = new Set<string>();
          const result = await this.db.transaction().execute((trx) => fn(withSpans(this.noticing(bindRowsOnUse(trx, this.adapter, this.rowModuleOf), appended), "store.", this.spanAttributes, "client")));
          // PostgreSQL sends its notice from inside the transaction (delivered on commit); SQLite's
          // in-process notices go out once the commit is done.
          if (this.adapter.name === "sqlite") for (const database of appended) void this.services.events.publish({ topic: changeEventsTopic, key: database });
          return result;
        },
        { attempts: transactionAttempts, backoff: transactionBackoff, retryable: (error) => this.adapter.isRetryable(error) },
      );
    } catch (error) {
      throw classify(error, this.adapter);
    }
  }

  /** `rows` that note the database of each change event they append into `appended`. */
  private noticing(rows: StoreTx, appended: Set<string>): StoreTx {
    const appendChangeEvent: StoreTx["appendChangeEvent"] = async (event) => {
      await rows.appendChangeEvent(event);
      appended.add(event.database);
    };
    return new Proxy(rows, { get: (target, name) => (name === "appendChangeEvent" ? appendChangeEvent : Reflect.get(target, name)) });
  }

  withLock<T>(key: string, work: LockedWork<T>): Promise<T> {
    return this.services.locks.withLock(key, work);
  }

  tryWithLock<T>(key: string, work: LockedWork<T>): Promise<T | undefined> {
    return this.services.locks.tryWithLock(key, work);
  }

  async ping(): Promise<void> {
    try {
      await this.db.selectFrom("databases").select("name").limit(1).execute();
    } catch (error) {
      throw classify(error, this.adapter);
    }
    const trouble = this.services.trouble?.();
    if (trouble) throw new StoreUnavailable(trouble);
  }

  async close(): Promise<void> {
    await this.services.close();
    await this.db.destroy();
  }
}

function classify(error: unknown, adapter: DialectAdapter): unknown {
  if (adapter.isUniqueViolation(error)) return new UniqueViolation("unique key violated", { cause: error });
  if (adapter.isTransient(error)) return new StoreUnavailable("metadata store is busy", { cause: error });
  return error;
}

function wrapErrors(rows: StoreTx, adapter: DialectAdapter): StoreTx {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(rows) as [string, (...args: unknown[]) => Promise<unknown>][]) {
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (error) {
        throw classify(error, adapter);
      }
    };
  }
  return wrapped as unknown as StoreTx;
}
