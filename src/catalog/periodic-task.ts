/**
 * @module A task run every interval while a process serves (a sweep, a purge): the next run is
 * timed from the end of the last, so runs never overlap; a failed run is reported and the next
 * one runs on time; the timer never keeps a process alive on its own.
 */

export interface PeriodicTask {
  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void>;
}

/** Runs `run` every `intervalMs` (0: never) until stopped; its failures go to `failed`. */
export function startPeriodicTask(intervalMs: number, run: () => Promise<void>, failed: (error: unknown) => void): PeriodicTask {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const schedule = () => {
    if (stopped || intervalMs <= 0) return;
    timer = setTimeout(() => {
      running = run()
        .catch(failed)
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
