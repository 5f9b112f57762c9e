/**
 * @module An in-process lock per key: work under one key runs one at a time, in arrival order,
 * while work under other keys runs alongside.
 */

export class KeyedLock {
  /** Per key, the settled end of the last work queued; absent when none is queued. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `work` once every earlier work under `key` has settled; answers its result. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
