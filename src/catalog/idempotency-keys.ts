/**
 * @module `Idempotency-Key` claims in the metadata store, shared by every replica. A request
 * claims its key before its work runs; while it runs, its claim is in flight and renewed, so a
 * retry meanwhile is refused, and a claim whose process died lapses after its lease; once
 * answered, the answer is kept until the key expires. Expired keys are deleted by the next claim.
 */
import { randomUUID } from "node:crypto";
import type { Store } from "../store/store.js";
import type { IdempotencyKeyId } from "../store/rows/idempotency-key-rows.js";

export type { IdempotencyKeyId } from "../store/rows/idempotency-key-rows.js";

/** How long a key answers its retries: 24 hours unless `--idempotency-ttl` says otherwise. */
export const defaultIdempotencyTtlMs = 24 * 60 * 60 * 1000;

/**
 * How long an in-flight claim holds without renewal. The request renews it a few times per lease
 * while it runs, so only a claim whose process died (a crash, a kill) lapses, after at most this.
 */
export const idempotencyLeaseMs = 30_000;

export interface IdempotencySettings {
  ttlMs: number;
  leaseMs: number;
}

/** An answer kept for a key; `body` is null when it was too large to keep. */
export interface KeptAnswer {
  fingerprint: string;
  status: number;
  contentType: string | undefined;
  body: Buffer | null;
}

export type ClaimOutcome = { kind: "claimed"; claim: HeldClaim } | { kind: "in-flight" } | { kind: "answered"; answer: KeptAnswer };

/** A claim this process holds: renewed until it is completed or released. */
export class HeldClaim {
  private readonly renewal: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    private readonly id: IdempotencyKeyId,
    private readonly owner: string,
    private readonly settings: IdempotencySettings,
  ) {
    this.renewal = setInterval(() => {
      // A failed renewal leaves the lease to run out; the request itself goes on.
      store.rows.renewIdempotencyKey(id, owner, Date.now() + settings.leaseMs).catch(() => undefined);
    }, Math.max(1, Math.floor(settings.leaseMs / 3)));
    this.renewal.unref();
  }

  /** Keeps `answer` for the key's retries until it expires. */
  async complete(answer: KeptAnswer): Promise<void> {
    this.stop();
    await this.store.rows.completeIdempotencyKey(this.id, this.owner, {
      fingerprint: answer.fingerprint,
      status: answer.status,
      content_type: answer.contentType ?? null,
      body: answer.body === null ? null : answer.body.toString("base64"),
      expires_at: Date.now() + this.settings.ttlMs,
    });
  }

  /** Gives the key up: its next request runs as if it were new. */
  async release(): Promise<void> {
    this.stop();
    await this.store.rows.releaseIdempotencyKey(this.id, this.owner);
  }

  stop(): void {
    clearInterval(this.renewal);
  }
}

/** Claims `id` for a request about to run, or says why it must not run. */
export async function claimIdempotencyKey(store: Store, id: IdempotencyKeyId, settings: IdempotencySettings): Promise<ClaimOutcome> {
  const now = Date.now();
  await store.rows.purgeExpiredIdempotencyKeys(now);
  const owner = randomUUID();
  // Twice: a claim released between the insert and the look-up is claimed on the second try.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const row = { ...id, owner, fingerprint: "", lease_until: now + settings.leaseMs, status: null, content_type: null, body: null, created_at: now, expires_at: now + settings.ttlMs };
    if (await store.rows.claimIdempotencyKey(row, now)) return { kind: "claimed", claim: new HeldClaim(store, id, owner, settings) };
    const held = await store.rows.findIdempotencyKey(id);
    if (!held) continue;
    if (held.status === null) return { kind: "in-flight" };
    const body = held.body === null ? null : Buffer.from(held.body, "base64");
    return { kind: "answered", answer: { fingerprint: held.fingerprint, status: held.status, contentType: held.content_type ?? undefined, body } };
  }
  return { kind: "in-flight" };
}
