/**
 * @module The deadline of read operations on an object store. A read whose store does not answer (an object store
 * that is down or hangs, a metadata store that does not answer) is answered 503 code 17 when its
 * deadline passes, even while the engine call under it cannot be cancelled and runs on in the
 * background: a read changes nothing, so answering early is always safe. Writes get no such
 * deadline: a write answered before it finishes might still commit afterwards, so a write ends
 * only when its own store requests do, each bounded by the store timeout.
 */
import type { FastifyReply } from "fastify";
import { CatalogError } from "../model/catalog-error.js";
import { ErrorCode } from "../model/error-codes.js";

/** `work`'s outcome, or 503 code 17 once `ms` have passed without one (and nothing was sent yet). */
export function withinDeadline<T>(ms: number | undefined, reply: FastifyReply, work: Promise<T>): Promise<T> {
  if (ms === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      if (reply.sent) return;
      const seconds = Math.round(ms / 100) / 10;
      reject(new CatalogError(ErrorCode.ServiceUnavailable, `the request did not complete within ${seconds} s: a store is not answering; retry later`));
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
