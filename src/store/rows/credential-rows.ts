/**
 * @module API key and OAuth client rows. Both hold a salted hash of their secret, never the
 * secret; a revoked credential keeps its row (with `revoked_at`) so listings show its history.
 */
import type { Kysely } from "kysely";
import type { ApiKeyRow, Database, NewApiKeyRow, NewOAuthClientRow, OAuthClientRow } from "../schema.js";

export interface CredentialRows {
  insertApiKey(row: NewApiKeyRow): Promise<void>;
  findApiKey(keyId: string): Promise<ApiKeyRow | undefined>;
  /** Keys of one database, or with `null` the deployment-wide keys; undefined lists all. */
  listApiKeys(database: string | null | undefined): Promise<ApiKeyRow[]>;
  /** Marks the key revoked; returns whether a live key was revoked. */
  revokeApiKey(keyId: string, at: number): Promise<boolean>;

  insertOAuthClient(row: NewOAuthClientRow): Promise<void>;
  findOAuthClient(clientId: string): Promise<OAuthClientRow | undefined>;
  listOAuthClients(database: string | null | undefined): Promise<OAuthClientRow[]>;
  revokeOAuthClient(clientId: string, at: number): Promise<boolean>;
}

export function credentialRows(db: Kysely<Database>): CredentialRows {
  return {
    async insertApiKey(row) {
      await db.insertInto("api_keys").values(row).execute();
    },
    findApiKey: (keyId) => db.selectFrom("api_keys").selectAll().where("key_id", "=", keyId).executeTakeFirst(),
    listApiKeys(database) {
      let query = db.selectFrom("api_keys").selectAll().orderBy("created_at").orderBy("key_id");
      if (database === null) query = query.where("database", "is", null);
      else if (database !== undefined) query = query.where("database", "=", database);
      return query.execute();
    },
    async revokeApiKey(keyId, at) {
      const result = await db
        .updateTable("api_keys")
        .set({ revoked_at: at })
        .where("key_id", "=", keyId)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async insertOAuthClient(row) {
      await db.insertInto("oauth_clients").values(row).execute();
    },
    findOAuthClient: (clientId) => db.selectFrom("oauth_clients").selectAll().where("client_id", "=", clientId).executeTakeFirst(),
    listOAuthClients(database) {
      let query = db.selectFrom("oauth_clients").selectAll().orderBy("created_at").orderBy("client_id");
      if (database === null) query = query.where("database", "is", null);
      else if (database !== undefined) query = query.where("database", "=", database);
      return query.execute();
    },
    async revokeOAuthClient(clientId, at) {
      const result = await db
        .updateTable("oauth_clients")
        .set({ revoked_at: at })
        .where("client_id", "=", clientId)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
