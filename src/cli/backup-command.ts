/**
 * @module `quiver backup`: writes the metadata store, as of one point in time, to a file that
 * `quiver restore` loads into an empty store of either dialect; and `--check`, which tells
 * whether the data every table points at is still in storage. Servers keep serving meanwhile.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { metadataFileName } from "../catalog/runtime/local-root.js";
import { quiverVersion } from "../server/version.js";
import { openStore, redactStoreUrl } from "../store/open-store.js";
import { parseAdminArgs, storeTargetOf } from "./admin-store.js";
import { backupKeyFileEnv, backupKeyOf } from "./backup-encryption.js";
import { writeBackupFile } from "./backup-file.js";
import { notingStorageSecrets } from "./backup-secrets.js";
import { parseStorageFlags, storageFlagSpecs } from "./storage-flags.js";
import { storeTargetUsage } from "./store-flag.js";
import { reportTableData } from "./table-data-report.js";

export const backupUsage = `Usage: quiver backup --to FILE [--encrypt-key-file KEYFILE] [--root DIR | --store URL]
       quiver backup --check [--root DIR | --store URL] [--data LOCATION]

Writes every row of the metadata store, as of one moment, to FILE (gzip'd JSON lines) while
servers keep serving. The file holds secrets: the token-signing key, the storage options of
databases and tables (object-store account keys and secret access keys among them) and the
answers kept for idempotent retries; API keys and client secrets only as salted hashes. It is
written readable by its owner only; encrypt it with --encrypt-key-file, or keep it as you keep
the store. Table data stays where it is; back it up with the storage it lives on.

  --to FILE             where to write the backup
  --encrypt-key-file KEYFILE
                        encrypt the backup (AES-256-GCM) under the 256-bit key in KEYFILE: 64 hex
                        digits or 44 base64 characters, e.g. from 'openssl rand -hex 32'
                        (env ${backupKeyFileEnv}); quiver restore needs the same key
  --check               check that every table's data (its location, and the newest version the
                        catalog records) is still in storage; exit code 1 if any is missing
${storeTargetUsage}
  --data LOCATION       the server's data location, for --check (env QUIVER_DATA)
  --storage-option K=V  Lance's storage options for --data, repeatable (env QUIVER_STORAGE_OPTIONS)`;

/** Runs `quiver backup` with the arguments after the command name. */
export async function backupCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseAdminArgs(argv, { to: { type: "string" }, check: { type: "boolean" }, "encrypt-key-file": { type: "string" }, ...storageFlagSpecs });
  if (values.help) {
    console.log(backupUsage);
    return;
  }
  if (positionals.length > 0) throw new Error(`quiver backup takes no arguments, got '${positionals[0]}'\n\n${backupUsage}`);
  const to = values.to as string | undefined;
  if (to === undefined && !values.check) throw new Error(`quiver backup needs --to FILE or --check\n\n${backupUsage}`);
  const storage = parseStorageFlags(values as { data?: string; "storage-option"?: string[] }, process.env);
  if (to !== undefined) await backUp(values, path.resolve(to), backupKeyOf(values["encrypt-key-file"] as string | undefined, process.env));
  if (values.check) await reportTableData(values, storage);
}

async function backUp(values: Record<string, unknown>, file: string, key: Buffer | undefined): Promise<void> {
  const { root, storeUrl } = storeTargetOf(values as Parameters<typeof storeTargetOf>[0]);
  const sqliteFile = path.join(root, metadataFileName);
  // A backup reads the store as it is: it neither creates nor migrates one.
  if (storeUrl === undefined && !existsSync(sqliteFile)) throw new Error(`no metadata store at ${sqliteFile}`);
  const store = await openStore(storeUrl, sqliteFile, { migrate: false });
  try {
    const secrets: string[] = [];
    const { result, counts } = await writeBackupFile(file, quiverVersion, (sink) => store.readSnapshot(notingStorageSecrets(sink, secrets)), key);
    const where = storeUrl === undefined ? sqliteFile : redactStoreUrl(storeUrl);
    const rows = Object.entries(counts)
      .filter(([, count]) => count > 0)
      .map(([table, count]) => `${table} ${count}`)
      .join(", ");
    console.log(`backed up ${where} (schema ${result.migrations.at(-1) ?? "empty"}) to ${file}${key ? ", encrypted" : ""}: ${rows || "no rows"}`);
    if (key === undefined && secrets.length > 0) {
      console.error(
        `warning: ${file} holds storage credentials in clear, in the storage options of ${secrets.join("; ")}; ` +
          "whoever reads the file can use them: encrypt backups with --encrypt-key-file",
      );
    }
  } finally {
    await store.close();
  }
}
