/**
 * A file a user picked, as the Arrow IPC stream that CreateTable and InsertIntoTable take. Arrow
 * IPC (file or stream) and Parquet are recognised by their first bytes, CSV, TSV and JSON lines by
 * the file's extension. Parquet is read by hyparquet (plain ES modules the server serves from
 * its package), loaded only when a Parquet file is picked.
 */
import { tableFromIPC, tableToIPC } from "./arrow.js";
import { parseCsv } from "./csv.js";
import { formatCount } from "./dom.js";
import { columnsToTable, csvColumnValues } from "./records-to-arrow.js";

const PARQUET_MODULE = "/console/vendor/hyparquet/src/index.js";
export const ACCEPTED = ".arrow,.arrows,.feather,.ipc,.parquet,.csv,.tsv,.jsonl,.ndjson,.json";

const startsWith = (bytes, text) => text.split("").every((char, i) => bytes[i] === char.charCodeAt(0));

/** The file's format: "arrow", "parquet", "csv", "tsv" or "json"; throws for anything else. */
export function formatOf(name, bytes) {
  if (startsWith(bytes, "ARROW1")) return "arrow";
  // An IPC stream opens with a continuation marker (0xFFFFFFFF) before its schema message.
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xff && bytes[2] === 0xff && bytes[3] === 0xff) return "arrow";
  if (startsWith(bytes, "PAR1")) return "parquet";
  const extension = name.toLowerCase().split(".").pop();
  if (extension === "csv" || extension === "tsv") return extension;
  if (extension === "jsonl" || extension === "ndjson" || extension === "json") return "json";
  throw new Error(`"${name}" is not Arrow IPC, Parquet, CSV, TSV or JSON lines`);
}

/** Rows of objects as columns, in the order their names first appear. */
function objectColumns(objects) {
  const names = [];
  for (const object of objects) for (const name of Object.keys(object)) if (!names.includes(name)) names.push(name);
  return Object.fromEntries(names.map((name) => [name, objects.map((object) => object[name] ?? null)]));
}

/** JSON lines (one object a line), or one JSON array of objects. */
function jsonObjects(text) {
  const trimmed = text.trim();
  const objects = trimmed.startsWith("[")
    ? JSON.parse(trimmed)
    : trimmed.split(/\r?\n/).flatMap((line, i) => {
        if (line.trim() === "") return [];
        try {
          return [JSON.parse(line)];
        } catch (error) {
          throw new Error(`line ${formatCount(i + 1)}: ${error.message}`);
        }
      });
  const notObject = objects.findIndex((object) => object === null || typeof object !== "object" || Array.isArray(object));
  if (notObject >= 0) throw new Error(`row ${formatCount(notObject + 1)} is not a JSON object`);
  if (objects.length === 0) throw new Error("the file holds no rows");
  return objects;
}

async function parquetObjects(bytes) {
  const { parquetReadObjects } = await import(PARQUET_MODULE);
  return parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
}

/**
 * Reads `file` (a File or Blob with a name) into `{ table, format }`. With `target` (the Arrow
 * Schema of an existing table), text and Parquet columns take the table's types.
 */
export async function readTableFile(file, target) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const format = formatOf(file.name, bytes);
  switch (format) {
    case "arrow":
      return { format, table: tableFromIPC(bytes) };
    case "parquet":
      return { format, table: columnsToTable(objectColumns(await parquetObjects(bytes)), target) };
    case "json":
      return { format, table: columnsToTable(objectColumns(jsonObjects(new TextDecoder().decode(bytes))), target) };
    default: {
      const { header, rows } = parseCsv(new TextDecoder().decode(bytes), format === "tsv" ? "\t" : ",");
      const columns = Object.fromEntries(header.map((name, i) => [name, rows.map((row) => row[i])]));
      // Text cells are typed by the table when there is one, else inferred column by column.
      const typed = Object.fromEntries(
        Object.entries(columns).map(([name, cells]) => [name, target ? cells.map((cell) => (cell === "" ? null : cell)) : csvColumnValues(cells)]),
      );
      return { format, table: columnsToTable(typed, target) };
    }
  }
}

/** The table as an Arrow IPC stream, the body CreateTable and InsertIntoTable take. */
export function ipcStream(table) {
  return tableToIPC(table, "stream");
}
