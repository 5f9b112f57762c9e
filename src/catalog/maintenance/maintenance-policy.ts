/**
 * @module Whether a table is maintained without being asked: its `quiver.auto_maintenance`
 * property (on/off) wins over its database's setting, which wins over the server's
 * `--auto-maintenance` (docs/maintenance.md).
 */
import type { TableRow } from "../../store/schema.js";
import type { DatabaseInfo } from "../catalog-scope.js";

/** The table property that turns automatic maintenance of one table on or off. */
export const autoMaintenanceProperty = "quiver.auto_maintenance";

/** A property value read as on/off; undefined for anything else (the table then inherits). */
function switchOf(value: string | undefined): boolean | undefined {
  const text = value?.trim().toLowerCase();
  if (text === "on" || text === "true" || text === "1") return true;
  if (text === "off" || text === "false" || text === "0") return false;
  return undefined;
}

/** Whether table `row` of `database` is maintained automatically when the server says `serverDefault`. */
export function autoMaintenanceApplies(row: Pick<TableRow, "properties">, database: Pick<DatabaseInfo, "autoMaintenance">, serverDefault: boolean): boolean {
  const properties = (row.properties ?? {}) as Record<string, string>;
  return switchOf(properties[autoMaintenanceProperty]) ?? database.autoMaintenance ?? serverDefault;
}
