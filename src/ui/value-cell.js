/**
 * A cell of the data grid. Short values are plain text; long text, vectors, lists, structs and
 * bytes show a compact summary that opens (a native `<details>`, so the keyboard works) onto the
 * whole value; a blob shows its size and type with a Download button (`blob-cell.js`).
 * Everything is text content: nothing from the data becomes markup.
 */
import { blobCell } from "./blob-cell.js";
import { BlobValue } from "./blob-values.js";
import { formatCount, h } from "./dom.js";

/** Text longer than this, or lists longer than VECTOR_PREVIEW items, fold away. */
const TEXT_PREVIEW = 80;
const VECTOR_PREVIEW = 4;

function numberText(value) {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}

/**
 * A number alone in a cell: integers whole and without separators (ids and years read as they
 * are stored, and copy back into a filter), fractions to six significant digits.
 */
export function formattedNumber(value) {
  return typeof value === "bigint" ? String(value) : numberText(value);
}

/** The whole value as text: JSON-like, bigints and bytes included. */
export function fullText(value) {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") return numberText(value);
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array) return `0x${Array.from(value, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
  if (Array.isArray(value)) return `[${value.map(fullText).join(", ")}]`;
  if (typeof value === "object") return `{${Object.entries(value).map(([key, item]) => `${key}: ${fullText(item)}`).join(", ")}}`;
  return String(value);
}

/** A short form, or null when the whole value is short enough to show as it is. */
export function summaryText(value) {
  if (Array.isArray(value) && value.length > VECTOR_PREVIEW) {
    return `[${value.slice(0, VECTOR_PREVIEW).map(fullText).join(", ")}, …] (${formatCount(value.length)} values)`;
  }
  if (value instanceof Uint8Array && value.length > 16) return `${formatCount(value.length)} bytes`;
  const text = fullText(value);
  return text.length > TEXT_PREVIEW ? `${text.slice(0, TEXT_PREVIEW)}… (${formatCount(text.length)} characters)` : null;
}

/** A cell's content: null and the empty string look different (the one italic, the other `""`). */
export function valueCell(value) {
  if (value === null || value === undefined) return h("span", { class: "null", title: "null" }, "null");
  if (value instanceof BlobValue) return blobCell(value);
  if (value === "") return h("span", { class: "empty-string", title: "empty string" }, '""');
  if (typeof value === "number" || typeof value === "bigint") return formattedNumber(value);
  const summary = summaryText(value);
  if (summary === null) return fullText(value);
  return h("details", { class: "long-value" }, h("summary", {}, summary), h("div", { class: "full-value" }, fullText(value)));
}
