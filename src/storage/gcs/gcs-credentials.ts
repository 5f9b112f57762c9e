/**
 * @module Downscoped access tokens for one `gs://` table. Quiver's service account gets an access
 * token from Google and exchanges it at Google's Security Token Service for one bounded by a
 * Credential Access Boundary: the objects under the table's prefix only, read-only or read-write.
 * A client holding it reaches that table for a while and never sees the service account's key.
 */
import type { JWT, JWTOptions } from "google-auth-library";
import type { CredentialMinter, CredentialReach, TableAccess } from "../storage-backend.js";
import type { StorageOptions } from "../storage-options.js";
import { gcsQuiverKeys } from "./gcs-descriptor.js";
import { checkedEndpoint, parseGcsLocation, parseServiceAccountKey, type ServiceAccount, serviceAccountOf } from "./gcs-storage.js";

export const defaultStsEndpoint = "https://sts.googleapis.com";

const tokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange";
const accessTokenType = "urn:ietf:params:oauth:token-type:access_token";

/** The scope of the source token; the boundary, not the scope, is what narrows the result. */
const sourceScope = "https://www.googleapis.com/auth/cloud-platform";

/**
 * A source token is fetched anew once less than this remains of it. A downscoped token ends with
 * its source token, so this is the least lifetime a minted token can have (unless asked for less).
 */
const sourceTokenReserveMillis = 30 * 60_000;

/** How long the token exchange may take before a mint fails. */
const exchangeTimeoutMillis = 10_000;

/**
 * The upper bound per access. `objectUser` reads, lists, creates, overwrites and deletes objects;
 * unlike `objectAdmin` it cannot change an object's ACL, which no Lance writer needs.
 */
const roleOf: Record<TableAccess, string> = {
  read: "inRole:roles/storage.objectViewer",
  write: "inRole:roles/storage.objectUser",
};

export interface AccessBoundaryRule {
  availablePermissions: string[];
  availableResource: string;
  availabilityCondition?: { title: string; expression: string };
}

/** A Credential Access Boundary document, as the token exchange takes it in `options`. */
export interface CredentialAccessBoundary {
  accessBoundary: { accessBoundaryRules: AccessBoundaryRule[] };
}

/** `value` as a single-quoted CEL string literal. */
function celString(value: string): string {
  // Object names may hold any character; control characters have no place in a table's path.
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new Error(`'${value}' holds a control character and cannot be scoped`);
  return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

/**
 * The boundary for `access` to the table at `location`: one rule on its bucket whose condition
 * admits the objects under `<prefix>/` and, for listing, requests for a list prefix that starts
 * there (a list is checked against the bucket, so the object-name clause cannot admit it).
 * A table at the bucket's root gets the whole bucket.
 */
export function accessBoundaryOf(location: string, access: TableAccess): CredentialAccessBoundary {
  const { bucket, name } = parseGcsLocation(location);
  const rule: AccessBoundaryRule = {
    availablePermissions: [roleOf[access]],
    availableResource: `//storage.googleapis.com/projects/_/buckets/${bucket}`,
  };
  if (name !== "") {
    const prefix = `${name}/`;
    rule.availabilityCondition = {
      title: `${access} ${prefix}`,
      expression:
        `resource.name.startsWith(${celString(`projects/_/buckets/${bucket}/objects/${prefix}`)})` +
        ` || api.getAttribute('storage.googleapis.com/objectListPrefix', '').startsWith(${celString(prefix)})`,
    };
  }
  return { accessBoundary: { accessBoundaryRules: [rule] } };
}

export interface SourceToken {
  token: string;
  /** When it expires, if known. */
  expiresAtMillis: number | undefined;
}

/** Gives an access token of the identity whose reach the boundary narrows. */
export type SourceTokenSupplier = () => Promise<SourceToken>;

/**
 * Access tokens of `account`, from google-auth-library, which keeps one until it nears its end.
 * `transporterOptions` reach the library's HTTP client (tests point it at a local server).
 */
export function serviceAccountTokenSupplier(account: ServiceAccount, transporterOptions?: JWTOptions["transporterOptions"]): SourceTokenSupplier {
  let client: Promise<JWT> | undefined;
  const create = async (): Promise<JWT> => {
    const auth = await import("google-auth-library");
    const options: JWTOptions = { scopes: sourceScope, eagerRefreshThresholdMillis: sourceTokenReserveMillis, transporterOptions };
    if ("keyFile" in account) return new auth.JWT({ ...options, keyFile: account.keyFile });
    const key = parseServiceAccountKey(account.keyJson);
    return new auth.JWT({ ...options, email: key.client_email, key: key.private_key, keyId: key.private_key_id });
  };
  return async () => {
    client ??= create();
    const jwt = await client;
    const { token } = await jwt.getAccessToken();
    if (!token) throw new Error("the service account got no access token from Google");
    return { token, expiresAtMillis: jwt.credentials.expiry_date ?? undefined };
  };
}

/** A downscoped token and, when the service says, its lifetime. */
export interface DownscopedToken {
  token: string;
  expiresInSeconds: number | undefined;
}

/** Exchanges `sourceToken` at the STS token endpoint under `stsEndpoint` for one bounded by `boundary`. */
export async function exchangeForDownscopedToken(stsEndpoint: string, sourceToken: string, boundary: CredentialAccessBoundary): Promise<DownscopedToken> {
  const response = await fetch(`${stsEndpoint}/v1/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: tokenExchangeGrant,
      subject_token_type: accessTokenType,
      requested_token_type: accessTokenType,
      subject_token: sourceToken,
      options: JSON.stringify(boundary),
    }),
    signal: AbortSignal.timeout(exchangeTimeoutMillis),
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown };
  if (!response.ok || typeof body.access_token !== "string") {
    // The error fields name the failure; nothing in them is a credential.
    const reason = [body.error, body.error_description].filter((part) => typeof part === "string").join(": ");
    throw new Error(`the token exchange for a downscoped gs:// token failed with status ${response.status}${reason ? ` (${reason})` : ""}`);
  }
  return { token: body.access_token, expiresInSeconds: typeof body.expires_in === "number" ? body.expires_in : undefined };
}

export class GcsCredentialMinter implements CredentialMinter {
  constructor(
    private readonly sourceToken: SourceTokenSupplier,
    private readonly stsEndpoint: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The access boundary names the table's prefix; only a table at a bucket's root gets the bucket. */
  async reachOf(location: string): Promise<CredentialReach> {
    return parseGcsLocation(location).name === "" ? "container" : "prefix";
  }

  async mint(location: string, access: TableAccess, ttlSeconds: number): Promise<StorageOptions> {
    if (!(ttlSeconds > 0)) throw new RangeError(`a credential's lifetime must be positive, not ${ttlSeconds} seconds`);
    const boundary = accessBoundaryOf(location, access);
    const source = await this.sourceToken();
    const startMillis = this.now();
    const downscoped = await exchangeForDownscopedToken(this.stsEndpoint, source.token, boundary);
    // A downscoped token lives exactly as long as its source token (an hour at most) and cannot be
    // cut shorter: a smaller TTL only brings the announced expiry forward, so clients renew sooner.
    const ends = [startMillis + ttlSeconds * 1000, source.expiresAtMillis];
    if (downscoped.expiresInSeconds !== undefined) ends.push(startMillis + downscoped.expiresInSeconds * 1000);
    const expiresAtMillis = Math.min(...ends.filter((end): end is number => end !== undefined));
    return { google_storage_token: downscoped.token, expires_at_millis: String(expiresAtMillis) };
  }
}

/**
 * A minter for these options, or undefined without a service account: a configured bearer token
 * has an unknown end and may itself be one Quiver vended, so it is not downscoped further.
 */
export function gcsCredentialMinterOf(options: StorageOptions): GcsCredentialMinter | undefined {
  const account = serviceAccountOf(options);
  if (!account) return undefined;
  if ("keyJson" in account) parseServiceAccountKey(account.keyJson);
  const stsEndpoint = checkedEndpoint(options[gcsQuiverKeys.stsEndpoint] ?? defaultStsEndpoint, options, gcsQuiverKeys.stsEndpoint);
  return new GcsCredentialMinter(serviceAccountTokenSupplier(account), stsEndpoint);
}
