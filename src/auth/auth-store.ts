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

  insertAuditRecord(record: AuditRecord): Promise<void>;
  /** Records of one database (all with undefined), newest first, strictly before `before`. */
  listAuditRecords(database: string | undefined, before: AuditCursor | undefined, limit: number): Promise<AuditRecord[]>;
}
