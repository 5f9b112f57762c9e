/**
 * @module The automatic maintenance policy of one table (docs/maintenance.md). Whether it is
 * maintained: its `quiver.auto_maintenance` property (on/off) wins over the nearest enclosing
 * namespace's, which wins over its database's setting, which wins over the server's
 * `--auto-maintenance`. How long its old versions are kept: its `quiver.version_retention`
 * property, else the nearest enclosing namespace's, else the server's `--version-retention`.
 */
import type { NamespaceRow, TableRow } from "../../store/schema.js";
import type { DatabaseInfo } from "../catalog-scope.js";
import { namespaceIdOfKey } from "../identifiers.js";

/** The table or namespace property that turns automatic maintenance on or off below it. */
export const autoMaintenanceProperty = "quiver.auto_maintenance";

/** The table or namespace property that sets the retention of old versions below it (`3d`, `12h`). */
export const versionRetentionProperty = "quiver.version_retention";

/** What the server says when nothing nearer does. */
export interface ServerMaintenanceDefaults {
  enabled: boolean;
  retentionMs: number;
}

/** A namespace enclosing a table, with its properties. */
export type EnclosingNamespace = Pick<NamespaceRow, "path" | "properties">;

/**
 * The effective policy and where each half comes from: `table`, `namespace:<id>` (components
 * joined with `$`), `database` or `server`.
 */
export interface MaintenancePolicy {
  enabled: boolean;
  source: string;
  retentionMs: number;
  retentionSource: string;
}

/** A property value read as on/off; undefined for anything else (the level then inherits). */
function switchOf(value: string | undefined): boolean | undefined {
  const text = value?.trim().toLowerCase();
  if (text === "on" || text === "true" || text === "1") return true;
  if (text === "off" || text === "false" || text === "0") return false;
  return undefined;
}

/** A retention such as `90s`, `30m`, `12h`, `3d` or bare seconds, in ms; undefined for anything else. */
export function retentionOf(value: string | undefined): number | undefined {
  const match = /^\s*(\d+)\s*(s|m|h|d)?\s*$/i.exec(value ?? "");
  if (!match) return undefined;
  const factor = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(match[2] ?? "s").toLowerCase() as "s" | "m" | "h" | "d"];
  return Number(match[1]) * factor;
}

const namespaceSource = (path: string) => `namespace:${namespaceIdOfKey(path).join("$")}`;

/**
 * The policy of table `row`, whose enclosing namespaces are `namespaces` (nearest first; the root
 * has no row), in `database`, on a server whose defaults are `server`.
 */
export function maintenancePolicy(
  row: Pick<TableRow, "properties">,
  namespaces: readonly EnclosingNamespace[],
  database: Pick<DatabaseInfo, "autoMaintenance">,
  server: ServerMaintenanceDefaults,
): MaintenancePolicy {
  const levels = [{ source: "table", properties: (row.properties ?? {}) as Record<string, string> }, ...namespaces.map((ns) => ({ source: namespaceSource(ns.path), properties: (ns.properties ?? {}) as Record<string, string> }))];
  let switched: { enabled: boolean; source: string } | undefined;
  let retention: { retentionMs: number; retentionSource: string } | undefined;
  for (const level of levels) {
    const enabled = switchOf(level.properties[autoMaintenanceProperty]);
    if (!switched && enabled !== undefined) switched = { enabled, source: level.source };
    const retentionMs = retentionOf(level.properties[versionRetentionProperty]);
    if (!retention && retentionMs !== undefined) retention = { retentionMs, retentionSource: level.source };
  }
  switched ??= database.autoMaintenance !== null ? { enabled: database.autoMaintenance, source: "database" } : { enabled: server.enabled, source: "server" };
  retention ??= { retentionMs: server.retentionMs, retentionSource: "server" };
  return { ...switched, ...retention };
}

/** Where a table's enclosing namespaces are read from: the store's rows, or a transaction. */
interface NamespaceReader {
  findNamespace(database: string, path: string): Promise<NamespaceRow | undefined>;
}

/**
 * The namespaces enclosing a table in namespace `namespacePath` of `database`, nearest first.
 * `cache` (path → row) lets a pass over many tables read each namespace once.
 */
export async function enclosingNamespaces(reader: NamespaceReader, database: string, namespacePath: string, cache?: Map<string, NamespaceRow | undefined>): Promise<EnclosingNamespace[]> {
  const found: EnclosingNamespace[] = [];
  const parts = namespaceIdOfKey(namespacePath);
  for (let depth = parts.length; depth > 0; depth -= 1) {
    const path = parts.slice(0, depth).join("/");
    let row = cache?.get(path);
    if (!cache?.has(path)) {
      row = await reader.findNamespace(database, path);
      cache?.set(path, row);
    }
    if (row) found.push(row);
  }
  return found;
}
