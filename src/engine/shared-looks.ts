/**
 * @module Looks at the store shared by the reads that arrive together. A read joins the look that
 * starts after it arrived, never one already under way (which may have listed before a commit
 * the read must see), so concurrent reads of one table cost at most two looks at a time instead
 * of one each.
 */

/** The look in flight and the one queued to start when it ends. */
export interface LookQueue<T> {
  current: Promise<T> | undefined;
  next: Promise<T> | undefined;
}

export function idleLooks<T>(): LookQueue<T> {
  return { current: undefined, next: undefined };
}

export function isIdle(queue: LookQueue<unknown>): boolean {
  return queue.current === undefined && queue.next === undefined;
}

/** The answer of a look made by `look` that starts now, or after the one in flight; `onSettled` after each look ends. */
export function joinLaterLook<T>(queue: LookQueue<T>, look: () => Promise<T>, onSettled: () => void = () => undefined): Promise<T> {
  const start = (): Promise<T> => {
    const started = look().finally(() => {
      if (queue.current === started) queue.current = undefined;
      onSettled();
    });
    queue.current = started;
    return started;
  };
  if (queue.current === undefined) return start();
  queue.next ??= queue.current
    .catch(() => undefined)
    .then(() => {
      queue.next = undefined;
      return start();
    });
  return queue.next;
}
