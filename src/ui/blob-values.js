/**
 * Blob columns in query answers. A query answers a blob column's descriptor (a struct of where
 * Lance keeps the bytes), not the bytes; the console shows, exports and downloads a blob through
 * the table's blob bytes route instead, addressed by the row's `_rowid`. This module holds what
 * needs no page: which columns hold blobs, a blob's value, its media type from its first bytes,
 * and the export's columns.
 */
import { tablePath } from "./api.js";
import { Int64, Type, Utf8 } from "./arrow.js";

/** The field metadata Lance gives a blob column: in the table's schema, and in a query's answer. */
const EXTENSION_KEY = "ARROW:extension:name";
const BLOB_EXTENSION = "lance.blob.v2";
const ENCODING_KEY = "lance-encoding:blob";
/** Field metadata keys a writer may set to say what a column's blobs are. */
const TYPE_KEYS = ["mime_type", "content_type"];

const metadataOf = (field) => (field.metadata instanceof Map ? Object.fromEntries(field.metadata) : (field.metadata ?? {}));

/** Whether a field (of DescribeTable's JSON schema, or of an Arrow answer) holds blobs. */
export function isBlobField(field) {
  const metadata = metadataOf(field);
  return metadata[EXTENSION_KEY] === BLOB_EXTENSION || metadata[ENCODING_KEY] === "true";
}

/** The names of a DescribeTable schema's blob columns. */
export function blobColumnNames(schema) {
  return (schema?.fields ?? []).filter(isBlobField).map((field) => field.name);
}

/** Whether a query reading `columns` (names, or null for all) of a table with `blobNames` reads a blob. */
export function readsBlobs(blobNames, columns) {
  return blobNames.length > 0 && (!columns || columns.some((name) => blobNames.includes(name)));
}

/**
 * One blob of an answer: its table (`parts`) and the version read (`at`), its column, its row's
 * `_rowid` (null when the answer has none), its size and media type when known.
 */
export class BlobValue {
  constructor({ parts, at, column, rowId, size, type, url }) {
    this.parts = parts;
    this.at = at;
    this.column = column;
    this.rowId = rowId;
    this.size = size;
    this.type = type;
    /** The bytes route's absolute URL, or null without a row id. */
    this.url = url;
  }

  /** What an export writes for the blob: its size and where its bytes are. */
  exported() {
    return { size: this.size ?? null, url: this.url };
  }
}

/** The bytes route of one blob of table `parts`, with the version and branch read (`at`), as a path and query. */
export function blobPath(parts, column, rowId, at = {}) {
  const params = new URLSearchParams();
  if (at.version !== undefined) params.set("version", String(at.version));
  if (at.branch) params.set("branch", at.branch);
  const query = params.toString();
  return `${tablePath(parts)}/blob/${encodeURIComponent(column)}/${rowId}/bytes${query ? `?${query}` : ""}`;
}

const sizeOf = (descriptor) => (descriptor?.size === undefined || descriptor.size === null ? undefined : Number(descriptor.size));

/**
 * `answer` (`decodeArrow`'s fields and rows) with each blob column's descriptors as BlobValues
 * (nulls stay null) and the column's type label `Blob`: `parts` is the table's id, `at` the
 * version and branch read, `origin` the server's (for absolute URLs).
 */
export function withBlobValues(answer, { parts, at = {}, origin }) {
  const blobIndexes = answer.fields.flatMap((field, i) => (isBlobField(field) && field.type?.typeId === Type.Struct ? [i] : []));
  if (blobIndexes.length === 0) return answer;
  const rowIdIndex = answer.fields.findIndex((field) => field.name === "_rowid");
  const fields = answer.fields.map((field, i) => {
    if (!blobIndexes.includes(i)) return field;
    const metadata = metadataOf(field);
    const declared = TYPE_KEYS.map((key) => metadata[key]).find(Boolean);
    return { ...field, label: "Blob", blob: true, mediaType: declared, numeric: false };
  });
  const rows = answer.rows.map((row) => {
    const rowId = rowIdIndex >= 0 && row[rowIdIndex] !== null ? String(row[rowIdIndex]) : null;
    return row.map((value, i) => {
      if (!blobIndexes.includes(i) || value === null) return value;
      const column = fields[i].name;
      const url = rowId === null ? null : origin + blobPath(parts, column, rowId, at);
      return new BlobValue({ parts, at, column, rowId, size: sizeOf(value), type: fields[i].mediaType, url });
    });
  });
  return { fields, rows };
}

/** Media types told by a file's first bytes: the signature and where it starts. */
const SIGNATURES = [
  ["image/png", [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ["image/jpeg", [0xff, 0xd8, 0xff]],
  ["image/gif", [0x47, 0x49, 0x46, 0x38]],
  ["image/webp", [0x57, 0x45, 0x42, 0x50], 8],
  ["application/pdf", [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ["application/zip", [0x50, 0x4b, 0x03, 0x04]],
  ["application/gzip", [0x1f, 0x8b]],
];

/** How many first bytes `sniffType` reads. */
export const SNIFF_BYTES = 16;

/** The media type of bytes starting with `head`, or undefined when none is recognised. */
export function sniffType(head) {
  const found = SIGNATURES.find(([, signature, at = 0]) => signature.every((byte, i) => head[at + i] === byte));
  // WebP is a RIFF file whose form type is WEBP.
  if (found?.[0] === "image/webp" && !(head[0] === 0x52 && head[1] === 0x49 && head[2] === 0x46 && head[3] === 0x46)) return undefined;
  return found?.[0];
}

const EXTENSIONS = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "application/pdf": "pdf", "application/zip": "zip", "application/gzip": "gz" };

/** The name a downloaded blob is saved under: table, column and row id, with its type's extension. */
export function blobFileName(tableName, blob, type) {
  const safe = (text) => String(text).replace(/[^\w.-]+/g, "_");
  return `${safe(tableName)}-${safe(blob.column)}-${blob.rowId}.${EXTENSIONS[type] ?? "bin"}`;
}

/** Types the row panel previews as images (the browser draws them; SVG, a document, is left out). */
export const PREVIEW_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * The fields and rows an export writes: each blob column becomes two, `<name>.size` (Int64) and
 * `<name>.url` (text, the bytes route), both null for a null blob; other columns as they are.
 */
export function exportColumns(fields, rows) {
  if (!fields.some((field) => field.blob)) return { fields, rows };
  const outFields = fields.flatMap((field) =>
    field.blob
      ? [
          { name: `${field.name}.size`, label: "Int64", type: new Int64(), numeric: true },
          { name: `${field.name}.url`, label: "Utf8", type: new Utf8(), numeric: false },
        ]
      : [field],
  );
  const outRows = rows.map((row) =>
    row.flatMap((value, i) => {
      if (!fields[i].blob) return [value];
      return value instanceof BlobValue ? [value.size ?? null, value.url] : [null, null];
    }),
  );
  return { fields: outFields, rows: outRows };
}
