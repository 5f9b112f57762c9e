/**
 * @module The Store implementation shared by both dialects: Kysely compiles each row module's
 * queries for the dialect; the adapter classifies driver errors.
 */
import type { Kysely } from "kysely";
import { Migrator } from "kysely";
import type { DialectAdapter } from "./dialect-adapter.js";
import { migrationProvider } from "./migrations/index.js";
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
import type { Database } from "./schema.js";
import type { Store, StoreTx } from "./store.js";
import { StoreUnavailable, UniqueViolation } from "./store-errors.js";

function bindRows(db: Kysely<Database>): StoreTx {
  return {
    ...databaseRows(db),
    ...namespaceRows(db),
    ...tableRows(db),
    ...credentialRows(db),
    ...signingKeyRows(db),
    ...auditRows(db),
    ...versionRows(db),
    ...transactionRows(db),
    ...jobRows(db),
    ...viewRows(db),
  };
}

export class KyselyStore implements Store {
  readonly rows: StoreTx;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly adapter: DialectAdapter,
  ) {
    this.rows = wrapErrors(bindRows(db), adapter);
  }

  get dialect() {
    return this.adapter.name;
  }

  /** Applies pending migrations; Kysely's migrator takes the dialect's migration lock. */
  async migrate(): Promise<void> {
    const { error } = await new Migrator({ db: this.db, provider: migrationProvider }).migrateToLatest();
    if (error) throw new Error("metadata store migration failed", { cause: error });
  }

  async transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction().execute((trx) => fn(bindRows(trx)));
    } catch (error) {
      throw classify(error, this.adapter);
    }
  }

  async close(): Promise<void> {
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
