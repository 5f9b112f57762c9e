/**
 * @module API keys and OAuth clients: created with a secret shown once, stored as a salted
 * hash, listed without the secret, revoked. A credential belongs to one database, or with
 * `database: null` to the whole deployment.
 *
 * API key format: `qk_<key id>_<secret>`; the key id (16 hex digits) finds the row, the secret
 * is checked against its hash. The id alone grants nothing and may appear in logs and audit.
 */
import { CatalogError } from "../model/catalog-error.js";
import type { AuthStore, CredentialKind, StoredCredential } from "./auth-store.js";
import { type CredentialRole, isCredentialRole, parseCredentialRole } from "./roles.js";
import { hashSecret, newPublicId, newSecret, secretMatches } from "./secrets.js";

export interface CredentialInfo {
  /** `key_id` of an API key or `client_id` of an OAuth client. */
  id: string;
  database: string | null;
  role: CredentialRole;
  description: string;
  created_at: number;
  revoked_at: number | null;
}

export interface NewCredentialRequest {
  database: string | null;
  role: unknown;
  description?: string;
}

const keyPattern = /^qk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

const kindNames: Record<CredentialKind, string> = { "api-key": "API key", "oauth-client": "OAuth client" };

function infoOf(credential: StoredCredential): CredentialInfo {
  return {
    id: credential.id,
    database: credential.database,
    role: isCredentialRole(credential.role) ? credential.role : "none",
    description: credential.description,
    created_at: credential.createdAt,
    revoked_at: credential.revokedAt,
  };
}

/** Stores a new credential with a fresh secret; throws 13 for a bad role, 1 for a missing database. */
async function createCredential(
  store: AuthStore,
  kind: CredentialKind,
  id: string,
  request: NewCredentialRequest,
): Promise<{ info: CredentialInfo; secret: string }> {
  const role = parseCredentialRole(request.role);
  if (request.database !== null && !(await store.databaseExists(request.database))) {
    throw CatalogError.of("NamespaceNotFound", `database '${request.database}' does not exist`);
  }
  const secret = newSecret();
  const { salt, secretHash } = hashSecret(secret);
  const credential = { id, database: request.database, role, salt, secretHash, description: request.description ?? "", createdAt: Date.now(), revokedAt: null };
  await store.insertCredential(kind, credential);
  return { info: infoOf(credential), secret };
}

/**
 * Revokes a credential. With `database` given, only one of that database qualifies. Throws 1
 * when no live credential matches (revoking twice is refused, so the caller learns it had no effect).
 */
async function revokeCredential(store: AuthStore, kind: CredentialKind, id: string, database: string | undefined): Promise<CredentialInfo> {
  const found = await store.findCredential(kind, id);
  if (!found || (database !== undefined && found.database !== database) || !(await store.revokeCredential(kind, id, Date.now()))) {
    throw CatalogError.of("NamespaceNotFound", `no live ${kindNames[kind]} '${id}'${database === undefined ? "" : ` in database '${database}'`}`);
  }
  return infoOf((await store.findCredential(kind, id)) as StoredCredential);
}

/** The live credential `id` names when `secret` is its secret, else undefined. */
async function verifyCredential(store: AuthStore, kind: CredentialKind, id: string, secret: string): Promise<StoredCredential | undefined> {
  const credential = await store.findCredential(kind, id);
  if (!credential || credential.revokedAt !== null) return undefined;
  return secretMatches(secret, { salt: credential.salt, secretHash: credential.secretHash }) ? credential : undefined;
}

/** Creates an API key. Throws 13 for a bad role, 1 for a missing database. */
export async function createApiKey(store: AuthStore, request: NewCredentialRequest): Promise<CredentialInfo & { api_key: string }> {
  const keyId = newPublicId();
  const { info, secret } = await createCredential(store, "api-key", keyId, request);
  return { ...info, api_key: `qk_${keyId}_${secret}` };
}

/** API keys of a database (or `null`: deployment-wide ones, `undefined`: all), without secrets. */
export async function listApiKeys(store: AuthStore, database: string | null | undefined): Promise<CredentialInfo[]> {
  return (await store.listCredentials("api-key", database)).map(infoOf);
}

/** Revokes a key, only one of `database` when given. Throws 1 when no live key matches. */
export async function revokeApiKey(store: AuthStore, keyId: string, database?: string): Promise<CredentialInfo> {
  return revokeCredential(store, "api-key", keyId, database);
}

/** The live key a presented API key names, or undefined when it is unknown, revoked or wrong. */
export async function verifyApiKey(store: AuthStore, presented: string): Promise<StoredCredential | undefined> {
  const match = keyPattern.exec(presented);
  return match ? verifyCredential(store, "api-key", match[1] as string, match[2] as string) : undefined;
}

/** Registers an OAuth client; its secret is returned once. Throws 13, 1 as for keys. */
export async function createOAuthClient(
  store: AuthStore,
  request: NewCredentialRequest,
): Promise<CredentialInfo & { client_id: string; client_secret: string }> {
  const clientId = `qc_${newPublicId()}`;
  const { info, secret } = await createCredential(store, "oauth-client", clientId, request);
  return { ...info, client_id: clientId, client_secret: secret };
}

export async function listOAuthClients(store: AuthStore, database: string | null | undefined): Promise<CredentialInfo[]> {
  return (await store.listCredentials("oauth-client", database)).map(infoOf);
}

/** Revokes a client; tokens it holds stop working at once. Throws 1 when no live client matches. */
export async function revokeOAuthClient(store: AuthStore, clientId: string, database?: string): Promise<CredentialInfo> {
  return revokeCredential(store, "oauth-client", clientId, database);
}

/** The live client for a client id and secret, or undefined. */
export async function verifyOAuthClient(store: AuthStore, clientId: string, secret: string): Promise<StoredCredential | undefined> {
  return verifyCredential(store, "oauth-client", clientId, secret);
}

/** The live client by id alone (a token it was issued is being checked). */
export async function liveOAuthClient(store: AuthStore, clientId: string): Promise<StoredCredential | undefined> {
  const client = await store.findCredential("oauth-client", clientId);
  return client && client.revokedAt === null ? client : undefined;
}
