/**
 * @module One claimed job while it runs: the context its handler sees, and the heartbeat that
 * keeps its lease alive and notices cancel requests. Every store write is fenced by the lease
 * (this worker, this attempt), so a run that lost its job can no longer change it.
 */
import type { CatalogScope } from "../catalog/catalog-scope.js";
import type { JobItemRow, JobLease, JobRow } from "../store/job-schema.js";
import type { Store } from "../store/store.js";
import { jobItemsCompleted } from "../metrics/metrics.js";
import { type InterruptReason, type JobContext, JobInterrupted } from "../catalog/jobs/job-handler.js";

/** The lease a claim of `job` by `workerId` holds: its claim made it attempt `job.attempts`. */
export function leaseOf(job: JobRow, workerId: string): JobLease {
  return { workerId, attempt: job.attempts };
}

export class JobRun implements JobContext {
  state: Record<string, unknown>;
  /** What fences this run's writes. */
  readonly lease: JobLease;
  private interrupt: InterruptReason | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly job: JobRow,
    readonly scope: CatalogScope,
    readonly workerId: string,
    private readonly store: Store,
    private readonly leaseMs: number,
  ) {
    this.state = job.state;
    this.lease = leaseOf(job, workerId);
    // A third of the lease: two heartbeats may be missed before the lease runs out.
    this.timer = setInterval(() => void this.heartbeat(), Math.max(50, Math.floor(leaseMs / 3)));
    this.timer.unref();
  }

  /** Stops the heartbeat; the job's final state is written by the worker. */
  end(): void {
    clearInterval(this.timer);
  }

  /** Marks the run to stop at its next checkpoint. */
  stop(reason: InterruptReason): void {
    this.interrupt ??= reason;
  }

  get interruptedBy(): InterruptReason | undefined {
    return this.interrupt;
  }

  checkpoint(): void {
    if (this.interrupt) throw new JobInterrupted(this.interrupt);
  }

  async checkpointNow(): Promise<void> {
    await this.heartbeat();
    this.checkpoint();
  }

  async saveState(patch: Record<string, unknown>): Promise<void> {
    const next = { ...this.state, ...patch };
    const saved = this.store.rows.saveJobProgress(this.job.id, this.lease, { state: next }, Date.now());
    // The state describes work already done: undo must see it even when a cancel stops the run here.
    this.state = next;
    await this.fenced(saved);
  }

  async setProgress(progress: { itemsTotal?: number; itemsDone?: number; rowsWritten?: number }): Promise<void> {
    await this.fenced(this.store.rows.saveJobProgress(this.job.id, this.lease, progress, Date.now()));
  }

  async event(state: string, detail: { claimEntity?: string; rows?: number; message?: string } = {}): Promise<void> {
    await this.store.rows.insertJobEvent({
      job_id: this.job.id,
      at: Date.now(),
      state,
      emitted_by: this.workerId,
      claim_entity: detail.claimEntity ?? null,
      rows_processed: detail.rows ?? null,
      message: detail.message ?? null,
    });
  }

  async replaceItems(params: readonly Record<string, unknown>[]): Promise<void> {
    this.checkpoint();
    await this.fenced(this.store.rows.replaceJobItems(this.job.id, this.lease, params, Date.now()));
  }

  claimItem(): Promise<JobItemRow | undefined> {
    this.checkpoint();
    return this.store.rows.claimJobItem(this.job.id, this.lease, Date.now(), this.leaseMs);
  }

  async completeItem(seq: number, rowsWritten: number): Promise<void> {
    const completed = this.store.rows.completeJobItem(this.job.id, seq, this.lease, rowsWritten, Date.now());
    if (await completed) jobItemsCompleted.inc({ kind: this.job.kind });
    await this.fenced(completed);
  }

  private async fenced(write: Promise<boolean>): Promise<void> {
    if (!(await write)) this.stop("lease-lost");
    this.checkpoint();
  }

  private async heartbeat(): Promise<void> {
    if (this.interrupt === "lease-lost") return;
    try {
      const lease = await this.store.rows.extendJobLease(this.job.id, this.lease, Date.now(), this.leaseMs);
      if (!lease.held) this.stop("lease-lost");
      else if (lease.cancelRequested) this.stop("cancelled");
    } catch {
      // A busy store: the next beat tries again; the lease covers two missed beats.
    }
  }
}
