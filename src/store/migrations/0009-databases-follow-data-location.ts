/**
 * Frozen migration: a database created without a location of its own stores none (`''`), so it
 * follows the data location of the server serving it. Before, such a database stored the default
 * of the moment, `<root>/databases/<name>`; those rows are turned into `''`. The root is not known
 * here, and it may have moved since (a copied or remounted folder), so the default is recognized
 * by its shape: a local absolute path ending in `databases/<name>`, with no storage options of the
 * database's own (a database given storage options was always given its own location). Its
 * tables keep their recorded locations. Uses an untyped handle and imports nothing from the
 * application, so later code changes cannot alter it.
 */
import type { Kysely } from "kysely";

function isOldDefault(storageRoot: string, name: string, storageOptions: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(storageRoot)) return false;
  if (storageOptions.trim() !== "{}") return false;
  const parts = storageRoot.replace(/[\\/]+$/, "").split(/[\\/]/);
  return parts.length >= 3 && parts[parts.length - 1] === name && parts[parts.length - 2] === "databases";
}

export async function up(db: Kysely<any>): Promise<void> {
  const rows = await db.selectFrom("databases").select(["name", "storage_root", "storage_options"]).execute();
  for (const row of rows) {
    if (!isOldDefault(String(row.storage_root), String(row.name), String(row.storage_options))) continue;
    await db.updateTable("databases").set({ storage_root: "" }).where("name", "=", row.name).execute();
  }
}
