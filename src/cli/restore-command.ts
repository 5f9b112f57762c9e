/**
 * @module `quiver restore`: loads a backup written by `quiver backup` into an empty store of
 * either dialect (a SQLite backup into PostgreSQL included), in one transaction, then checks that
 * the data every restored table points at is in storage. A backup naming a location the
 * deployment would not give a database or table is refused before the store is touched.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { defaultDataLocation, metadataFileName } from "../catalog/runtime/local-root.js";
import { openStore, redactStoreUrl } from "../store/open-store.js";
import { parseAdminArgs, storeTargetOf } from "./admin-store.js";
import { backupKeyFileEnv, backupKeyOf } from "./backup-encryption.js";
import { openBackupFile } from "./backup-file.js";
import { requireServableLocations } from "./backup-locations.js";
import { restrictMetadataFileAccess } from "./metadata-file-access.js";
import { parseStorageFlags, storageFlagSpecs } from "./storage-flags.js";
import { storeTargetUsage } from "./store-flag.js";
import { reportTableData } from "./table-data-report.js";

export const restoreUsage = `Usage: quiver restore --from FILE [--encrypt-key-file KEYFILE] [--root DIR | --store URL]
                      [--data LOCATION] [--allow-root LOCATION ...]

Loads a backup written by 'quiver backup' into an empty metadata store (a new SQLite file under
--root, or an empty PostgreSQL database at --store), whichever dialect the backup came from. The
store is migrated to the backup's schema, the rows go in within one transaction, then the
migrations this Quiver adds run. A store that holds any row is refused. So is a backup naming a
location this deployment would not give a database or table (outside the data roots, or
outside the table's database): nothing of it is restored. Afterwards every table's data is
checked as 'quiver backup --check' does; exit code 1 if any is missing (the restore stays).

  --from FILE           the backup to load
  --encrypt-key-file KEYFILE
                        the key an encrypted backup was written with (env ${backupKeyFileEnv})
${storeTargetUsage}
  --data LOCATION       the data location the restored store's servers will use (env QUIVER_DATA)
  --storage-option K=V  Lance's storage options for --data, repeatable (env QUIVER_STORAGE_OPTIONS)
  --allow-root LOCATION a further location of this deployment's table data, repeatable: databases
                        of the backup with a location of their own must have it inside --data or
                        one of these`;

/** Runs `quiver restore` with the arguments after the command name. */
export async function restoreCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseAdminArgs(argv, {
    from: { type: "string" },
    "encrypt-key-file": { type: "string" },
    "allow-root": { type: "string", multiple: true },
    ...storageFlagSpecs,
  });
  if (values.help) {
    console.log(restoreUsage);
    return;
  }
  if (positionals.length > 0) throw new Error(`quiver restore takes no arguments, got '${positionals[0]}'\n\n${restoreUsage}`);
  const from = values.from as string | undefined;
  if (from === undefined) throw new Error(`quiver restore needs --from FILE\n\n${restoreUsage}`);
  const storage = parseStorageFlags(values as { data?: string; "storage-option"?: string[] }, process.env);
  const key = backupKeyOf(values["encrypt-key-file"] as string | undefined, process.env);
  const { header, source } = await openBackupFile(path.resolve(from), key);
  const { root, storeUrl } = storeTargetOf(values);
  // The data location as the restored store's servers (and the check below) will take it.
  const dataLocation = storage.data ?? defaultDataLocation(root);
  await requireServableLocations(source, { dataLocation, otherRoots: (values["allow-root"] as string[] | undefined) ?? [] }, storage.options);
  if (storeUrl === undefined) mkdirSync(root, { recursive: true });
  const store = await openStore(storeUrl, path.join(root, metadataFileName), { migrate: false });
  try {
    const loaded = await store.loadSnapshot(source);
    const rows = Object.values(loaded).reduce((sum, count) => sum + count, 0);
    const where = storeUrl === undefined ? path.join(root, metadataFileName) : redactStoreUrl(storeUrl);
    console.log(`restored ${rows} rows from ${from} (taken ${header.taken_at} from ${header.dialect}) into ${where}`);
  } finally {
    await store.close();
  }
  if (storeUrl === undefined) restrictMetadataFileAccess(root);
  await reportTableData(values, storage);
}
