/**
 * @module Unauthenticated attempts, audited in aggregate: a request refused with 401 adds to its
 * source's count instead of writing a record, and once a minute each source's count becomes one
 * audit record (principal `unauthenticated`, operation `UnauthenticatedAttempts`, the source as
 * target, the count and the first and last attempt's times in its context). A flood of bad keys
 * thus writes at most one record per source and minute. At most `maxSources` sources are
 * counted per minute; attempts from further sources are counted under `other`.
 */
import type { AuthStore } from "./auth-store.js";
import { recordAudit } from "./audit.js";

export const unauthenticatedOperation = "UnauthenticatedAttempts";
const overflowSource = "other";

interface Count {
  attempts: number;
  first: number;
  last: number;
  lastRequestId: string;
}

export class AttemptTally {
  private counts = new Map<string, Count>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: AuthStore,
    private readonly onLost: (error: unknown) => void,
    private readonly maxSources = 10_000,
    private readonly intervalMs = 60_000,
  ) {}

  /** Counts one refused attempt of `source`. */
  record(source: string, requestId: string, at = Date.now()): void {
    const key = this.counts.has(source) || this.counts.size < this.maxSources ? source : overflowSource;
    const count = this.counts.get(key);
    if (count) {
      count.attempts += 1;
      count.last = at;
      count.lastRequestId = requestId;
    } else {
      this.counts.set(key, { attempts: 1, first: at, last: at, lastRequestId: requestId });
    }
    this.timer ??= setTimeout(() => void this.flush(), this.intervalMs).unref();
  }

  /** Writes one record per counted source and starts a new count. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const counts = this.counts;
    this.counts = new Map();
    for (const [source, count] of counts) {
      try {
        await recordAudit(
          this.store,
          {
            database: null,
            principal: "unauthenticated",
            operation: unauthenticatedOperation,
            target: source,
            outcome: "denied",
            status: 401,
            errorCode: 16,
            requestId: count.lastRequestId,
            context: { attempts: String(count.attempts), first_at: new Date(count.first).toISOString(), last_at: new Date(count.last).toISOString() },
          },
          count.first,
        );
      } catch (error) {
        this.onLost(error);
      }
    }
  }
}
