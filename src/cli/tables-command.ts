/**
 * @module `quiver tables`: the tables a drop retention keeps (docs/undrop.md), from the command
 * line: list them, restore one, or purge now those past their retention. It works beside running
 * servers, through the same catalog operations as their routes.
 */
import { defaultDatabaseName } from "../catalog/runtime/database-registry.js";
import { purgeDroppedTables } from "../catalog/tables/dropped-tables.js";
import { parseAdminArgs, withStore } from "./admin-store.js";
import { storeTargetUsage } from "./store-flag.js";

export const tablesUsage = `Usage:
  quiver tables dropped [NAMESPACE] [--database NAME] [--root DIR | --store URL]
  quiver tables undrop TABLE [--dropped-id ID] [--database NAME] [--root DIR | --store URL]
  quiver tables purge [--root DIR | --store URL]

dropped  lists the tables of a namespace (default the root; nested names joined with $) that a
         server's --drop-retention keeps, one JSON line each
undrop   restores the dropped table TABLE (e.g. shop$orders), the newest drop of that name unless
         --dropped-id picks one; its namespace must exist and its name be free
purge    deletes now the data of dropped tables past their retention, as servers do periodically

${storeTargetUsage}
  --database NAME       the database (default '${defaultDatabaseName}')`;

const options = { database: { type: "string" }, "dropped-id": { type: "string" } } as const;

export async function tablesCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseAdminArgs(argv, options);
  const [action, target, extra] = positionals;
  if (values.help || action === undefined) {
    console.log(tablesUsage);
    return;
  }
  if (extra !== undefined) throw new Error(`quiver tables ${action} takes at most one argument\n\n${tablesUsage}`);
  const database = (values.database as string | undefined) ?? defaultDatabaseName;
  const idOf = (text: string | undefined) => (text === undefined || text === "" || text === "$" ? [] : text.split("$"));
  await withStore(values, async (store, _dataLocation, local) => {
    if (action === "purge") {
      const purged = await purgeDroppedTables(store, local.registry);
      if (purged === undefined) console.log("another process is purging this store now");
      else for (const location of purged) console.log(`purged ${location}`);
      return;
    }
    const catalog = await local.registry.catalogFor(database);
    if (!catalog) throw new Error(`database '${database}' does not exist`);
    if (action === "dropped") {
      for (const table of (await catalog.listDroppedTables({ id: idOf(target) })).tables) console.log(JSON.stringify(table));
    } else if (action === "undrop") {
      if (!target) throw new Error(`quiver tables undrop needs the table's name\n\n${tablesUsage}`);
      const restored = await catalog.undropTable({ id: idOf(target), dropped_id: values["dropped-id"] as string | undefined });
      console.log(`restored ${target} at ${restored.location}`);
    } else {
      throw new Error(`unknown action '${action}'\n\n${tablesUsage}`);
    }
  });
}
