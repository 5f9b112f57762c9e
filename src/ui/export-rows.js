/**
 * The data explorer's export: a query's answer as CSV (RFC 4180, a header of column names) or
 * JSON lines, or as the Arrow IPC file the server sent (Parquet: `parquet-export.js`), handed to
 * the browser as a download.
 * In CSV a null is an empty field and an empty string a quoted empty one, so the two stay apart;
 * lists and structs are their JSON text; text a spreadsheet would run as a formula is written as
 * text (`'` first, quoted), while numbers of number columns stay numbers.
 * A blob is its size and the URL of its bytes: an object `{size, url}` in JSON, two columns in CSV
 * and Parquet (`exportColumns` in `blob-values.js`).
 */
import { BlobValue } from "./blob-values.js";

/** A value as JSON: bigints beyond 2^53 as strings, bytes as hex, a blob as `{size, url}`. */
export function jsonValue(value) {
  if (value instanceof BlobValue) return value.exported();
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  if (value instanceof Uint8Array) return `0x${Array.from(value, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
  if (Array.isArray(value)) return value.map(jsonValue);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsonValue(item)]));
  return value;
}

/** One row as an object of column name → JSON value. */
export function rowObject(fields, row) {
  return Object.fromEntries(fields.map((field, i) => [field.name, jsonValue(row[i])]));
}

/**
 * Text a spreadsheet opening the file may run as a formula: `=`, `+`, `-` or `@` first, or a tab
 * or carriage return (which some skip before one). Such text is written with a leading `'`, which
 * spreadsheets take as "this is text", and quoted (OWASP's advice against CSV injection).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field; `numeric`: the column holds numbers, so a number there (even negative) stays a number. */
function csvField(value, numeric = false) {
  if (value === null || value === undefined) return "";
  if (numeric && (typeof value === "number" || typeof value === "bigint")) return String(jsonValue(value));
  const text = typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(jsonValue(value)) : String(jsonValue(value));
  if (FORMULA_START.test(text)) return `"'${text.replaceAll('"', '""')}"`;
  return text === "" || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The rows as CSV under a header of the column names; `fields[i].numeric` marks number columns (`arrow-values.js`). */
export function toCsv(fields, rows) {
  const lines = [fields.map((field) => csvField(field.name)).join(",")];
  for (const row of rows) lines.push(row.map((value, i) => csvField(value, fields[i]?.numeric === true)).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

export function toJsonLines(fields, rows) {
  return rows.map((row) => `${JSON.stringify(rowObject(fields, row))}\n`).join("");
}

/** Offers `content` as a file named `name`. */
export function download(name, type, content) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once started; the URL is kept a moment for slow browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
