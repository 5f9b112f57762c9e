/**
 * @module Lance's storage options and which of them are secrets. Quiver reads the same keys Lance
 * does, so one map configures both; the few keys only Quiver reads are stripped before a map
 * reaches Lance or a client.
 */

/** Lance's storage options (`azure_storage_account_name`, `aws_region`, `allow_http`, ...). */
export type StorageOptions = Record<string, string>;

/**
 * Keys whose values grant access (Lance's names and their aliases). They never appear in logs,
 * errors or answers, unless the operator opts into handing them to clients.
 */
const secretKeys = new Set([
  "aws_access_key_id",
  "access_key_id",
  "aws_secret_access_key",
  "secret_access_key",
  "aws_session_token",
  "session_token",
  "aws_token",
  "token",
  "azure_storage_account_key",
  "azure_storage_access_key",
  "azure_storage_master_key",
  "access_key",
  "account_key",
  "master_key",
  "azure_storage_sas_token",
  "azure_storage_sas_key",
  "sas_token",
  "sas_key",
  "azure_storage_token",
  "bearer_token",
  "azure_client_secret",
  "azure_storage_client_secret",
  "client_secret",
  "google_service_account",
  "google_service_account_path",
  "service_account",
  "service_account_path",
  "google_service_account_key",
  "service_account_key",
  "google_application_credentials",
  "google_storage_token",
]);

/** Keys Quiver reads for itself (how to mint credentials); Lance does not know them. */
export const quiverOnlyKeys = {
  /** The IAM role whose session credentials Quiver vends for `s3://` tables. */
  s3VendingRole: "quiver_s3_vending_role_arn",
  /** The STS endpoint Quiver calls to assume that role (default: the region's). */
  s3StsEndpoint: "quiver_s3_sts_endpoint",
  /** The STS endpoint Quiver calls to downscope `gs://` credentials (default Google's). */
  gcsStsEndpoint: "quiver_gcs_sts_endpoint",
} as const;

const quiverOnly = new Set<string>(Object.values(quiverOnlyKeys));

export function isSecretStorageKey(key: string): boolean {
  return secretKeys.has(key.toLowerCase());
}

/** The options as Lance should see them: without Quiver's own keys. */
export function lanceOptionsOf(options: StorageOptions): StorageOptions {
  return Object.fromEntries(Object.entries(options).filter(([key]) => !quiverOnly.has(key.toLowerCase())));
}

/** The options a client may see without credentials: endpoint, region, `allow_http`, path style. */
export function nonSecretOptionsOf(options: StorageOptions): StorageOptions {
  return Object.fromEntries(Object.entries(lanceOptionsOf(options)).filter(([key]) => !isSecretStorageKey(key)));
}

/** The options with every secret value replaced, for logs, errors and admin answers. */
export function redactedOptionsOf(options: StorageOptions): StorageOptions {
  return Object.fromEntries(Object.entries(options).map(([key, value]) => [key, isSecretStorageKey(key) ? "<redacted>" : value]));
}
