/**
 * @module Store locks on PostgreSQL: session advisory locks, each held on a connection of its
 * own pool for as long as the work runs (no transaction stays open meanwhile). A process that
 * dies loses its connections, and PostgreSQL releases their locks with them. A process that
 * lives on but loses a connection (a restart, a fail-over, an idle reaper) has lost the lock
 * too: the work's fence aborts, so it commits nothing more under a lock another may now hold.
 */
import pg from "pg";
import { StoreUnavailable } from "../store-errors.js";
import { type LockedWork, ProcessLocks, type StoreLocks } from "../store-locks.js";
import { isUnavailable } from "./postgres-adapter.js";
import { listenForClientErrors } from "./client-errors.js";

/** Connections that may hold locks at once; waiters beyond that queue in the pool. */
const lockConnections = 16;

export class AdvisoryLocks implements StoreLocks {
  private readonly pool: pg.Pool;
  /** Waiters of this process queue here first, so one key holds at most one connection. */
  private readonly local = new ProcessLocks();

  constructor(config: pg.PoolConfig) {
    this.pool = new pg.Pool({ ...config, max: lockConnections, idleTimeoutMillis: 30_000 });
    listenForClientErrors(this.pool);
  }

  withLock<T>(key: string, work: LockedWork<T>): Promise<T> {
    return this.local.withLock(key, () => this.holding(key, "pg_advisory_lock", work) as Promise<T>);
  }

  async tryWithLock<T>(key: string, work: LockedWork<T>): Promise<T | undefined> {
    return this.local.tryWithLock(key, () => this.holding(key, "pg_try_advisory_lock", work));
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  private async holding<T>(key: string, take: "pg_advisory_lock" | "pg_try_advisory_lock", work: LockedWork<T>): Promise<T | undefined> {
    const client = await this.pool.connect().catch((error: unknown) => {
      throw asUnavailable(error, key);
    });
    const fence = new AbortController();
    const lost = (error?: Error) => {
      if (!fence.signal.aborted) fence.abort(new StoreUnavailable(`the store lock '${key}' was lost with its connection; retry`, { cause: error }));
    };
    client.on("error", lost);
    client.on("end", lost);
    let broken: Error | undefined;
    try {
      const { rows } = await client.query<{ taken: boolean | null }>(`select ${take}(hashtextextended($1, 0)) as taken`, [key]).catch((error: unknown) => {
        throw asUnavailable(error, key);
      });
      // pg_advisory_lock answers void (null); pg_try_advisory_lock answers whether it got the lock.
      if (rows[0]?.taken === false) return undefined;
      try {
        return await work(fence.signal);
      } finally {
        await client.query("select pg_advisory_unlock(hashtextextended($1, 0))", [key]).catch((error: Error) => (broken = error));
      }
    } catch (error) {
      broken ??= error as Error;
      throw error;
    } finally {
      client.off("error", lost);
      client.off("end", lost);
      // A connection whose unlock failed is closed rather than reused, which releases the lock.
      client.release(broken);
    }
  }
}

/** A failure to take a lock because the store is out of reach is StoreUnavailable, like every query's. */
function asUnavailable(error: unknown, key: string): unknown {
  return isUnavailable(error) ? new StoreUnavailable(`the store lock '${key}' cannot be taken now; retry`, { cause: error }) : error;
}
