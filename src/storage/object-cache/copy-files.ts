/**
 * @module The files of local copies of tables on disk: each copy's state file (read back at
 * start), the check that a copy's files are all there at their sizes, and writes that a crash
 * leaves whole or not at all.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

/** A name as table formats write them (letters, digits, `_`, `-`, `.`, `=`), never `.` or `..`. */
export const safeSegment = /^(?!\.{1,2}$)[A-Za-z0-9_.=-]{1,200}$/;

/** What a copy's state file says: the version complete in the folder, and every file it holds with its size. */
export interface CopyState {
  /** The copy's folder, a name in the copies' folder. */
  folder: string;
  location: string;
  tableId: string;
  version: number;
  /** The version's manifest, relative to the table's folder, with the store's ETag and size of it. */
  manifest: string;
  manifestTag: string;
  files: Record<string, number>;
}

/** The state file at `file`, or undefined when it is missing or not one. */
export async function readState(file: string): Promise<CopyState | undefined> {
  try {
    const state = JSON.parse(await readFile(file, "utf8")) as CopyState;
    const fields = [state.folder, state.location, state.tableId, state.manifest, state.manifestTag];
    return fields.every((field) => typeof field === "string") && Number.isInteger(state.version) && typeof state.files === "object" && state.files !== null ? state : undefined;
  } catch {
    return undefined;
  }
}

/** Whether every file of `files` (relative path → size) is in `folder` at its size. */
export async function allThere(folder: string, files: Record<string, number>): Promise<boolean> {
  for (const [file, size] of Object.entries(files)) {
    if (file.split("/").some((segment) => !safeSegment.test(segment))) return false;
    const found = await stat(path.join(folder, file)).catch(() => undefined);
    if (found?.size !== size) return false;
  }
  return true;
}

/** Removes every file under `folder` that `keep` (paths relative to it, with `/`) does not name. */
export async function removeBeyond(folder: string, keep: Set<string>): Promise<void> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const relative = path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
    if (!keep.has(relative)) await rm(path.join(folder, relative), { force: true });
  }
}

/** Writes `bytes` to `file` through a file beside it, so a crash leaves the old file or the new one. */
export async function writeAside(file: string, bytes: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const aside = `${file}.part-${randomBytes(6).toString("hex")}`;
  await writeFile(aside, bytes, { flush: true });
  await rename(aside, file);
}
