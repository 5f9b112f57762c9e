/**
 * @module The metrics of local copies of object-store tables: how many are held and their bytes,
 * the queries they answered, what copying fetched, and copies removed or not made. Every series
 * starts at zero, so a rate is defined from the first scrape.
 */
import { counter, gauge } from "./metric-families.js";

const skipReasons = ["too-large", "other-locations", "unsafe-name", "failed", "damaged"] as const;

export const tableCopies = gauge("quiver_table_copies", "Local copies of object-store tables held for reads");
export const tableCopyBytes = gauge("quiver_table_copy_bytes", "Bytes on disk of the local copies of object-store tables");
export const tableCopyReads = counter("quiver_table_copy_reads_total", "Queries and counts answered from a local copy of an object-store table instead of the store");
export const tableCopyFetchedBytes = counter("quiver_table_copy_fetched_bytes_total", "Bytes fetched from object stores to make or update local copies of tables");
export const tableCopyEvictions = counter("quiver_table_copy_evictions_total", "Local copies of tables removed to stay under their bound");
export const tableCopySkips = counter("quiver_table_copy_skips_total", "Tries to copy a table given up, by reason: too-large, other-locations (the table reads files of other locations), unsafe-name (a file name Lance never writes), failed, damaged (a read found the copy damaged)", ["reason"]);

for (const reason of skipReasons) tableCopySkips.inc({ reason }, 0);

/** The copies' observer that counts into these metrics. */
export const tableCopyObserver = {
  copied(bytes: number): void {
    tableCopyFetchedBytes.inc(bytes);
  },
  read(): void {
    tableCopyReads.inc();
  },
  evicted(): void {
    tableCopyEvictions.inc();
  },
  skipped(reason: string): void {
    tableCopySkips.inc({ reason });
  },
  holding(copies: number, bytes: number): void {
    tableCopies.set(copies);
    tableCopyBytes.set(bytes);
  },
};
