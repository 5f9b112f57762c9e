/**
 * @module The backup file: gzip'd JSON lines, the same whichever dialect wrote it, so a backup of
 * a SQLite store restores into PostgreSQL and back. The first line describes the backup (format
 * version, Quiver version, dialect, the schema's migrations, its tables and columns); then one
 * line per row, `{"table": name, "row": {column: value}}`, tables in foreign-key order; the last
 * line counts the rows per table, so a cut-off file is refused rather than half restored.
 * Values are JSON's own; bytes, should a column ever hold them, as `{"$base64": "..."}`.
 */
import { createReadStream, createWriteStream, openSync, renameSync, rmSync } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import type { SnapshotInfo, SnapshotSink } from "../store/snapshot/read-snapshot.js";
import type { SnapshotSource } from "../store/snapshot/load-snapshot.js";

export const backupFormat = "quiver-catalog-backup";
/** Bumped when a reader of the previous version could not read the file right. */
export const backupFormatVersion = 1;

/** The first line of a backup file. */
export interface BackupHeader {
  format: typeof backupFormat;
  format_version: number;
  quiver_version: string;
  dialect: SnapshotInfo["dialect"];
  migrations: string[];
  taken_at: string;
  tables: { name: string; columns: string[] }[];
}

/** Rows read before they are handed on together. */
const rowsPerBatch = 500;

function encodeValue(value: unknown): unknown {
  return Buffer.isBuffer(value) || value instanceof Uint8Array ? { $base64: Buffer.from(value).toString("base64") } : value;
}

function decodeValue(value: unknown): unknown {
  return typeof value === "object" && value !== null && typeof (value as { $base64?: unknown }).$base64 === "string"
    ? Buffer.from((value as { $base64: string }).$base64, "base64")
    : value;
}

async function writeLine(out: Writable, record: unknown): Promise<void> {
  if (!out.write(`${JSON.stringify(record)}\n`)) await once(out, "drain");
}

/**
 * Writes the snapshot `read` produces to `file`, readable by its owner only (it holds the signing
 * key and credential hashes). The file appears whole or not at all: it is written beside and
 * renamed at the end.
 */
export async function writeBackupFile<T>(file: string, quiverVersion: string, read: (sink: SnapshotSink) => Promise<T>): Promise<{ result: T; counts: Record<string, number> }> {
  const partial = `${file}.partial-${process.pid}`;
  const output = createWriteStream(partial, { fd: openOrSay(file, () => openSync(partial, "w", 0o600), "write") });
  const gzip = createGzip();
  gzip.pipe(output);
  const counts: Record<string, number> = {};
  try {
    const result = await read({
      begin: (info) =>
        writeLine(gzip, {
          format: backupFormat,
          format_version: backupFormatVersion,
          quiver_version: quiverVersion,
          dialect: info.dialect,
          migrations: info.migrations,
          taken_at: new Date().toISOString(),
          tables: info.tables.map((table) => ({ name: table.name, columns: table.columns })),
        } satisfies BackupHeader),
      rows: async (table, rows) => {
        for (const row of rows) {
          const encoded: Record<string, unknown> = {};
          for (const [column, value] of Object.entries(row)) encoded[column] = encodeValue(value);
          await writeLine(gzip, { table: table.name, row: encoded });
        }
        counts[table.name] = (counts[table.name] ?? 0) + rows.length;
      },
    });
    await writeLine(gzip, { end: counts });
    gzip.end();
    await finished(output);
    renameSync(partial, file);
    return { result, counts };
  } catch (error) {
    gzip.destroy();
    output.destroy();
    rmSync(partial, { force: true });
    throw error;
  }
}

/** Opens a backup file: its header now, its rows as the restore reads them. Throws on a file that is not one. */
export async function openBackupFile(file: string): Promise<{ header: BackupHeader; source: SnapshotSource }> {
  const input = createReadStream(file, { fd: openOrSay(file, () => openSync(file, "r"), "read") });
  const gunzip = createGunzip();
  // pipe() does not pass a read failure on: the reader of the lines would never hear of it.
  input.on("error", (error) => gunzip.destroy(error));
  const lines = createInterface({ input: input.pipe(gunzip), crlfDelay: Infinity })[Symbol.asyncIterator]();
  const first = await nextRecord(lines, file);
  const header = first as BackupHeader | undefined;
  if (header?.format !== backupFormat) throw new Error(`${file} is not a Quiver catalog backup`);
  if (header.format_version > backupFormatVersion) {
    throw new Error(`${file} is a backup of format ${header.format_version}, newer than this Quiver reads (${backupFormatVersion}); restore it with the Quiver that wrote it (${header.quiver_version}) or a later one`);
  }
  async function* batches(): AsyncIterable<{ table: string; rows: Record<string, unknown>[] }> {
    const counts: Record<string, number> = {};
    let pending: { table: string; rows: Record<string, unknown>[] } | undefined;
    for (;;) {
      const record = (await nextRecord(lines, file)) as { table?: string; row?: Record<string, unknown>; end?: Record<string, number> } | undefined;
      if (record === undefined) throw new Error(`${file} ends before its last line: the backup is incomplete`);
      if (record.end !== undefined) {
        if (pending) yield pending;
        for (const table of new Set([...Object.keys(record.end), ...Object.keys(counts)])) {
          if ((record.end[table] ?? 0) !== (counts[table] ?? 0)) throw new Error(`${file} lists ${record.end[table] ?? 0} rows of ${table} but holds ${counts[table] ?? 0}`);
        }
        return;
      }
      if (typeof record.table !== "string" || typeof record.row !== "object" || record.row === null) throw new Error(`${file} holds a line that is neither a row nor the end`);
      const row: Record<string, unknown> = {};
      for (const [column, value] of Object.entries(record.row)) row[column] = decodeValue(value);
      counts[record.table] = (counts[record.table] ?? 0) + 1;
      if (pending && (pending.table !== record.table || pending.rows.length >= rowsPerBatch)) {
        yield pending;
        pending = undefined;
      }
      pending ??= { table: record.table, rows: [] };
      pending.rows.push(row);
    }
  }
  return { header, source: { migrations: header.migrations, batches } };
}

/** Opens a file with `open`, turning a failure into a sentence naming `file`. */
function openOrSay(file: string, open: () => number, what: "read" | "write"): number {
  try {
    return open();
  } catch (error) {
    throw new Error(`cannot ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

async function nextRecord(lines: AsyncIterator<string>, file: string): Promise<unknown> {
  for (;;) {
    let next: IteratorResult<string>;
    try {
      next = await lines.next();
    } catch (error) {
      throw new Error(`${file} cannot be read as a backup: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (next.done) return undefined;
    if (next.value.trim() === "") continue;
    try {
      return JSON.parse(next.value);
    } catch {
      throw new Error(`${file} holds a line that is not JSON: the backup is damaged`);
    }
  }
}
