/**
 * @module The periodic auto-refresh check: every `intervalMs`, looks at each materialized view
 * with `auto_refresh` on (of every database) and lets the catalog queue a refresh when the
 * view's source moved beyond the deployment's thresholds (src/catalog/views/view-auto-refresh.ts).
 * Rounds never overlap, in this process or across processes on one store (a round runs under a
 * store lock; a replica that finds it held skips its round), and a failure on one view never
 * stops the others. What it queues is an ordinary refresh job, so it survives restarts like any
 * other; the check keeps no state that correctness depends on (the drift memo only saves rescans
 * of a source that did not move).
 */
import type { CatalogRegistry } from "../catalog/runtime/database-registry.js";
import { type AutoRefreshOutcome, type DriftMemo, autoRefreshMaterializedView } from "../catalog/views/view-auto-refresh.js";
import type { Store } from "../store/store.js";
import type { AutoRefreshSettings } from "./job-settings.js";
import type { JobWorkerLog } from "./job-worker.js";

/** The store lock a round runs under. */
const roundLock = "auto-refresh";

/** Past this many remembered measurements the memo starts over (a rescan is the only cost). */
const memoLimit = 10_000;

export class AutoRefresher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /** Set by stop(): a round in progress ends after the view it is on. */
  private stopping = false;
  private readonly memo: DriftMemo = new Map();

  constructor(
    private readonly store: Store,
    private readonly registry: CatalogRegistry,
    private readonly settings: AutoRefreshSettings,
    private readonly log: JobWorkerLog = { warn: () => undefined },
    /** Told about each job queued, e.g. to wake the worker at once. */
    private readonly onQueued: (jobId: string) => void = () => undefined,
  ) {}

  start(): void {
    if (!this.stopped || this.settings.intervalMs <= 0) return;
    this.stopped = false;
    this.stopping = false;
    this.schedule();
  }

  /** Stops the timer and waits for a round in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /**
   * One round over every auto-refresh view, after any round in progress (in any process) ends;
   * returns what it did per view (table id → outcome).
   */
  checkOnce(now = Date.now()): Promise<Map<string, AutoRefreshOutcome>> {
    return this.store.withLock(roundLock, () => this.round(now));
  }

  private async round(now: number): Promise<Map<string, AutoRefreshOutcome>> {
    const outcomes = new Map<string, AutoRefreshOutcome>();
    if (this.memo.size > memoLimit) this.memo.clear();
    for (const view of await this.store.rows.listAutoRefreshViews()) {
      if (this.stopping) break;
      try {
        const catalog = await this.registry.catalogFor(view.database);
        if (!catalog) continue;
        const outcome = await autoRefreshMaterializedView(catalog.scope, view, this.settings, this.memo, now);
        outcomes.set(view.table_id, outcome);
        if (outcome.action === "queued") this.onQueued(outcome.jobId);
      } catch (error) {
        this.log.warn("auto refresh check failed", { view: view.table_id, error: String(error) });
      }
    }
    return outcomes;
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      // A round another replica is running covers this one.
      this.running = this.store
        .tryWithLock(roundLock, () => this.round(Date.now()))
        .then(() => undefined)
        .catch((error: unknown) => this.log.warn("auto refresh round failed", { error: String(error) }))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.schedule();
        });
    }, this.settings.intervalMs);
    this.timer.unref();
  }
}
