/**
 * @module The worker loop: claims due jobs from the store (a few at a time), runs each kind's
 * handler under a lease with a heartbeat, and records the outcome. Outcomes:
 * - the handler returns → `succeeded` with its result;
 * - cancel requested → handler undo, then `cancelled`;
 * - a transient failure with attempts left → back to `queued`, due after a capped exponential
 *   backoff (`last_error` kept);
 * - a permanent failure, or attempts used up → handler undo, then `failed` with the reason;
 * - lease lost → nothing is written (another worker owns the job now);
 * - worker stopping → the job is released and resumes at once in the next process.
 * Jobs whose worker died stay `running` until their lease expires and are then resumed, or
 * failed with a reason when their attempts are used up (fail-abandoned-jobs.ts).
 */
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { CatalogError } from "../model/catalog-error.js";
import type { CatalogRegistry } from "../catalog/runtime/database-registry.js";
import { ErrorCode } from "../model/error-codes.js";
import type { JobRow } from "../store/job-schema.js";
import type { Store } from "../store/store.js";
import { type JobHandler, JobInterrupted, PermanentJobError } from "../catalog/jobs/job-handler.js";
import { JobRun, leaseOf } from "./job-run.js";
import { jobDuration, jobsFinished } from "../metrics/metrics.js";
import { type JobSystemSettings, retryDelay } from "./job-settings.js";

export interface JobWorkerLog {
  warn(message: string, detail?: Record<string, unknown>): void;
}

/** Catalog codes that mean "try again later": everything else is the caller's or data's fault. */
const transientCodes = new Set<number>([ErrorCode.ConcurrentModification, ErrorCode.ServiceUnavailable, ErrorCode.Internal]);

export class JobWorker {
  /** Host, pid of the `quiver serve` process (the relaying one when supervised; see cli/serve-supervisor.ts) and a random part. */
  readonly workerId = `${hostname()}:${process.env.QUIVER_SERVE_SUPERVISOR ?? process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly runs = new Map<string, { run?: JobRun; done: Promise<void> }>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private stopped = true;

  constructor(
    private readonly store: Store,
    private readonly registry: CatalogRegistry,
    private readonly handlers: ReadonlyMap<string, JobHandler>,
    private readonly settings: JobSystemSettings,
    private readonly log: JobWorkerLog = { warn: () => undefined },
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops claiming, interrupts running jobs and releases them for the next process. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const { run } of this.runs.values()) run?.stop("stopping");
    await Promise.all([...this.runs.values()].map(({ done }) => done));
  }

  /** Looks for work now instead of at the next poll (after a job was queued). */
  wake(): void {
    if (!this.stopped && !this.polling) this.schedule(0);
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), delay);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    if (this.stopped || this.polling) return;
    this.polling = true;
    try {
      const now = Date.now();
      for (const id of await this.store.rows.failAbandonedJobs(now)) {
        await this.store.rows.insertJobEvent({ job_id: id, at: now, state: "failed", emitted_by: this.workerId, claim_entity: null, rows_processed: null, message: "lease expired with no attempts left" });
      }
      while (!this.stopped && this.runs.size < this.settings.maxConcurrentJobs) {
        const job = await this.store.rows.claimJob({ workerId: this.workerId, pools: this.settings.pools, now: Date.now(), leaseMs: this.settings.leaseMs });
        if (!job) break;
        this.launch(job);
      }
    } catch (error) {
      this.log.warn("job poll failed", { error: String(error) });
    } finally {
      this.polling = false;
      if (!this.stopped) this.schedule(this.settings.pollMs);
    }
  }

  private launch(job: JobRow): void {
    const done = this.execute(job)
      .catch((error: unknown) => this.log.warn("job run failed unexpectedly", { job: job.id, error: String(error) }))
      .finally(() => {
        this.runs.delete(job.id);
        this.wake();
      });
    this.runs.set(job.id, { done });
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.kind);
    const catalog = await this.registry.catalogFor(job.database);
    if (!handler || !catalog) {
      await this.store.rows.failJob(job.id, leaseOf(job, this.workerId), { error: handler ? `database '${job.database}' is gone` : `no handler for job kind '${job.kind}'`, phase: "claim" }, Date.now());
      return;
    }
    const run = new JobRun(job, catalog.scope, this.workerId, this.store, this.settings.leaseMs);
    const endTimer = jobDuration.startTimer({ kind: job.kind });
    const outcome = (state: string) => {
      endTimer({ state });
      jobsFinished.inc({ kind: job.kind, state });
    };
    const entry = this.runs.get(job.id);
    if (entry) entry.run = run;
    if (this.stopped) run.stop("stopping");
    // Cancelled while its previous worker was gone: undo and finish without running.
    if (job.cancel_requested === 1) run.stop("cancelled");
    try {
      await run.event(job.attempts > 1 ? "resumed" : "running", { message: `attempt ${job.attempts} of ${job.max_attempts}` });
      const result = await handler.run(run);
      run.checkpoint();
      if (await this.store.rows.completeJob(job.id, run.lease, result, Date.now())) {
        outcome("succeeded");
        await run.event("succeeded", { rows: typeof result.rows_written === "number" ? result.rows_written : undefined });
      }
    } catch (error) {
      const state = await this.settle(run, handler, error);
      if (state) outcome(state);
    } finally {
      run.end();
    }
  }

  /** Records how a run that threw ended; answers that outcome, or nothing when another worker owns the job. */
  private async settle(run: JobRun, handler: JobHandler, error: unknown): Promise<string | undefined> {
    const { job } = run;
    const now = Date.now();
    const reason = error instanceof JobInterrupted ? error.reason : run.interruptedBy;
    if (reason === "lease-lost") return undefined;
    if (reason === "stopping") {
      if (!(await this.store.rows.releaseJob(job.id, run.lease, now))) return undefined;
      await run.event("released", { message: "worker stopping; resumes in the next process" });
      return "released";
    }
    if (reason === "cancelled") {
      await this.undo(run, handler);
      if (!(await this.store.rows.markJobCancelled(job.id, run.lease, Date.now()))) return undefined;
      await run.event("cancelled");
      return "cancelled";
    }
    const message = error instanceof Error ? error.message : String(error);
    const phase = error instanceof PermanentJobError ? error.phase : String(run.state.phase ?? "run");
    const transient = !(error instanceof PermanentJobError) && (!(error instanceof CatalogError) || transientCodes.has(error.code));
    if (transient && job.attempts < job.max_attempts) {
      const retryAt = now + retryDelay(job.attempts, this.settings.backoffBaseMs, this.settings.backoffCapMs);
      if (!(await this.store.rows.failJob(job.id, run.lease, { error: message, phase, retryAt }, now))) return undefined;
      await run.event("retry", { message: `${message} (next attempt at ${new Date(retryAt).toISOString()})` });
      return "retry";
    }
    await this.undo(run, handler);
    if (!(await this.store.rows.failJob(job.id, run.lease, { error: message, phase }, Date.now()))) return undefined;
    await run.event("failed", { message });
    return "failed";
  }

  private async undo(run: JobRun, handler: JobHandler): Promise<void> {
    if (!handler.undo) return;
    try {
      await handler.undo(run);
    } catch (error) {
      this.log.warn("job undo failed", { job: run.job.id, error: String(error) });
    }
  }
}
