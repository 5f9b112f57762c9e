/**
 * @module Signing key rows: secrets (base64url) named by their use, created once and shared by
 * every process on the store.
 */
import type { Kysely } from "kysely";
import type { Database, SigningKeyRow } from "../schema.js";

export interface SigningKeyRows {
  /**
   * Stores `row` unless a key of that name exists, then answers the stored key: when several
   * processes start at once, exactly one key wins and all of them use it.
   */
  ensureSigningKey(row: SigningKeyRow): Promise<SigningKeyRow>;
}

export function signingKeyRows(db: Kysely<Database>): SigningKeyRows {
  return {
    async ensureSigningKey(row) {
      await db.insertInto("signing_keys").values(row).onConflict((conflict) => conflict.column("name").doNothing()).execute();
      return db.selectFrom("signing_keys").selectAll().where("name", "=", row.name).executeTakeFirstOrThrow();
    },
  };
}
