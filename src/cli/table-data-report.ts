/**
 * @module Runs the table-data check (catalog/maintenance/table-data-check.ts) for `quiver backup
 * --check` and after `quiver restore`, printing each table whose data is missing; the exit code
 * is 1 when any is.
 */
import { checkTableData } from "../catalog/maintenance/table-data-check.js";
import { type AdminArgs, withStore } from "./admin-store.js";
import type { StorageFlags } from "./storage-flags.js";

/** Checks every table of the store `values` names and prints what is missing; exit code 1 if anything is. */
export async function reportTableData(values: AdminArgs["values"], storage: StorageFlags): Promise<void> {
  await withStore(
    values,
    async (store, _dataLocation, local) => {
      const report = await checkTableData(store, local.engine, (gap) => {
        console.log(`missing: table ${gap.id.join(".")} of database ${gap.database} at ${gap.location}: ${gap.reason}`);
      });
      const tables = `${report.checked} table${report.checked === 1 ? "" : "s"}`;
      if (report.checked === 0) {
        console.log("check: no tables to check");
        return;
      }
      if (report.missing.length === 0) {
        console.log(`check: the data of all ${tables} is in storage`);
        return;
      }
      console.log(`check: ${report.missing.length} of ${tables} miss data in storage`);
      process.exitCode = 1;
    },
    { storage },
  );
}
