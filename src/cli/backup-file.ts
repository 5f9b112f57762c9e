/**
 * @module The backup file: gzip'd JSON lines, the same whichever dialect wrote it, so a backup of
 * a SQLite store restores into PostgreSQL and back. The first line describes the backup (format
 * version, Quiver version, dialect, the schema's migrations, its tables and columns); then one
 * line per row, `{"table": name, "row": {column: value}}`, tables in foreign-key order; the last
 * line counts the rows per table, so a cut-off file is refused rather than half restored.
 * Values are JSON's own; bytes, should a column ever hold them, as `{"$base64": "..."}`.
 * Given a key, the gzip'd lines are encrypted (backup-encryption.ts).
 */
import { closeSync, createWriteStream, openSync, readFileSync, renameSync, rmSync } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { Readable, type Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import type { SnapshotInfo, SnapshotSink } from "../store/snapshot/read-snapshot.js";
import type { SnapshotSource } from "../store/snapshot/load-snapshot.js";
import { backupCipher, decryptBackup, isEncryptedBackup } from "./backup-encryption.js";

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
 * key, credential hashes and storage credentials), encrypted under `key` when one is given. The
 * file appears whole or not at all: it is written beside and renamed at the end.
 */
export async function writeBackupFile<T>(
  file: string,
  quiverVersion: string,
  read: (sink: SnapshotSink) => Promise<T>,
  key?: Buffer,
): Promise<{ result: T; counts: Record<string, number> }> {
  const partial = `${file}.partial-${process.pid}`;
  const output = createWriteStream(partial, { fd: openOrSay(file, () => openSync(partial, "w", 0o600), "write") });
  const gzip = createGzip();
  const encryption = key === undefined ? undefined : backupCipher(key);
  if (encryption) {
    output.write(encryption.head);
    gzip.pipe(encryption.cipher).pipe(output, { end: false });
  } else {
    gzip.pipe(output);
  }
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
    if (encryption) {
      await finished(encryption.cipher);
      output.end(encryption.tag());
    }
    await finished(output);
    renameSync(partial, file);
    return { result, counts };
  } catch (error) {
    gzip.destroy();
    encryption?.cipher.destroy();
    output.destroy();
    rmSync(partial, { force: true });
    throw error;
  }
}

/**
 * Opens a backup file: its header now, its rows as often as they are asked for (the restore
 * reads them once to check them, then to load them). Throws on a file that is not a backup, and
 * on an encrypted one without its key or with another. The file is read into memory at once:
 * gzip'd, it is far smaller than the rows the backup read held.
 */
export async function openBackupFile(file: string, key?: Buffer): Promise<{ header: BackupHeader; source: SnapshotSource; encrypted: boolean }> {
  const bytes = readBackupBytes(file);
  const encrypted = isEncryptedBackup(bytes);
  if (encrypted && key === undefined) throw new Error(`${file} is an encrypted backup: give the key file it was written with (--encrypt-key-file)`);
  const gzipped = encrypted ? decryptBackup(bytes, key as Buffer, file) : bytes;
  const linesOf = () => {
    const gunzip = createGunzip();
    return createInterface({ input: Readable.from([gzipped]).pipe(gunzip), crlfDelay: Infinity })[Symbol.asyncIterator]();
  };
  const header = (await nextRecord(linesOf(), file)) as BackupHeader | undefined;
  if (header?.format !== backupFormat) throw new Error(`${file} is not a Quiver catalog backup`);
  if (header.format_version > backupFormatVersion) {
    throw new Error(`${file} is a backup of format ${header.format_version}, newer than this Quiver reads (${backupFormatVersion}); restore it with the Quiver that wrote it (${header.quiver_version}) or a later one`);
  }
  async function* batches(): AsyncIterable<{ table: string; rows: Record<string, unknown>[] }> {
    const lines = linesOf();
    await nextRecord(lines, file);
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
  return { header, source: { migrations: header.migrations, batches }, encrypted };
}

/** The bytes of `file`, its failure to open said as a sentence naming it. */
function readBackupBytes(file: string): Buffer {
  const fd = openOrSay(file, () => openSync(file, "r"), "read");
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
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
