/**
 * @module The OpenTelemetry context carried through `await`s by Node's AsyncLocalStorage, so a
 * span started for a request is the parent of the spans its catalog, store and engine calls start.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Context, ContextManager } from "@opentelemetry/api";

export class AsyncContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();

  /** `root` is the API's empty context, what `active()` answers outside any span. */
  constructor(private readonly root: Context) {}

  active(): Context {
    return this.storage.getStore() ?? this.root;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.storage.run(context, () => fn.apply(thisArg, args));
  }

  bind<T>(context: Context, target: T): T {
    if (typeof target !== "function") return target;
    const storage = this.storage;
    const fn = target as (...a: unknown[]) => unknown;
    return function (this: unknown, ...args: unknown[]) {
      return storage.run(context, () => fn.apply(this, args));
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    return this;
  }
}
