/**
 * @module `quiver migrate`: applies the metadata store's pending migrations and says which. A
 * server migrates at start-up too; this lets an operator migrate once before rolling out replicas
 * of a new release, and see the outcome.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { metadataFileName } from "../catalog/runtime/local-root.js";
import { openStore, redactStoreUrl } from "../store/open-store.js";
import { parseAdminArgs, storeTargetOf } from "./admin-store.js";
import { storeTargetUsage } from "./store-flag.js";

export const migrateUsage = `Usage: quiver migrate [--root DIR | --store URL]

Applies the metadata store's pending migrations (several processes may run it at once: one
migrates, the others wait and find nothing left). Refuses a store migrated by a newer Quiver.

${storeTargetUsage}`;

export async function migrateCommand(argv: string[]): Promise<void> {
  const { values } = parseAdminArgs(argv);
  if (values.help) {
    console.log(migrateUsage);
    return;
  }
  const { root, storeUrl: url } = storeTargetOf(values);
  if (url === undefined) mkdirSync(root, { recursive: true });
  const store = await openStore(url, path.join(root, metadataFileName), { migrate: false });
  try {
    const applied = await store.migrate();
    const where = url === undefined ? path.join(root, metadataFileName) : redactStoreUrl(url);
    if (applied.length === 0) console.log(`${where}: up to date`);
    for (const name of applied) console.log(`${where}: applied ${name}`);
  } finally {
    await store.close();
  }
}
