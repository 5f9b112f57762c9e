/**
 * @module `quiver restore`: loads a backup written by `quiver backup` into an empty store of
 * either dialect (a SQLite backup into PostgreSQL included), in one transaction, then checks that
 * the data every restored table points at is in storage.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { metadataFileName } from "../catalog/runtime/local-root.js";
import { openStore, redactStoreUrl } from "../store/open-store.js";
import { parseAdminArgs, storeTargetOf } from "./admin-store.js";
import { openBackupFile } from "./backup-file.js";
import { restrictMetadataFileAccess } from "./metadata-file-access.js";
import { parseStorageFlags, storageFlagSpecs } from "./storage-flags.js";
import { storeTargetUsage } from "./store-flag.js";
import { reportTableData } from "./table-data-report.js";

export const restoreUsage = `Usage: quiver restore --from FILE [--root DIR | --store URL] [--data LOCATION]

Loads a backup written by 'quiver backup' into an empty metadata store (a new SQLite file under
--root, or an empty PostgreSQL database at --store), whichever dialect the backup came from. The
store is migrated to the backup's schema, the rows go in within one transaction, then the
migrations this Quiver adds run. A store that holds any row is refused. Afterwards every table's
data is checked as 'quiver backup --check' does; exit code 1 if any is missing (the restore stays).

  --from FILE           the backup to load
${storeTargetUsage}
  --data LOCATION       the data location the restored store's servers will use (env QUIVER_DATA)
  --storage-option K=V  Lance's storage options for --data, repeatable (env QUIVER_STORAGE_OPTIONS)`;

/** Runs `quiver restore` with the arguments after the command name. */
export async function restoreCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseAdminArgs(argv, { from: { type: "string" }, ...storageFlagSpecs });
  if (values.help) {
    console.log(restoreUsage);
    return;
  }
  if (positionals.length > 0) throw new Error(`quiver restore takes no arguments, got '${positionals[0]}'\n\n${restoreUsage}`);
  const from = values.from as string | undefined;
  if (from === undefined) throw new Error(`quiver restore needs --from FILE\n\n${restoreUsage}`);
  const storage = parseStorageFlags(values as { data?: string; "storage-option"?: string[] }, process.env);
  const { header, source } = await openBackupFile(path.resolve(from));
  const { root, storeUrl } = storeTargetOf(values);
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
