/**
 * @module Request rate limits per caller and per database (`--rate-limit`,
 * `--database-rate-limit`), checked once a request is authenticated and authorized, before its
 * operation runs. Each limit is a budget of `burst` requests refilled at `perSecond`: the generic
 * cell rate algorithm, which keeps one number per budget (when it is next fully spent). On a
 * PostgreSQL store the budgets live in the store, shared by every replica through one statement
 * per request; on SQLite, or while the store cannot be reached, this process keeps them itself.
 * A store outage therefore never refuses a request: the limits only loosen to per replica.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Catalog } from "../catalog/catalog.js";
import { CatalogError } from "../model/catalog-error.js";
import type { RateCell, RateTake } from "../model/rate-budgets.js";
import { throttledRequests } from "../metrics/metrics.js";
import { sourceOf } from "./auth/request-source.js";

/** One limit: `perSecond` sustained, up to `burst` at once. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

export interface RateLimitConfig {
  /** Per API key, token or OAuth client; anonymous callers count per source address. */
  principal?: RateLimit | undefined;
  database?: RateLimit | undefined;
}


/** The store's budgets, shared by the replicas. */
export interface SharedBudgets {
  /** Takes one request from each budget in order, all or none. */
  take(cells: readonly RateCell[]): Promise<RateTake>;
  /** Removes the rows of budgets that are whole again, so callers seen once do not stay. */
  forgetWhole(): Promise<void>;
}

/** Who a request is counted as: the part of a principal the limiter needs. */
export interface Caller {
  kind: string;
  subject: string;
}

export interface RateLimiterOptions {
  shared?: SharedBudgets | undefined;
  /** The authenticated caller; undefined counts the request under its source address. */
  callerOf(request: FastifyRequest): Promise<Caller | undefined>;
  warn(message: string, error?: unknown): void;
  info(message: string): void;
}

/** How long a shared budget may take before this request is counted locally instead. */
const sharedTimeoutMs = 250;
/** After a failure, how long requests are counted locally before the store is tried again. */
const sharedRetryMs = 5_000;
/** How often the shared budgets that are whole again are removed. */
const forgetEveryMs = 60_000;
/** Local budgets kept before the fully refilled ones are forgotten. */
const localBudgetsSwept = 10_000;

/** Budgets kept in this process: exact for one process, the fallback for several. */
export class LocalBudgets {
  private readonly due = new Map<string, number>();

  take(cells: readonly RateCell[]): RateTake {
    const now = performance.now() / 1000;
    if (this.due.size > localBudgetsSwept) for (const [key, due] of this.due) if (due <= now) this.due.delete(key);
    for (const cell of cells) {
      const next = Math.max(this.due.get(cell.key) ?? now, now) + cell.intervalSeconds;
      if (next - now > cell.toleranceSeconds) return { admitted: false, refusedKey: cell.key, waitSeconds: next - cell.toleranceSeconds - now };
    }
    for (const cell of cells) this.due.set(cell.key, Math.max(this.due.get(cell.key) ?? now, now) + cell.intervalSeconds);
    return { admitted: true };
  }
}

function cellOf(key: string, limit: RateLimit): RateCell {
  const intervalSeconds = 1 / limit.perSecond;
  return { key, intervalSeconds, toleranceSeconds: limit.burst * intervalSeconds };
}

export class RateLimiter {
  private readonly local = new LocalBudgets();
  /** Until when requests are counted locally because the shared budgets failed. */
  private localUntil = 0;
  private sharedDown = false;
  private forgotAt = Date.now();

  constructor(
    private readonly config: RateLimitConfig,
    private readonly options: RateLimiterOptions,
  ) {}

  /** Whether any limit is set; without one `admit` is never called. */
  get active(): boolean {
    return this.config.principal !== undefined || this.config.database !== undefined;
  }

  /** Takes the request from its caller's and its database's budgets, or refuses it with 429 code 21 and `Retry-After`. */
  async admit(request: FastifyRequest, reply: FastifyReply, catalog: Catalog): Promise<void> {
    const cells: RateCell[] = [];
    if (this.config.principal) {
      const caller = await this.options.callerOf(request);
      const key = caller && caller.kind !== "anonymous" ? `caller:${caller.subject}` : `source:${sourceOf(request)}`;
      cells.push(cellOf(key, this.config.principal));
    }
    const database = catalog.database.name;
    if (this.config.database) cells.push(cellOf(`database:${database}`, this.config.database));
    const taken = await this.take(cells);
    if (taken.admitted) return;
    const limit = taken.refusedKey.startsWith("database:") ? "database" : "caller";
    throttledRequests.inc({ database, limit });
    const seconds = Math.max(1, Math.ceil(taken.waitSeconds));
    reply.header("retry-after", String(seconds));
    throw CatalogError.of(
      "Throttling",
      limit === "database" ? `database '${database}' is over its request rate limit; retry in ${seconds} s` : `this caller is over its request rate limit; retry in ${seconds} s`,
    );
  }

  private async take(cells: readonly RateCell[]): Promise<RateTake> {
    const shared = this.options.shared;
    if (!shared || Date.now() < this.localUntil) return this.local.take(cells);
    let timer: NodeJS.Timeout | undefined;
    try {
      const taken = await Promise.race([
        shared.take(cells),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the shared request budgets did not answer within ${sharedTimeoutMs} ms`)), sharedTimeoutMs);
        }),
      ]);
      if (Date.now() - this.forgotAt > forgetEveryMs) {
        this.forgotAt = Date.now();
        // Housekeeping only: a failure leaves rows that the next round removes.
        shared.forgetWhole().catch(() => undefined);
      }
      if (this.sharedDown) {
        this.sharedDown = false;
        this.options.info("the shared request budgets answer again; rate limits are deployment-wide");
      }
      return taken;
    } catch (error) {
      this.localUntil = Date.now() + sharedRetryMs;
      if (!this.sharedDown) {
        this.sharedDown = true;
        this.options.warn("the shared request budgets cannot be reached; each replica enforces the rate limits alone until they can", error);
      }
      return this.local.take(cells);
    } finally {
      clearTimeout(timer);
    }
  }
}
