/**
 * @module API keys and OAuth clients: created with a secret shown once, stored as a salted
 * hash, listed without the secret, revoked. A credential belongs to one database, or with
 * `database: null` to the whole deployment.
 *
 * API key format: `qk_<key id>_<secret>`; the key id (16 hex digits) finds the row, the secret
 * is checked against its hash. The id alone grants nothing and may appear in logs and audit.
 */
import { CatalogError } from "../catalog/catalog-error.js";
import type { ApiKeyRow, OAuthClientRow } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { type Role, isRole, parseRole } from "./roles.js";
import { hashSecret, newPublicId, newSecret, secretMatches } from "./secrets.js";

export interface CredentialInfo {
  /** `key_id` of an API key or `client_id` of an OAuth client. */
  id: string;
  database: string | null;
  role: Role;
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

function infoOf(row: ApiKeyRow | OAuthClientRow, id: string): CredentialInfo {
  return {
    id,
    database: row.database,
    role: isRole(row.role) ? row.role : "read",
    description: row.description,
    created_at: Number(row.created_at),
    revoked_at: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

async function validateRequest(store: Store, request: NewCredentialRequest): Promise<{ role: Role; description: string }> {
  const role = parseRole(request.role);
  if (request.database !== null && !(await store.rows.findDatabase(request.database))) {
    throw CatalogError.of("NamespaceNotFound", `database '${request.database}' does not exist`);
  }
  return { role, description: request.description ?? "" };
}

/** Creates an API key. Throws 13 for a bad role, 1 for a missing database. */
export async function createApiKey(store: Store, request: NewCredentialRequest): Promise<CredentialInfo & { api_key: string }> {
  const { role, description } = await validateRequest(store, request);
  const keyId = newPublicId();
  const secret = newSecret();
  const { salt, secretHash } = hashSecret(secret);
  const row = { key_id: keyId, database: request.database, role, salt, secret_hash: secretHash, description, created_at: Date.now(), revoked_at: null };
  await store.rows.insertApiKey(row);
  return { ...infoOf(row, keyId), api_key: `qk_${keyId}_${secret}` };
}

/** API keys of a database (or `null`: deployment-wide ones, `undefined`: all), without secrets. */
export async function listApiKeys(store: Store, database: string | null | undefined): Promise<CredentialInfo[]> {
  return (await store.rows.listApiKeys(database)).map((row) => infoOf(row, row.key_id));
}

/**
 * Revokes a key. With `database` given, only a key of that database qualifies. Throws 1 when
 * no live key matches (revoking twice is refused, so the caller learns it had no effect).
 */
export async function revokeApiKey(store: Store, keyId: string, database?: string): Promise<CredentialInfo> {
  const row = await store.rows.findApiKey(keyId);
  if (!row || (database !== undefined && row.database !== database) || !(await store.rows.revokeApiKey(keyId, Date.now()))) {
    throw CatalogError.of("NamespaceNotFound", `no live API key '${keyId}'${database === undefined ? "" : ` in database '${database}'`}`);
  }
  return infoOf((await store.rows.findApiKey(keyId)) as ApiKeyRow, keyId);
}

/** The live key row a presented API key names, or undefined when it is unknown, revoked or wrong. */
export async function verifyApiKey(store: Store, presented: string): Promise<ApiKeyRow | undefined> {
  const match = keyPattern.exec(presented);
  if (!match) return undefined;
  const row = await store.rows.findApiKey(match[1] as string);
  if (!row || row.revoked_at !== null) return undefined;
  return secretMatches(match[2] as string, { salt: row.salt, secretHash: row.secret_hash }) ? row : undefined;
}

/** Registers an OAuth client; its secret is returned once. Throws 13, 1 as for keys. */
export async function createOAuthClient(
  store: Store,
  request: NewCredentialRequest,
): Promise<CredentialInfo & { client_id: string; client_secret: string }> {
  const { role, description } = await validateRequest(store, request);
  const clientId = `qc_${newPublicId()}`;
  const secret = newSecret();
  const { salt, secretHash } = hashSecret(secret);
  const row = { client_id: clientId, database: request.database, role, salt, secret_hash: secretHash, description, created_at: Date.now(), revoked_at: null };
  await store.rows.insertOAuthClient(row);
  return { ...infoOf(row, clientId), client_id: clientId, client_secret: secret };
}

export async function listOAuthClients(store: Store, database: string | null | undefined): Promise<CredentialInfo[]> {
  return (await store.rows.listOAuthClients(database)).map((row) => infoOf(row, row.client_id));
}

/** Revokes a client; tokens it holds stop working at once. Throws 1 when no live client matches. */
export async function revokeOAuthClient(store: Store, clientId: string, database?: string): Promise<CredentialInfo> {
  const row = await store.rows.findOAuthClient(clientId);
  if (!row || (database !== undefined && row.database !== database) || !(await store.rows.revokeOAuthClient(clientId, Date.now()))) {
    throw CatalogError.of("NamespaceNotFound", `no live OAuth client '${clientId}'${database === undefined ? "" : ` in database '${database}'`}`);
  }
  return infoOf((await store.rows.findOAuthClient(clientId)) as OAuthClientRow, clientId);
}

/** The live client row for a client id and secret, or undefined. */
export async function verifyOAuthClient(store: Store, clientId: string, secret: string): Promise<OAuthClientRow | undefined> {
  const row = await store.rows.findOAuthClient(clientId);
  if (!row || row.revoked_at !== null) return undefined;
  return secretMatches(secret, { salt: row.salt, secretHash: row.secret_hash }) ? row : undefined;
}

/** The live client row by id alone (a token it was issued is being checked). */
export async function liveOAuthClient(store: Store, clientId: string): Promise<OAuthClientRow | undefined> {
  const row = await store.rows.findOAuthClient(clientId);
  return row && row.revoked_at === null ? row : undefined;
}
