/**
 * @module Computed columns (declared with an SQL expression, stored in Lance field metadata):
 * checking that a column is one, and filling it for the rows that lack values.
 */
import { tableFromIPC } from "apache-arrow-21";
import type { Engine } from "./engine.js";

export type ColumnKind = "missing" | "plain" | "computed";

/** Whether `column` (a top-level name) exists at `location`, and whether it is computed. */
async function columnKind(engine: Engine, location: string, column: string): Promise<ColumnKind> {
  const table = await engine.openTable(location);
  const schema = tableFromIPC(await engine.call(() => table.schema())).schema;
  const field = schema.fields.find((f) => f.name === column);
  if (!field) return "missing";
  return field.metadata.get("computed_column") === "true" ? "computed" : "plain";
}

/** Computes the column's values for the rows that lack them; one commit. */
async function refreshComputedColumn(engine: Engine, location: string, column: string): Promise<{ rowsFilled: number; version: number; previousVersion: number }> {
  const table = await engine.openTable(location);
  const previousVersion = await engine.call(() => table.version());
  const result = await engine.call(() => table.refreshColumn(column));
  return { rowsFilled: result.rowsFilled, version: result.version, previousVersion };
}

/** Computed columns of one engine's tables. */
export class ComputedColumns {
  constructor(private readonly engine: Engine) {}

  /** Whether `column` is missing, plain or computed. */
  kind(location: string, column: string): Promise<ColumnKind> {
    return columnKind(this.engine, location, column);
  }

  /** Fills the computed column's missing values in one commit. */
  refresh(location: string, column: string): Promise<{ rowsFilled: number; version: number; previousVersion: number }> {
    return refreshComputedColumn(this.engine, location, column);
  }
}
