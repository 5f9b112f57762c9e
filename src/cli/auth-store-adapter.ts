/**
 * @module Auth's `AuthStore` over the metadata store. It lives in the composition root, which may
 * import both: auth sees no store rows, and the store does not know auth exists. Integer columns
 * pass through Number(), so auth's records hold numbers whatever the driver answers.
 */
import type { AuthStore, AuthzChangeContext, CredentialKind, StoredCredential, StoredGrant, StoredRoleBinding } from "../auth/auth-store.js";
import { type Change, recordChange } from "../catalog/change-events.js";
import type { AuditRecord } from "../model/admin.js";
import type { ApiKeyRow, AuditRow, CredentialColumns, OAuthClientRow } from "../store/schema.js";
import type { Store, StoreTx } from "../store/store.js";

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

/** The store's notices of a grant or binding change: every process drops its index on hearing one. */
const authzTopic = "authz";

function grantChange(kind: "grant.added" | "grant.deleted", grant: StoredGrant, context: AuthzChangeContext): Change {
  return { kind, database: context.database, subject: `${context.database || "*"}/grant/${grant.object}`, data: { subject_id: grant.subject, object: grant.object, privilege: grant.privilege, by: context.by } };
}

function bindingChange(kind: "role.bound" | "role.unbound", binding: StoredRoleBinding, context: AuthzChangeContext): Change {
  return { kind, database: context.database, subject: `*/role/${binding.role}`, data: { subject_id: binding.subject, role: binding.role, by: context.by } };
}

const grantOf = (row: { subject: string; object: string; privilege: string }): StoredGrant => ({ subject: row.subject, object: row.object, privilege: row.privilege });
const bindingOf = (row: { subject: string; role: string }): StoredRoleBinding => ({ subject: row.subject, role: row.role });

/**
 * Runs `change` in one transaction; when it changed anything, counts the change there (the count
 * every process compares its index with) and then tells every process at once.
 */
async function authzChange(store: Store, change: (tx: StoreTx) => Promise<boolean>): Promise<boolean> {
  const changed = await store.transaction(async (tx) => {
    if (!(await change(tx))) return false;
    await tx.countAuthzChange();
    return true;
  });
  if (changed) await store.events.publish({ topic: authzTopic, key: "" });
  return changed;
}

/** The auth data of `store`; a credential, grant or binding and its change event are written in one transaction. */
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

    addGrant: (grant, transfer, context) =>
      authzChange(store, async (tx) => {
        if (transfer) await tx.deleteOtherGrants(grant.object, grant.privilege, grant.subject);
        if (!(await tx.insertGrant({ ...grant, granted_at: Date.now(), granted_by: context.by }))) return false;
        await recordChange(tx, grantChange("grant.added", grant, context));
        return true;
      }),
    deleteGrant: (grant, context) =>
      authzChange(store, async (tx) => {
        if (!(await tx.deleteGrant(grant))) return false;
        await recordChange(tx, grantChange("grant.deleted", grant, context));
        return true;
      }),
    async recordOwner(object, subject, by) {
      await authzChange(store, async (tx) => {
        await tx.deleteOtherGrants(object, "OWNERSHIP", subject);
        return tx.insertGrant({ subject, object, privilege: "OWNERSHIP", granted_at: Date.now(), granted_by: by });
      });
    },
    async forgetGrants(objects, prefixes) {
      await authzChange(store, async (tx) => {
        let count = 0;
        for (const object of objects) count += await tx.deleteGrantsOn(object);
        for (const prefix of prefixes) count += await tx.deleteGrantsOn(prefix, prefix);
        return count > 0;
      });
    },
    async moveGrants(from, to) {
      await authzChange(store, async (tx) => {
        // Grants left on `to` by a table of that name dropped before are not the renamed table's.
        await tx.deleteGrantsOn(to);
        await tx.moveGrants(from, to);
        return true;
      });
    },
    listGrants: async (filter, after, limit) => (await rows.listGrants(filter, after, limit)).map(grantOf),
    addRoleBinding: (binding, context) =>
      authzChange(store, async (tx) => {
        if (!(await tx.insertRoleBinding({ ...binding, bound_at: Date.now() }))) return false;
        await recordChange(tx, bindingChange("role.bound", binding, context));
        return true;
      }),
    deleteRoleBinding: (binding, context) =>
      authzChange(store, async (tx) => {
        if (!(await tx.deleteRoleBinding(binding))) return false;
        await recordChange(tx, bindingChange("role.unbound", binding, context));
        return true;
      }),
    listRoleBindings: async (filter, after, limit) => (await rows.listRoleBindings(filter, after, limit)).map(bindingOf),
    loadAuthz: () =>
      store.transaction(async (tx) => {
        const version = await tx.authzVersion();
        const [grants, bindings] = [await tx.allGrants(), await tx.allRoleBindings()];
        return { version, grants: grants.map(grantOf), bindings: bindings.map(bindingOf) };
      }),
    authzVersion: () => rows.authzVersion(),
    onAuthzChange: (listener) =>
      store.events.subscribe((change) => {
        if (change.topic === authzTopic || change.topic === "*") listener();
      }),

    insertAuditRecord: (record) => rows.insertAuditRecord(record),
    async listAuditRecords(database, before, limit) {
      return (await rows.listAuditRecords(database, before, limit)).map(auditRecordOf);
    },
  };
}
