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

/** The credential tables, each with the column that names its credentials. */
interface CredentialIdColumns {
  api_keys: "key_id";
  oauth_clients: "client_id";
}

/**
 * Listing and revoking, alike in both credential tables: a listing runs oldest first, one
 * database's or (with `null`) the deployment-wide ones; revoking sets `revoked_at` on a live row only.
 */
function credentialTable<Row>(db: Kysely<Database>, table: keyof CredentialIdColumns, idColumn: CredentialIdColumns[keyof CredentialIdColumns]) {
  return {
    list(database: string | null | undefined): Promise<Row[]> {
      let query = db.selectFrom(table).selectAll().orderBy("created_at").orderBy(idColumn);
      if (database === null) query = query.where("database", "is", null);
      else if (database !== undefined) query = query.where("database", "=", database);
      return query.execute() as Promise<Row[]>;
    },
    async revoke(id: string, at: number): Promise<boolean> {
      const result = await db.updateTable(table).set({ revoked_at: at }).where(idColumn, "=", id).where("revoked_at", "is", null).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export function credentialRows(db: Kysely<Database>): CredentialRows {
  const apiKeys = credentialTable<ApiKeyRow>(db, "api_keys", "key_id");
  const oauthClients = credentialTable<OAuthClientRow>(db, "oauth_clients", "client_id");
  return {
    async insertApiKey(row) {
      await db.insertInto("api_keys").values(row).execute();
    },
    findApiKey: (keyId) => db.selectFrom("api_keys").selectAll().where("key_id", "=", keyId).executeTakeFirst(),
    listApiKeys: apiKeys.list,
    revokeApiKey: apiKeys.revoke,

    async insertOAuthClient(row) {
      await db.insertInto("oauth_clients").values(row).execute();
    },
    findOAuthClient: (clientId) => db.selectFrom("oauth_clients").selectAll().where("client_id", "=", clientId).executeTakeFirst(),
    listOAuthClients: oauthClients.list,
    revokeOAuthClient: oauthClients.revoke,
  };
}
