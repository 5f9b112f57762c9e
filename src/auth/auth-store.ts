/**
 * @module What auth keeps in the metadata store, in its own terms: credentials, the token signing
 * key and the audit log. The composition root adapts the store to it (`cli/auth-store-adapter.ts`),
 * so auth imports nothing of the store and the store nothing of auth.
 */
import type { AuditRecord } from "../model/admin.js";

export type CredentialKind = "api-key" | "oauth-client";

/** An API key or OAuth client as stored: its secret only as a salted hash. */
export interface StoredCredential {
  /** The key id of an API key, the client id of an OAuth client. */
  id: string;
  /** Null for a deployment-wide credential. */
  database: string | null;
  /** As stored; callers check it with `isRole`. */
  role: string;
  salt: string;
  secretHash: string;
  description: string;
  /** Epoch milliseconds. */
  createdAt: number;
  revokedAt: number | null;
}

/** Where a page of audit records ends: records strictly before it come next. */
export interface AuditCursor {
  at: number;
  id: string;
}

/** A privilege on an object held by a subject, in LanceDB's authorization grammar (model/authz/). */
export interface StoredGrant {
  subject: string;
  object: string;
  privilege: string;
}

/** A role held by a principal or a group. */
export interface StoredRoleBinding {
  subject: string;
  role: string;
}

/** Who changed a grant or binding, and the database whose change events record it (`""`: deployment-wide). */
export interface AuthzChangeContext {
  by: string;
  database: string;
}

export interface AuthStore {
  databaseExists(name: string): Promise<boolean>;

  insertCredential(kind: CredentialKind, credential: StoredCredential): Promise<void>;
  findCredential(kind: CredentialKind, id: string): Promise<StoredCredential | undefined>;
  /** Oldest first: those of one database, with `null` the deployment-wide ones, with undefined all. */
  listCredentials(kind: CredentialKind, database: string | null | undefined): Promise<StoredCredential[]>;
  /** Marks a live credential revoked at `at`; answers whether one was. */
  revokeCredential(kind: CredentialKind, id: string, at: number): Promise<boolean>;

  /**
   * Keeps `proposed` (base64url) as the secret named `name` unless one is kept already, and answers
   * the kept one: processes starting together all end up with the same key.
   */
  ensureSigningKey(name: string, proposed: string, at: number): Promise<string>;

  /**
   * Adds a grant with its change event; answers false when it is held already. With `transfer`
   * the same privilege on the same object is first taken from every other subject (ownership).
   */
  addGrant(grant: StoredGrant, transfer: boolean, context: AuthzChangeContext): Promise<boolean>;
  /** Removes a grant with its change event; answers whether it was held. */
  deleteGrant(grant: StoredGrant, context: AuthzChangeContext): Promise<boolean>;
  /**
   * Makes `subject` the owner of a new object: OWNERSHIP on it, taken from any earlier holder. No
   * change event: the creation's own event says who created it.
   */
  recordOwner(object: string, subject: string, by: string): Promise<void>;
  /**
   * Removes every grant on `objects` and on every object whose text starts with one of
   * `prefixes`: what a dropped table or namespace leaves behind. No change event: the drop has its own.
   */
  forgetGrants(objects: readonly string[], prefixes: readonly string[]): Promise<void>;
  /** Moves every grant on `from` to `to`: a renamed table keeps its grants. */
  moveGrants(from: string, to: string): Promise<void>;
  /** Grants in (object, subject, privilege) order, strictly after `after`. */
  listGrants(filter: { object?: string; subject?: string }, after: StoredGrant | undefined, limit: number): Promise<StoredGrant[]>;
  /** Binds a role with its change event; answers false when it was bound already. */
  addRoleBinding(binding: StoredRoleBinding, context: AuthzChangeContext): Promise<boolean>;
  deleteRoleBinding(binding: StoredRoleBinding, context: AuthzChangeContext): Promise<boolean>;
  /** Bindings in (role, subject) order, strictly after `after`. */
  listRoleBindings(filter: { subject?: string; role?: string }, after: StoredRoleBinding | undefined, limit: number): Promise<StoredRoleBinding[]>;
  /** Every grant and binding, for the index each process keeps, with the count of changes they reflect. */
  loadAuthz(): Promise<{ version: number; grants: StoredGrant[]; bindings: StoredRoleBinding[] }>;
  /** How many changes of grants and bindings the store has seen: a cheap test of an index's currency. */
  authzVersion(): Promise<number>;
  /** Calls `listener` whenever grants or bindings may have changed, in any process on the store. */
  onAuthzChange(listener: () => void): () => void;

  insertAuditRecord(record: AuditRecord): Promise<void>;
  /** Records of one database (all with undefined), newest first, strictly before `before`. */
  listAuditRecords(database: string | undefined, before: AuditCursor | undefined, limit: number): Promise<AuditRecord[]>;
}
