/**
 * @module Maps stored as JSON text columns, encoded and decoded here once for every row module:
 * the text is `JSON.stringify` of the map (`{}` for none), as it has always been on disk.
 */
import type { StringMap, WithMaps } from "../schema.js";

function toJsonColumn(map: StringMap | null | undefined): string {
  return JSON.stringify(map ?? {});
}

function fromJsonColumn(text: string): StringMap {
  return text ? (JSON.parse(text) as StringMap) : {};
}

/** `row` as read, with its JSON `columns` decoded into maps. */
export function decodeMaps<Row extends object, K extends keyof Row>(row: Row, columns: readonly K[]): WithMaps<Row, K> {
  const decoded = { ...row } as Record<PropertyKey, unknown>;
  for (const column of columns) decoded[column] = fromJsonColumn(row[column] as string);
  return decoded as WithMaps<Row, K>;
}

/**
 * `row` to write, with its map `columns` encoded as JSON text; a column left out (an update
 * that does not change it) stays out.
 */
export function encodeMaps<Row extends object, K extends keyof Row>(row: WithMaps<Row, K>, columns: readonly K[]): Row {
  const encoded = { ...row } as Record<PropertyKey, unknown>;
  for (const column of columns) {
    if (encoded[column] !== undefined) encoded[column] = toJsonColumn(encoded[column] as StringMap | null);
  }
  return encoded as Row;
}
