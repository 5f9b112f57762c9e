/**
 * @module Auth's `AuthStore` over the metadata store. It lives in the composition root, which may
 * import both: auth sees no store rows, and the store does not know auth exists. Integer columns
 * pass through Number(), so auth's records hold numbers whatever the driver answers.
 */
import type { AuthStore, CredentialKind, StoredCredential } from "../auth/auth-store.js";
import { type Change, recordChange } from "../catalog/change-events.js";
import type { AuditRecord } from "../model/admin.js";
import type { ApiKeyRow, AuditRow, CredentialColumns, OAuthClientRow } from "../store/schema.js";
import type { Store } from "../store/store.js";

function columnsOf(credential: StoredCredential): CredentialColumns {
  return {
    database: credential.database,
    role: credential.role,
    salt: credential.salt,
    secret_hash: credential.secretHash,
    description: credential.description,
    created_at: credential.createdAt,
    revoked_at: credential.revokedAt,
  };
}

function credentialOf(row: ApiKeyRow | OAuthClientRow): StoredCredential {
  return {
    id: "key_id" in row ? row.key_id : row.client_id,
    database: row.database,
    role: row.role,
    salt: row.salt,
    secretHash: row.secret_hash,
    description: row.description,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

function auditRecordOf(row: AuditRow): AuditRecord {
  return { ...row, at: Number(row.at), status: Number(row.status) };
}

/** The change event of a credential: its database's, or deployment-wide (`""`) for a credential of every database. */
function credentialChange(kind: "key.created" | "key.revoked", credential: CredentialKind, id: string, database: string | null, data: Record<string, unknown>): Change {
  return { kind, database: database ?? "", subject: `${database ?? "*"}/${credential}/${id}`, data: { kind: credential, key_id: id, ...data } };
}

/** The auth data of `store`; a credential and its change event are written in one transaction. */
export function authStoreOf(store: Store): AuthStore {
  const rows = store.rows;
  return {
    databaseExists: async (name) => (await rows.findDatabase(name)) !== undefined,

    insertCredential: (kind, credential) =>
      store.transaction(async (tx) => {
        if (kind === "api-key") await tx.insertApiKey({ key_id: credential.id, ...columnsOf(credential) });
        else await tx.insertOAuthClient({ client_id: credential.id, ...columnsOf(credential) });
        await recordChange(tx, credentialChange("key.created", kind, credential.id, credential.database, { role: credential.role, description: credential.description }));
      }),
    async findCredential(kind, id) {
      const row = kind === "api-key" ? await rows.findApiKey(id) : await rows.findOAuthClient(id);
      return row && credentialOf(row);
    },
    listCredentials: async (kind, database) =>
      (kind === "api-key" ? await rows.listApiKeys(database) : await rows.listOAuthClients(database)).map(credentialOf),
    revokeCredential: (kind, id, at) =>
      store.transaction(async (tx) => {
        const row = kind === "api-key" ? await tx.findApiKey(id) : await tx.findOAuthClient(id);
        const revoked = kind === "api-key" ? await tx.revokeApiKey(id, at) : await tx.revokeOAuthClient(id, at);
        if (revoked) await recordChange(tx, credentialChange("key.revoked", kind, id, row?.database ?? null, {}));
        return revoked;
      }),

    async ensureSigningKey(name, proposed, at) {
      return (await rows.ensureSigningKey({ name, secret: proposed, created_at: at })).secret;
    },

    insertAuditRecord: (record) => rows.insertAuditRecord(record),
    async listAuditRecords(database, before, limit) {
      return (await rows.listAuditRecords(database, before, limit)).map(auditRecordOf);
    },
  };
}
