/**
 * @module `Idempotency-Key` on mutating operations, catalog and admin alike: a retry of the same
 * request with the same key answers the first answer again (status, content type, body) instead
 * of running a second time, on any replica. The request is the method, the URL, the database, the
 * principal and a SHA-256 of the body; an Arrow body is hashed as the operation reads it, and a
 * retry's is hashed as it is drained, never held twice. Reads ignore the header. An answer holding
 * secrets (vended credentials, a new key's secret) is kept without them (see `AnswerSecrets`).
 */
import { createHash, type Hash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type HeldClaim, claimIdempotencyKey } from "../catalog/idempotency-keys.js";
import { CatalogError, invalidInput } from "../model/catalog-error.js";
import type { BodyKind } from "../model/operations/index.js";
import { principalOf } from "./auth/auth-gate.js";
import type { ServerServices } from "./services.js";

const keyHeader = "idempotency-key";

/** Longest key accepted; a longer one answers 400 code 13. */
export const maxIdempotencyKeyLength = 255;

/** Largest answer kept for replay; a retry of a request whose answer was larger answers 409 code 14. */
export const keptAnswerBytes = 1 << 20;

/** A request's fingerprint, complete once its whole body was hashed. */
interface Fingerprint {
  hash: Hash;
  complete: boolean;
  /** Hashes what the operation left unread of an Arrow body (nothing past its end, usually). */
  drain(): Promise<void>;
}

/**
 * What a route's successful JSON answer holds that must never be stored (the metadata store and
 * its backups keep answers for `--idempotency-ttl`), and how a replay makes up for it.
 */
export interface AnswerSecrets {
  /** The answer as kept: the sent one without its secrets. */
  kept(sent: Record<string, unknown>): Record<string, unknown>;
  /** A retry's answer, from the kept one: fresh secrets in place of the removed ones, or a refusal thrown. */
  replayed(kept: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** The route a request with an `Idempotency-Key` came to, as far as keeping its answer goes. */
export interface IdempotentRoute {
  /** False for reads, which ignore the header. */
  mutating: boolean;
  body: BodyKind;
  /** The database whose keys the request's belongs to; "" for deployment-wide admin operations. */
  database: string;
  /** Set when the route's successful answer holds secrets. */
  secrets?: AnswerSecrets | undefined;
}

const claims = new WeakMap<FastifyRequest, { claim: HeldClaim; fingerprint: Fingerprint; secrets: AnswerSecrets | undefined }>();

/**
 * Runs before a mutating operation's work: claims the request's key, or answers the request
 * itself (a replay) and returns true. Throws 422 code 13 for a key reused with another request
 * and 409 code 14 while the key's first request is in flight.
 */
export async function startIdempotent(http: FastifyRequest, reply: FastifyReply, route: IdempotentRoute, services: ServerServices): Promise<boolean> {
  const key = http.headers[keyHeader];
  if (key === undefined || !route.mutating) return false;
  if (typeof key !== "string" || key.length === 0 || key.length > maxIdempotencyKeyLength || !/^[\x21-\x7e]+$/.test(key)) {
    throw invalidInput(`Idempotency-Key must be 1 to ${maxIdempotencyKeyLength} visible ASCII characters`);
  }
  const fingerprint = fingerprintOf(http, route.body);
  const id = { database: route.database, principal: principalOf(http)?.subject ?? "", key };
  const outcome = await claimIdempotencyKey(services.registry.store, id, services.idempotency);
  if (outcome.kind === "in-flight") throw CatalogError.of("ConcurrentModification", "a request with this Idempotency-Key is still in flight; retry once it has answered");
  if (outcome.kind === "claimed") {
    claims.set(http, { claim: outcome.claim, fingerprint, secrets: route.secrets });
    return false;
  }
  await fingerprint.drain();
  const answer = outcome.answer;
  if (fingerprint.hash.digest("hex") !== answer.fingerprint) {
    throw invalidInput("this Idempotency-Key was used for another request", { status: 422 });
  }
  if (answer.body === null) {
    throw CatalogError.of("ConcurrentModification", `the first answer to this Idempotency-Key was larger than ${keptAnswerBytes} bytes and is not kept; use a new key`);
  }
  const body = route.secrets && answer.status < 300 ? JSON.stringify(await route.secrets.replayed(JSON.parse(answer.body.toString()))) : answer.body;
  reply.status(answer.status).header("idempotent-replayed", "true");
  if (answer.contentType) reply.type(answer.contentType);
  await reply.send(body);
  return true;
}

/**
 * The method and URL, then the body: a JSON body's content at once, an Arrow body (already the
 * route's upload iterable in `http.body`) as it is read.
 */
function fingerprintOf(http: FastifyRequest, kind: BodyKind): Fingerprint {
  const fingerprint: Fingerprint = { hash: createHash("sha256").update(`${http.method} ${http.url}\n`), complete: true, drain: async () => undefined };
  if (kind === "json") fingerprint.hash.update(JSON.stringify(http.body ?? null));
  else if (kind === "arrow") {
    const body = http.body as AsyncIterable<Uint8Array> | Uint8Array;
    if (body instanceof Uint8Array) fingerprint.hash.update(body);
    else {
      fingerprint.complete = false;
      const source = body[Symbol.asyncIterator]();
      const next = async (): Promise<IteratorResult<Uint8Array>> => {
        const result = await source.next();
        if (result.done) fingerprint.complete = true;
        else fingerprint.hash.update(result.value);
        return result;
      };
      fingerprint.drain = async () => {
        while (!fingerprint.complete) await next();
      };
      // A reader that stops at the stream's end marker returns early; the source stays open so
      // that the rest (if any) can still be hashed.
      const hashed: AsyncIterableIterator<Uint8Array> = {
        next,
        return: async () => ({ done: true, value: undefined }),
        [Symbol.asyncIterator]: () => hashed,
      };
      http.body = hashed;
    }
  }
  return fingerprint;
}

/**
 * Route `onSend` hook: keeps the answer of a claimed request for its retries. 5xx answers are
 * not kept (the retry runs again), nor are refusals sent before the body was read (a large body
 * is not read only to hash it; the retry runs again and is refused again). A successful answer
 * holding secrets is kept without them.
 */
export async function finishIdempotent(http: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const held = claims.get(http);
  if (!held) return payload;
  claims.delete(http);
  try {
    if (reply.statusCode < 300) await held.fingerprint.drain();
    if (reply.statusCode >= 500 || !held.fingerprint.complete) await held.claim.release();
    else {
      const body = keptBody(held.secrets && reply.statusCode < 300 ? withoutSecrets(payload, held.secrets) : payload);
      const contentType = reply.getHeader("content-type");
      await held.claim.complete({ fingerprint: held.fingerprint.hash.digest("hex"), status: reply.statusCode, contentType: contentType === undefined ? undefined : String(contentType), body });
    }
  } catch (error) {
    // The answer goes out anyway; the claim lapses with its lease and a retry then runs again.
    held.claim.stop();
    http.log.warn({ err: error }, "the answer to an Idempotency-Key could not be kept");
  }
  return payload;
}

/** The sent JSON answer as `secrets` keeps it. */
function withoutSecrets(payload: unknown, secrets: AnswerSecrets): string {
  const text = typeof payload === "string" ? payload : Buffer.from(payload as Uint8Array).toString();
  return JSON.stringify(secrets.kept(JSON.parse(text) as Record<string, unknown>));
}

function keptBody(payload: unknown): Buffer | null {
  if (payload === undefined || payload === null) return Buffer.alloc(0);
  const bytes = typeof payload === "string" ? Buffer.from(payload) : payload instanceof Uint8Array ? Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength) : null;
  return bytes !== null && bytes.length <= keptAnswerBytes ? bytes : null;
}
