/**
 * @module What a job kind implements, and what the worker gives it while it runs. Handlers
 * must be idempotent: a lease can expire mid-run (the process died, or stalled past its
 * lease), and the next claim runs the handler again from the state it saved.
 */
import type { CatalogScope } from "../catalog-scope.js";
import type { JobItemRow, JobRow } from "../../store/job-schema.js";

export interface JobContext {
  readonly job: JobRow;
  readonly scope: CatalogScope;
  readonly workerId: string;
  /** What the handler saved on an earlier attempt ({} on the first). */
  readonly state: Record<string, unknown>;
  /** Persists resumable state (merged into `state`). */
  saveState(patch: Record<string, unknown>): Promise<void>;
  setProgress(progress: { itemsTotal?: number; itemsDone?: number; rowsWritten?: number }): Promise<void>;
  /** Throws JobInterrupted when the job was cancelled, its lease lost, or the worker stops. */
  checkpoint(): void;
  /** Like checkpoint, after asking the store for a cancel request right now. */
  checkpointNow(): Promise<void>;
  event(state: string, detail?: { claimEntity?: string; rows?: number; message?: string }): Promise<void>;
  /** Replaces the job's work items by `params`, one object an item. */
  replaceItems(params: readonly Record<string, unknown>[]): Promise<void>;
  claimItem(): Promise<JobItemRow | undefined>;
  completeItem(seq: number, rowsWritten: number): Promise<void>;
}

export interface JobHandler {
  /** Does the work; returns the job's result (stored as JSON). */
  run(ctx: JobContext): Promise<Record<string, unknown>>;
  /** Undoes partial work after a cancel or a final failure (best effort). */
  undo?(ctx: JobContext): Promise<void>;
}

export type InterruptReason = "cancelled" | "lease-lost" | "stopping";

/** Thrown by checkpoints; the worker handles each reason (see job-worker.ts). */
export class JobInterrupted extends Error {
  constructor(readonly reason: InterruptReason) {
    super(`job interrupted: ${reason}`);
    this.name = "JobInterrupted";
  }
}

/** A failure that no retry can fix (the request or the data is wrong). */
export class PermanentJobError extends Error {
  constructor(
    message: string,
    readonly phase: string,
  ) {
    super(message);
    this.name = "PermanentJobError";
  }
}
