/**
 * @module `quiver databases create|list|set|drop`: database (tenant) administration on a root.
 */
import { createDatabase, dropDatabase, listDatabases, updateDatabaseSettings } from "../catalog/runtime/database-admin.js";
import { sharedContainerReason } from "../catalog/shared-containers.js";
import { parseAdminArgs, withStore } from "./admin-store.js";
import { parseStorageFlags, storageFlagSpecs } from "./storage-flags.js";
import { storeTargetUsage } from "./store-flag.js";

export const databasesUsage = `Usage: quiver databases <create|list|set|drop> [options]

  quiver databases create NAME [--managed-versioning] [--data LOCATION] [--storage-option K=V ...]
                          [--read-consistency-interval MS] [--outside-writers on|off]
                          [--root DIR | --store URL]
  quiver databases list [--root DIR | --store URL]
  quiver databases set NAME [--read-consistency-interval MS|strong] [--auto-maintenance on|off|server]
                       [--outside-writers on|off] [--root DIR | --store URL]
  quiver databases drop NAME [--cascade] [--root DIR | --store URL]

${storeTargetUsage}
  --data LOCATION       where this database's tables live (a folder or an object-store URI); default
                        the server's data location (env QUIVER_DATA, as for quiver serve) + NAME
  --storage-option K=V  Lance's storage options for --data, repeatable; kept in the metadata store
  --read-consistency-interval MS
                        reads may answer from a kept table handle for MS milliseconds without looking
                        at the store for commits made outside Quiver (clients writing directly);
                        'strong' (the default) looks on every read. Commits through Quiver are seen
                        at once either way
  --outside-writers on|off
                        'on': writers holding their own storage keys commit to the database's
                        tables, so every read looks at the store. 'off' (the default): reads of an
                        object-store table look only while credentials Quiver vended with write
                        access to it are valid, or under static vending
  --auto-maintenance on|off|server
                        whether the database's tables are compacted, re-indexed and cleaned up
                        without being asked; 'server' (the default) follows quiver serve's
                        --auto-maintenance. A table's quiver.auto_maintenance property wins
  --cascade    drop a database that still holds namespaces or tables, with its data`;

/** The value of --read-consistency-interval: milliseconds, or 'strong' for none. */
function readConsistencyOf(text: string | undefined): number | null | undefined {
  if (text === undefined) return undefined;
  if (text === "strong") return null;
  if (!/^\d+$/.test(text)) throw new Error(`--read-consistency-interval must be a whole number of milliseconds or 'strong', got '${text}'`);
  return Number(text);
}

/** The value of --auto-maintenance: on, off, or 'server' to follow the server. */
function autoMaintenanceOf(text: string | undefined): boolean | null | undefined {
  if (text === undefined) return undefined;
  if (text === "on" || text === "off") return text === "on";
  if (text === "server") return null;
  throw new Error(`--auto-maintenance must be on, off or server, got '${text}'`);
}

/** The value of --outside-writers: on or off. */
function outsideWritersOf(text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  if (text === "on" || text === "off") return text === "on";
  throw new Error(`--outside-writers must be on or off, got '${text}'`);
}

/** How a database's maintenance setting is shown. */
function shownAutoMaintenance(value: boolean | null): string {
  return value === null ? "server" : value ? "on" : "off";
}

export async function databasesCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseAdminArgs(argv, {
    "managed-versioning": { type: "boolean" },
    cascade: { type: "boolean" },
    "read-consistency-interval": { type: "string" },
    "auto-maintenance": { type: "string" },
    "outside-writers": { type: "string" },
    ...storageFlagSpecs,
  });
  const readConsistencyMs = readConsistencyOf(values["read-consistency-interval"] as string | undefined);
  const autoMaintenance = autoMaintenanceOf(values["auto-maintenance"] as string | undefined);
  const outsideWriters = outsideWritersOf(values["outside-writers"] as string | undefined);
  const [action, name] = positionals;
  if (values.help || !action) {
    console.log(databasesUsage);
    return;
  }
  await withStore(values, async (store, dataLocation, { storages }) => {
    switch (action) {
      case "create": {
        if (!name) throw new Error("quiver databases create needs a NAME");
        const own = parseStorageFlags(values as { data?: string; "storage-option"?: string[] }, {});
        const info = await createDatabase(storages, store, dataLocation, name, {
          managedVersioning: values["managed-versioning"] === true,
          location: own.data,
          storageOptions: own.options,
          readConsistencyMs: readConsistencyMs ?? null,
          outsideWriters: outsideWriters ?? false,
        });
        console.log(info.name);
        // Said here as under `quiver serve`'s default vending; --vend-shared-containers there changes it.
        const reason = await sharedContainerReason(storages, store, info, dataLocation);
        if (reason !== undefined) console.error(`warning: ${reason}`);
        return;
      }
      case "list":
        for (const info of await listDatabases(store, dataLocation)) {
          const consistency = info.readConsistencyMs === null ? "strong" : `${info.readConsistencyMs}ms`;
          console.log(`${info.name}\tmanaged_versioning=${info.managedVersioning}\tread_consistency=${consistency}\tauto_maintenance=${shownAutoMaintenance(info.autoMaintenance)}\toutside_writers=${info.outsideWriters ? "on" : "off"}\t${info.storageRoot}`);
        }
        return;
      case "set": {
        if (!name) throw new Error("quiver databases set needs a NAME");
        if (readConsistencyMs === undefined && autoMaintenance === undefined && outsideWriters === undefined) {
          throw new Error("quiver databases set needs --read-consistency-interval MS|strong, --auto-maintenance on|off|server or --outside-writers on|off");
        }
        const info = await updateDatabaseSettings(store, dataLocation, name, { readConsistencyMs, autoMaintenance, outsideWriters });
        const consistency = info.readConsistencyMs === null ? "strong" : `${info.readConsistencyMs}ms`;
        console.log(`${info.name}\tread_consistency=${consistency}\tauto_maintenance=${shownAutoMaintenance(info.autoMaintenance)}\toutside_writers=${info.outsideWriters ? "on" : "off"}`);
        return;
      }
      case "drop": {
        if (!name) throw new Error("quiver databases drop needs a NAME");
        await dropDatabase(storages, store, dataLocation, name, { cascade: values.cascade === true });
        console.log(`dropped ${name}`);
        return;
      }
      default:
        throw new Error(`unknown action '${action}'\n\n${databasesUsage}`);
    }
  }, { createRoot: action === "create" });
}
