/**
 * @module `quiver sweep`: removes now the table folders no catalog row refers to (left by a create
 * or drop that crashed half-way), as a running server does every `--orphan-sweep-interval-ms`.
 * It works beside running servers. On a PostgreSQL store a sweep under way in any of them (or in
 * another `quiver sweep`) makes this one stand aside; SQLite's locks hold within one process only,
 * so there two sweeps may overlap, which is safe: each reads the rows again before removing.
 */
import { defaultOrphanGraceMs } from "../catalog/tables/orphaned-folders.js";
import { sweepOnce } from "../catalog/tables/orphan-sweeper.js";
import { parseAdminArgs, withStore } from "./admin-store.js";
import { parseStorageFlags, storageFlagSpecs } from "./storage-flags.js";
import { storeTargetUsage } from "./store-flag.js";

export const sweepUsage = `Usage: quiver sweep [--root DIR | --store URL] [--data LOCATION] [--storage-option K=V ...]

Removes the table folders no catalog row refers to (left by a create or drop that crashed
half-way) once nothing in them changed for an hour; prints each folder removed. A server does
the same at start-up and every --orphan-sweep-interval-ms.

${storeTargetUsage}
  --data LOCATION       the server's data location (env QUIVER_DATA, as for quiver serve)
  --storage-option K=V  Lance's storage options for --data, repeatable (env QUIVER_STORAGE_OPTIONS)`;

export async function sweepCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseAdminArgs(argv, { ...storageFlagSpecs });
  if (values.help) {
    console.log(sweepUsage);
    return;
  }
  if (positionals.length > 0) throw new Error(`quiver sweep takes no arguments, got '${positionals[0]}'\n\n${sweepUsage}`);
  const storage = parseStorageFlags(values as { data?: string; "storage-option"?: string[] }, process.env);
  await withStore(
    values,
    async (store, dataLocation, local) => {
      const report = await sweepOnce(store, local.engine, { graceMs: defaultOrphanGraceMs, dataLocation }, {
        removed: (location) => console.log(`removed ${location}`),
        failed: (location, error) => {
          console.error(`could not remove ${location}: ${error instanceof Error ? error.message : String(error)}`);
          process.exitCode = 1;
        },
      });
      if (report === undefined) console.log("another process is sweeping this store now; its sweep covers this one");
      else console.log(`${report.removed.length} orphaned table folder${report.removed.length === 1 ? "" : "s"} removed`);
    },
    { storage },
  );
}
