/**
 * @module `Idempotency-Key` claims: taken with an insert before a request's work runs, renewed
 * while it runs, then completed with the answer or released. The owner token guards every change
 * after the claim, so a request whose claim was taken over (its lease ran out) changes nothing.
 */
import type { Kysely } from "kysely";
import type { Database, IdempotencyKeyRow } from "../schema.js";

/** The key of a claim: keys are scoped per database and principal. */
export interface IdempotencyKeyId {
  database: string;
  principal: string;
  key: string;
}

/** The answer a completed claim keeps. */
export interface IdempotencyAnswer {
  fingerprint: string;
  status: number;
  content_type: string | null;
  body: string | null;
  expires_at: number;
}

export interface IdempotencyKeyRows {
  /**
   * Claims `row`'s key for its owner: inserts it, or takes over a claim that expired or whose
   * lease ran out (its owner died). True when the caller now holds the claim.
   */
  claimIdempotencyKey(row: IdempotencyKeyRow, now: number): Promise<boolean>;
  findIdempotencyKey(id: IdempotencyKeyId): Promise<IdempotencyKeyRow | undefined>;
  /** Extends an in-flight claim's lease; false when `owner` no longer holds it. */
  renewIdempotencyKey(id: IdempotencyKeyId, owner: string, leaseUntil: number): Promise<boolean>;
  /** Keeps the answer of `owner`'s in-flight claim. */
  completeIdempotencyKey(id: IdempotencyKeyId, owner: string, answer: IdempotencyAnswer): Promise<void>;
  /** Deletes `owner`'s in-flight claim, so the next request with the key runs. */
  releaseIdempotencyKey(id: IdempotencyKeyId, owner: string): Promise<void>;
  /** Deletes claims that expired before `now`; the number deleted. */
  purgeExpiredIdempotencyKeys(now: number): Promise<number>;
}

export function idempotencyKeyRows(db: Kysely<Database>): IdempotencyKeyRows {
  const same = (id: IdempotencyKeyId) => db.updateTable("idempotency_keys").where("database", "=", id.database).where("principal", "=", id.principal).where("key", "=", id.key);
  return {
    async claimIdempotencyKey(row, now) {
      const inserted = await db
        .insertInto("idempotency_keys")
        .values(row)
        .onConflict((conflict) => conflict.columns(["database", "principal", "key"]).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
      const { database, principal, key, ...claim } = row;
      const taken = await same({ database, principal, key })
        .set(claim)
        .where((eb) => eb.or([eb("expires_at", "<=", now), eb.and([eb("status", "is", null), eb("lease_until", "<=", now)])]))
        .executeTakeFirst();
      return Number(taken.numUpdatedRows) > 0;
    },
    async findIdempotencyKey(id) {
      return db.selectFrom("idempotency_keys").selectAll().where("database", "=", id.database).where("principal", "=", id.principal).where("key", "=", id.key).executeTakeFirst();
    },
    async renewIdempotencyKey(id, owner, leaseUntil) {
      const renewed = await same(id).set({ lease_until: leaseUntil }).where("owner", "=", owner).where("status", "is", null).executeTakeFirst();
      return Number(renewed.numUpdatedRows) > 0;
    },
    async completeIdempotencyKey(id, owner, answer) {
      await same(id).set(answer).where("owner", "=", owner).where("status", "is", null).execute();
    },
    async releaseIdempotencyKey(id, owner) {
      await db
        .deleteFrom("idempotency_keys")
        .where("database", "=", id.database)
        .where("principal", "=", id.principal)
        .where("key", "=", id.key)
        .where("owner", "=", owner)
        .where("status", "is", null)
        .execute();
    },
    async purgeExpiredIdempotencyKeys(now) {
      const deleted = await db.deleteFrom("idempotency_keys").where("expires_at", "<=", now).executeTakeFirst();
      return Number(deleted.numDeletedRows);
    },
  };
}
