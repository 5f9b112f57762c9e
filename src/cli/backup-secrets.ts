/**
 * @module Which storage credentials a backup carries: the secret keys (account keys, secret
 * access keys, service-account keys, ...) of the storage options databases and tables keep in
 * the store, found as the rows go by, so `quiver backup` can say so when it writes them in clear.
 */
import { isSecretStorageKey } from "../storage/storage-options.js";
import type { SnapshotSink } from "../store/snapshot/read-snapshot.js";

/** The store's tables whose rows keep storage options, and how a row of each is named. */
const optionsKeepers: Record<string, (row: Record<string, unknown>) => string> = {
  databases: (row) => `database ${String(row.name)}`,
  tables: (row) => `table ${[...String(row.namespace_path).split("/").filter((part) => part !== ""), String(row.name)].join(".")} of database ${String(row.database)}`,
  dropped_tables: (row) => `dropped table ${String(row.name)} of database ${String(row.database)}`,
};

/** The secret keys of a `storage_options` column (JSON text, or a map). */
function secretKeysOf(options: unknown): string[] {
  let map: unknown = options;
  if (typeof options === "string") {
    try {
      map = JSON.parse(options);
    } catch {
      return [];
    }
  }
  if (map === null || typeof map !== "object") return [];
  return Object.keys(map).filter(isSecretStorageKey);
}

/**
 * `sink`, noting in `found` each row whose storage options hold a secret, as
 * `database analytics (azure_storage_account_key)`.
 */
export function notingStorageSecrets(sink: SnapshotSink, found: string[]): SnapshotSink {
  return {
    begin: (info) => sink.begin(info),
    rows: async (table, rows) => {
      const name = optionsKeepers[table.name];
      if (name) {
        for (const row of rows) {
          const keys = secretKeysOf(row.storage_options);
          if (keys.length > 0) found.push(`${name(row)} (${keys.join(", ")})`);
        }
      }
      await sink.rows(table, rows);
    },
  };
}
