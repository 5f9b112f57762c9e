/**
 * @module The automatic maintenance pass: every `intervalMs`, and shortly after a commit to a
 * database (its change-event notice wakes the pass, for that database only), looks at each table
 * whose policy says so (src/catalog/maintenance/maintenance-policy.ts) and lets the catalog queue
 * an `auto_maintenance` job when its state calls for one. Rounds run under a store lock, so one
 * replica looks at a time; a replica that finds it held skips its round. A failure on one table
 * never stops the others. A table found with nothing due is skipped while its version has not
 * moved, until the recheck time passes (only ageing versions can make it due then), which keeps
 * the nudge cheap.
 */
import { autoMaintainTable } from "../catalog/maintenance/auto-maintenance-job.js";
import { enclosingNamespaces, maintenancePolicy } from "../catalog/maintenance/maintenance-policy.js";
import type { CatalogRegistry } from "../catalog/runtime/database-registry.js";
import { changeEventsTopic } from "../store/rows/change-event-rows.js";
import type { NamespaceRow } from "../store/schema.js";
import type { Store } from "../store/store.js";
import type { AutoMaintenanceSettings } from "./job-settings.js";
import type { JobWorkerLog } from "./job-worker.js";

/** The store lock a round runs under. */
const roundLock = "auto-maintenance";

/** How soon after a commit's notice the pass looks (notices of a burst of commits share a round). */
const nudgeDelayMs = 1_000;

/** Past this many remembered looks the memo starts over (a look is the only cost). */
const memoLimit = 100_000;

export class AutoMaintainer {
  private timer: NodeJS.Timeout | undefined;
  private nudgeTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private stopping = false;
  private unsubscribe: (() => void) | undefined;
  /** Databases committed to since the last round. */
  private readonly nudged = new Set<string>();
  /** Table id → the version last looked at, and when. */
  private readonly looked = new Map<string, { version: number; at: number }>();

  constructor(
    private readonly store: Store,
    private readonly registry: CatalogRegistry,
    private readonly settings: AutoMaintenanceSettings,
    private readonly log: JobWorkerLog = { warn: () => undefined },
    /** Told about each job queued, e.g. to wake the worker at once. */
    private readonly onQueued: (jobId: string) => void = () => undefined,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopping = false;
    if (this.settings.intervalMs > 0) this.schedule();
    this.unsubscribe = this.store.events.subscribe((change) => {
      if (change.topic === changeEventsTopic) this.nudge(change.key);
    });
  }

  /** Stops the timers and waits for a round in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    if (this.nudgeTimer) clearTimeout(this.nudgeTimer);
    await this.running;
  }

  /** One round over every table of every database (or of `databases`), after any round in progress. */
  checkOnce(now = Date.now(), databases?: ReadonlySet<string>): Promise<Map<string, string>> {
    return this.store.withLock(roundLock, () => this.round(now, databases));
  }

  /** After a commit to `database`: a round over its tables soon. */
  private nudge(database: string): void {
    if (this.stopped) return;
    this.nudged.add(database);
    if (this.nudgeTimer) return;
    this.nudgeTimer = setTimeout(() => {
      this.nudgeTimer = undefined;
      const databases = new Set(this.nudged);
      this.nudged.clear();
      void this.runRound(databases);
    }, nudgeDelayMs);
    this.nudgeTimer.unref();
  }

  /** How long a table kept for `retentionMs` whose version has not moved is left alone. */
  private recheckMs(retentionMs: number): number {
    return Math.min(Math.max(retentionMs / 2, this.settings.intervalMs), 3_600_000);
  }

  private async round(now: number, databases?: ReadonlySet<string>): Promise<Map<string, string>> {
    const outcomes = new Map<string, string>();
    if (this.looked.size > memoLimit) this.looked.clear();
    for (const database of await this.store.rows.listDatabases()) {
      if (this.stopping) break;
      if (databases && !databases.has(database.name)) continue;
      const catalog = await this.registry.catalogFor(database.name).catch(() => undefined);
      if (!catalog) continue;
      const scope = catalog.scope;
      // Each namespace is read once a round, however many tables it holds.
      const namespaces = new Map<string, NamespaceRow | undefined>();
      for (const table of await this.store.rows.listAllTables(database.name)) {
        if (this.stopping) break;
        const enclosing = await enclosingNamespaces(this.store.rows, database.name, table.namespace_path, namespaces);
        const policy = maintenancePolicy(table, enclosing, scope.database, this.settings);
        if (!policy.enabled) continue;
        const head = table.head_version === null ? null : Number(table.head_version);
        const seen = this.looked.get(table.id);
        if (head !== null && seen?.version === head && now - seen.at < this.recheckMs(policy.retentionMs)) continue;
        try {
          const outcome = await autoMaintainTable(scope, table, { ...this.settings, retentionMs: policy.retentionMs }, now);
          // Remembered only when nothing was due: a job queued or still running may end (or
          // yield to writers) without moving the head, and the table must be looked at again.
          if (head !== null && outcome.action === "skipped" && outcome.reason !== "pending") this.looked.set(table.id, { version: head, at: now });
          outcomes.set(table.id, outcome.action === "queued" ? "queued" : outcome.reason);
          if (outcome.action === "queued") this.onQueued(outcome.jobId);
        } catch (error) {
          this.log.warn("automatic maintenance check failed", { table: table.id, error: String(error) });
        }
      }
    }
    return outcomes;
  }

  /** A round unless another is running here or on another replica (that one covers it). */
  private runRound(databases?: ReadonlySet<string>): Promise<void> {
    if (this.running) {
      // Looked at by the round in progress or the next one.
      for (const name of databases ?? []) this.nudged.add(name);
      return this.running;
    }
    this.running = this.store
      .tryWithLock(roundLock, () => this.round(Date.now(), databases))
      .then(() => undefined)
      .catch((error: unknown) => this.log.warn("automatic maintenance round failed", { error: String(error) }))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      void this.runRound().finally(() => {
        if (!this.stopped) this.schedule();
      });
    }, this.settings.intervalMs);
    this.timer.unref();
  }
}
