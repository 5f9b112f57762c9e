/**
 * @module Lance's storage options and which of them are secrets. Quiver reads the same keys Lance
 * does, so one map configures both; the few keys only Quiver reads are stripped before a map
 * reaches Lance or a client. Which keys those are, each backend's descriptor says.
 */
import { backendDescriptors } from "./backend-descriptors.js";

/** Lance's storage options (`azure_storage_account_name`, `aws_region`, `allow_http`, ...). */
export type StorageOptions = Record<string, string>;

/**
 * Keys whose values grant access, as each backend names them (Lance's names and their aliases).
 * They never appear in logs, errors or answers, unless the operator opts into handing them to
 * clients. Every backend's count, whatever a root's scheme: one map of options may configure any.
 */
const secretKeys = new Set(backendDescriptors.flatMap((descriptor) => descriptor.secretKeys));

/** Keys Quiver reads for itself (how to mint credentials); Lance does not know them. */
const quiverOnly = new Set(backendDescriptors.flatMap((descriptor) => descriptor.quiverKeys));

/** Whether the value of `key` grants access to a store, for any backend. */
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

/**
 * The options a client may send with CreateTable (the spec's write-path overrides): how long the
 * first write may take, and the format of the new table. Nothing that says where data goes or as
 * whom it is written (an endpoint, a proxy, a certificate check, a credential, a bucket's address
 * style): the client's map reaches Lance in place of the server's own settings, so such a key would
 * send the server's requests, signed with its credentials, wherever the client asks.
 */
const clientWriteKeys = new Set([
  "timeout",
  "connect_timeout",
  "aws_region",
  "region",
  "new_table_data_storage_version",
  "new_table_enable_v2_manifest_paths",
  "new_table_enable_stable_row_ids",
]);

/** The keys of `options` a client may not send with CreateTable (see `clientWriteKeys`), sorted. */
export function refusedClientWriteKeys(options: StorageOptions): string[] {
  return Object.keys(options).filter((key) => !clientWriteKeys.has(key.toLowerCase())).sort();
}

/** Of `options`, only the keys a client may send with CreateTable: what a table's stored options may hand back to clients. */
export function clientWriteOptionsOf(options: StorageOptions): StorageOptions {
  return Object.fromEntries(Object.entries(options).filter(([key]) => clientWriteKeys.has(key.toLowerCase())));
}

/** The keys a client may send with CreateTable, for the refusal's message and the docs. */
export const acceptedClientWriteKeys: readonly string[] = [...clientWriteKeys];
