/**
 * @module Local copies of object-store tables, for reads. Every file a version of a Lance table
 * reads is written once under a name never written again (data, deletion and index files, and
 * the version's manifest), so a folder holding those files is the same table at that version, and
 * the engine reads it as a local folder: a `pread` per read instead of a request to the store or
 * to the object cache's proxy. A copy is only ever used at the exact version the read asked for
 * (the caller decides the version as it always does), and only when every file of that version is
 * in place: the manifest is written last, and the copy's state names it only after that.
 *
 * A copy is made in the background after a read of a version it does not hold yet, by copying
 * the files the table's folder has and the copy lacks (later versions copy only what they added),
 * and is kept across restarts. Tables whose manifest reads files of other locations (shallow
 * clones, other bases) are never copied; nor are tables larger than half the copies' bound. The
 * least recently read copies are removed to stay under the bound.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { joinLocation } from "../storage/locations.js";
import type { Storages } from "../storage/storages.js";
import type { TableStorage } from "../storage/table-storage.js";
import { fieldsOf, manifestMessage } from "./table-files/lance-proto.js";
import { manifestFileName } from "./table-files/manifests.js";

/** Where copies live and how many bytes they may take. */
export interface TableCopiesSettings {
  dir: string;
  /** The bound on the copies' bytes on disk; 0 turns copies off. */
  maxBytes: number;
}

/** What the copies report, for metrics. */
export interface TableCopiesObserver {
  /** A copy reached a version, having copied `bytes` from the store for it. */
  copied(bytes: number): void;
  /** A read was answered from a copy. */
  read(): void;
  /** A copy was removed to stay under the bound. */
  evicted(): void;
  /** A try to copy a table was given up: `reason` says why. */
  skipped(reason: SkipReason): void;
  /** The copies now held and their bytes. */
  holding(copies: number, bytes: number): void;
}

const silent: TableCopiesObserver = { copied: () => undefined, read: () => undefined, evicted: () => undefined, skipped: () => undefined, holding: () => undefined };

/**
 * Why a table is not copied (now): too large for the bound, reading other locations' files,
 * holding a name not safe as a local path, a try that failed, or a copy a read found damaged.
 */
export type SkipReason = "too-large" | "other-locations" | "unsafe-name" | "failed" | "damaged";

/**
 * A name as Lance writes them (letters, digits, `_`, `-`, `.`, `=`), never `.` or `..`: anything
 * else listed under a table (written there by someone other than Lance) could name a path
 * outside the copy's folder.
 */
const safeSegment = /^(?!\.{1,2}$)[A-Za-z0-9_.=-]+$/;

/** The folders of a table whose files are never rewritten under the same name. */
const copiedFolders = ["data", "_deletions", "_indices"];
/** `Manifest.base_paths`: present when a version reads files outside its own folder. */
const manifestBasePaths = 18;
/** Bytes per ranged read while copying a file: a large data file is never held whole. */
const rangeBytes = 8 * 1024 * 1024;
/** Files copied at once by one copy. */
const parallelFiles = 4;
/** Copies made at once: the rest wait, so copying never takes over the store connection or the disk. */
const parallelCopies = 2;
/** How long a copy that could not be made is not tried again. */
const retryDelayMs = 60_000;
/** A table too large, or reading other locations, is looked at again after this long. */
const skipDelayMs = 10 * 60_000;
/** How long a removed copy's files stay on disk for reads already under way. */
const removalGraceMs = 30_000;

/** What a copy's state file says: the version complete in the folder, and every file it holds. */
interface CopyState {
  /** The copy's folder, a name in the copies' folder. */
  folder: string;
  location: string;
  tableId: string;
  version: number;
  manifest: string;
  /** Each copied file, relative to the table's folder, with its size. */
  files: Record<string, number>;
}

interface Copy {
  key: string;
  /**
   * The folder holding the copy's files: a new name for each copy of a table, so the files of a
   * removed copy, kept a while for reads under way, are never mistaken for a new copy's.
   */
  folder: string;
  location: string;
  tableId: string;
  /** The version whose files are all in the folder; undefined until the first copy completes. */
  version: number | undefined;
  manifest: string | undefined;
  /** The manifest before `manifest`, kept one version longer for reads that were told of it just before the copy moved on. */
  earlierManifest: string | undefined;
  files: Map<string, number>;
  bytes: number;
  lastRead: number;
  copying: Promise<void> | undefined;
  /** No copy is started before this time (after a failure, or a table not to copy). */
  retryAt: number;
  /** When a read last found the copy damaged: a second time soon after, copying waits. */
  distrustedAt: number | undefined;
}

/** The key of the copy of the table `tableId` at `location`: a table re-created at a location gets a copy of its own. */
function keyOf(location: string, tableId: string): string {
  return createHash("sha256").update(`${location}\n${tableId}`).digest("hex").slice(0, 32);
}

/** Whether a manifest reads files outside its table's folder (`base_paths`), which a copy of the folder would not hold. */
function readsOtherLocations(manifest: Buffer): boolean {
  return fieldsOf(manifestMessage(manifest)).some((field) => field.number === manifestBasePaths);
}

export class TableCopies {
  private readonly copies = new Map<string, Copy>();
  private bytes = 0;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;
  /** Told the folder of each copy removed, so reads let go of what they opened there. */
  onRemoved: (folder: string) => void = () => undefined;

  private constructor(
    private readonly settings: TableCopiesSettings,
    private readonly storages: Storages,
    private readonly observer: TableCopiesObserver,
  ) {}

  /** Opens the copies under `settings.dir`, keeping those whose files are all there with their sizes. */
  static async open(settings: TableCopiesSettings, storages: Storages, observer: TableCopiesObserver = silent): Promise<TableCopies> {
    const copies = new TableCopies(settings, storages, observer);
    await mkdir(settings.dir, { recursive: true });
    await copies.reopen();
    return copies;
  }

  /** The folder the copies' tables open from (each copy is `<key>.lance` in it). */
  get dir(): string {
    return this.settings.dir;
  }

  /** A folder name no copy has used: `<key>-<random>.lance`. */
  private newFolder(key: string): string {
    return path.join(this.settings.dir, `${key}-${randomBytes(6).toString("hex")}.lance`);
  }

  private stateFileOf(key: string): string {
    return path.join(this.settings.dir, `${key}.json`);
  }

  /**
   * The folder of a complete copy of the table `tableId` at `location` at exactly `version`, or
   * undefined: then, when no copy is under way, one is started in the background (when the table
   * may be copied), and the caller reads the store.
   */
  at(location: string, tableId: string, version: number): string | undefined {
    if (this.closed) return undefined;
    const key = keyOf(location, tableId);
    let copy = this.copies.get(key);
    if (!copy) {
      copy = { key, folder: this.newFolder(key), location, tableId, version: undefined, manifest: undefined, earlierManifest: undefined, files: new Map(), bytes: 0, lastRead: 0, copying: undefined, retryAt: 0, distrustedAt: undefined };
      this.copies.set(key, copy);
    }
    copy.lastRead = Date.now();
    if (copy.version === version) {
      this.observer.read();
      return copy.folder;
    }
    // A read of an older version than the copy's (a replica that has not heard of a commit yet)
    // reads the store: the copy only moves forward.
    const behind = copy.version === undefined || version > copy.version;
    if (behind && copy.copying === undefined && Date.now() >= copy.retryAt) {
      const target = copy;
      target.copying = this.inTurn(() => this.copyVersion(target, version))
        .catch(() => {
          target.retryAt = Date.now() + retryDelayMs;
          this.observer.skipped("failed");
        })
        .finally(() => {
          target.copying = undefined;
        });
    }
    return undefined;
  }

  /** Runs `work` once fewer than `parallelCopies` copies are being made. */
  private async inTurn(work: () => Promise<void>): Promise<void> {
    if (this.running >= parallelCopies) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      if (!this.closed) await work();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  /** Brings `copy` to `version`: copies the files it lacks, then the manifest, then records the state. */
  private async copyVersion(copy: Copy, version: number): Promise<void> {
    const storage = this.storages.for(copy.location);
    const manifest = await this.manifestOf(storage, copy.location, version);
    if (!manifest) throw new Error(`no manifest of version ${version} at ${copy.location}`);
    if (readsOtherLocations(manifest.bytes)) return this.skip(copy, "other-locations");
    const listed = await this.filesOf(storage, copy.location);
    // Lance never writes such a name, so a version cannot need the file; but the table is left to
    // the store rather than copied without a file someone put there.
    if (listed === "unsafe") return this.skip(copy, "unsafe-name");
    const missing = await this.sizesOf(storage, copy.location, [...listed].filter((file) => !copy.files.has(file)));
    const kept = [...copy.files].filter(([file]) => listed.has(file)).reduce((sum, [, size]) => sum + size, 0);
    const needed = [...missing.values()].reduce((sum, size) => sum + size, 0) + manifest.bytes.length;
    if (kept + needed > this.settings.maxBytes / 2) return this.skip(copy, "too-large");
    if (!this.makeRoom(needed, copy)) throw new Error("no room for the copy");
    const folder = copy.folder;
    let copied = 0;
    const queue = [...missing];
    await Promise.all(
      Array.from({ length: parallelFiles }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const [file, size] = next;
          await this.copyFile(storage, joinLocation(copy.location, file), path.join(folder, file), size);
          copy.files.set(file, size);
          copy.bytes += size;
          this.bytes += size;
          copied += size;
        }
      }),
    );
    await writeAside(path.join(folder, "_versions", manifest.name), manifest.bytes);
    copied += manifest.bytes.length;
    const dropped = copy.earlierManifest;
    if (copy.manifest !== manifest.name) copy.earlierManifest = copy.manifest;
    copy.version = version;
    copy.manifest = manifest.name;
    // Files the store no longer holds (removed by a cleanup of old versions) are no version's the copy serves.
    for (const [file, size] of [...copy.files]) {
      if (listed.has(file)) continue;
      copy.files.delete(file);
      copy.bytes -= size;
      this.bytes -= size;
      await rm(path.join(folder, file), { force: true });
    }
    await this.saveState(copy);
    if (dropped !== undefined && dropped !== manifest.name && dropped !== copy.earlierManifest) await rm(path.join(folder, "_versions", dropped), { force: true });
    this.observer.copied(copied);
    this.observer.holding(this.copies.size, this.bytes);
  }

  /** Gives up on copying `copy` for a while; what it held is let go (it cannot follow the table). */
  private skip(copy: Copy, reason: SkipReason, retryAt = Date.now() + skipDelayMs): void {
    this.observer.skipped(reason);
    copy.retryAt = retryAt;
    if (copy.bytes === 0 && copy.version === undefined) return;
    this.discard(copy.key, copy.folder, copy.bytes);
    Object.assign(copy, { folder: this.newFolder(copy.key), version: undefined, manifest: undefined, earlierManifest: undefined, files: new Map(), bytes: 0 });
  }

  /** The manifest of `version` under either naming scheme, or undefined when there is none. */
  private async manifestOf(storage: TableStorage, location: string, version: number): Promise<{ name: string; bytes: Buffer } | undefined> {
    for (const scheme of ["V2", "V1"] as const) {
      const name = manifestFileName(version, scheme);
      const bytes = await storage.read(joinLocation(location, "_versions", name));
      if (bytes) return { name, bytes };
    }
    return undefined;
  }

  /**
   * Every file under the table's copied folders, relative to the table's folder; "unsafe" when a
   * name there is not one Lance writes (it is neither listed into nor copied).
   */
  private async filesOf(storage: TableStorage, location: string): Promise<Set<string> | "unsafe"> {
    const files = new Set<string>();
    let unsafe = false;
    const walk = async (relative: string): Promise<void> => {
      for (const entry of await storage.list(joinLocation(location, relative))) {
        if (!safeSegment.test(entry.name)) unsafe = true;
        if (unsafe) return;
        const child = `${relative}/${entry.name}`;
        if (entry.kind === "prefix") await walk(child);
        else files.add(child);
      }
    };
    for (const folder of copiedFolders) await walk(folder);
    return unsafe ? "unsafe" : files;
  }

  /** The sizes of `files` (relative to `location`); a file gone since it was listed is left out. */
  private async sizesOf(storage: TableStorage, location: string, files: string[]): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    const queue = [...files];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
          const info = await storage.head(joinLocation(location, file));
          if (info) sizes.set(file, info.size);
        }
      }),
    );
    return sizes;
  }

  /** Copies one object to `target` in ranged reads, written aside and renamed once whole. */
  private async copyFile(storage: TableStorage, source: string, target: string, size: number): Promise<void> {
    await mkdir(path.dirname(target), { recursive: true });
    const aside = `${target}.part-${randomBytes(6).toString("hex")}`;
    const handle = await open(aside, "w");
    try {
      for (let offset = 0; offset < size; offset += rangeBytes) {
        const bytes = await storage.readRange(source, offset, Math.min(rangeBytes, size - offset));
        if (!bytes || bytes.length !== Math.min(rangeBytes, size - offset)) throw new Error(`${source} changed while it was copied`);
        await handle.write(bytes, 0, bytes.length, offset);
      }
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(aside, { force: true });
      throw error;
    }
    await handle.close();
    await rename(aside, target);
  }

  /** Removes the least recently read copies until `bytes` more fit; false when they cannot (copies under way are kept). */
  private makeRoom(bytes: number, keep: Copy): boolean {
    const byAge = [...this.copies.values()].filter((copy) => copy !== keep && copy.copying === undefined && copy.bytes > 0).sort((a, b) => a.lastRead - b.lastRead);
    for (const copy of byAge) {
      if (this.bytes + bytes <= this.settings.maxBytes) break;
      this.remove(copy);
      this.observer.evicted();
    }
    return this.bytes + bytes <= this.settings.maxBytes;
  }

  /** Forgets a copy; its files go once reads already under way are done with them. */
  private remove(copy: Copy): void {
    this.copies.delete(copy.key);
    this.discard(copy.key, copy.folder, copy.bytes);
  }

  /**
   * Lets go of a copy's `folder` of `bytes`: its state goes now (a restart does not take the
   * folder for a copy), the folder after a grace for reads under way.
   */
  private discard(key: string, folder: string, bytes: number): void {
    this.bytes -= bytes;
    this.onRemoved(folder);
    this.observer.holding(this.copies.size, this.bytes);
    void rm(this.stateFileOf(key), { force: true }).catch(() => undefined);
    setTimeout(() => void rm(folder, { recursive: true, force: true }).catch(() => undefined), removalGraceMs).unref();
  }

  private async saveState(copy: Copy): Promise<void> {
    const state: CopyState = { folder: path.basename(copy.folder), location: copy.location, tableId: copy.tableId, version: copy.version as number, manifest: copy.manifest as string, files: Object.fromEntries(copy.files) };
    await writeAside(this.stateFileOf(copy.key), Buffer.from(JSON.stringify(state)));
  }

  /**
   * Rebuilds the copies from their state files: a copy with a file missing or of another size is
   * removed, and whatever a copy's folder holds beyond its state (files of a copy cut short) too.
   */
  private async reopen(): Promise<void> {
    const names = await readdir(this.settings.dir);
    for (const name of names.filter((entry) => entry.endsWith(".json"))) {
      const key = name.slice(0, -".json".length);
      const state = await readState(this.stateFileOf(key));
      const valid = state !== undefined && keyOf(state.location, state.tableId) === key && state.folder.startsWith(`${key}-`) && state.folder.endsWith(".lance") && !state.folder.includes("/");
      const folder = valid ? path.join(this.settings.dir, state.folder) : "";
      const files = valid ? await intactFiles(folder, state) : undefined;
      if (!valid || !files) {
        // The folder is removed below, with every folder no state names.
        await rm(this.stateFileOf(key), { force: true });
        continue;
      }
      await removeBeyond(folder, new Set([...files.keys(), `_versions/${state.manifest}`]));
      const bytes = [...files.values()].reduce((sum, size) => sum + size, 0);
      this.copies.set(key, { key, folder, location: state.location, tableId: state.tableId, version: state.version, manifest: state.manifest, earlierManifest: undefined, files, bytes, lastRead: 0, copying: undefined, retryAt: 0, distrustedAt: undefined });
      this.bytes += bytes;
    }
    // Folders no state names are copies that never completed, or were being removed.
    const named = new Set([...this.copies.values()].map((copy) => path.basename(copy.folder)));
    for (const name of names.filter((entry) => !entry.endsWith(".json") && !named.has(entry))) {
      await rm(path.join(this.settings.dir, name), { recursive: true, force: true });
    }
    this.observer.holding(this.copies.size, this.bytes);
  }

  /**
   * Lets go of the copy at `folder`, which a read found damaged: the next read of its table
   * starts a new one, unless this copy was found damaged before within the last minutes (a table
   * the copies cannot serve, then, for a while).
   */
  distrust(folder: string): void {
    const copy = [...this.copies.values()].find((candidate) => candidate.folder === folder);
    if (!copy) return;
    const now = Date.now();
    const again = copy.distrustedAt !== undefined && now - copy.distrustedAt < skipDelayMs;
    copy.distrustedAt = now;
    this.skip(copy, "damaged", again ? now + skipDelayMs : now);
  }

  /** Lets go of every copy of a table at `location` (its data is being removed). */
  forget(location: string): void {
    for (const copy of [...this.copies.values()]) if (copy.location === location) this.remove(copy);
  }

  /** Stops starting copies and waits for those under way. */
  async close(): Promise<void> {
    this.closed = true;
    for (const resolve of this.waiting.splice(0)) resolve();
    await Promise.all([...this.copies.values()].map((copy) => copy.copying));
  }
}

async function readState(file: string): Promise<CopyState | undefined> {
  try {
    const state = JSON.parse(await readFile(file, "utf8")) as CopyState;
    return typeof state.folder === "string" && typeof state.location === "string" && typeof state.tableId === "string" && Number.isInteger(state.version) && typeof state.manifest === "string" && typeof state.files === "object" ? state : undefined;
  } catch {
    return undefined;
  }
}

/** The files of `state` when each is in `folder` at its size (the manifest too), else undefined. */
async function intactFiles(folder: string, state: CopyState): Promise<Map<string, number> | undefined> {
  const files = new Map(Object.entries(state.files));
  if (!(await stat(path.join(folder, "_versions", state.manifest)).catch(() => undefined))) return undefined;
  for (const [file, size] of files) {
    const found = await stat(path.join(folder, file)).catch(() => undefined);
    if (found?.size !== size) return undefined;
  }
  return files;
}

/** Removes every file under `folder` that `keep` (paths relative to it, with `/`) does not name. */
async function removeBeyond(folder: string, keep: Set<string>): Promise<void> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const relative = path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
    if (!keep.has(relative)) await rm(path.join(folder, relative), { force: true });
  }
}

/** Writes `bytes` to `file` through a file beside it, so a crash leaves the old file or the new one. */
async function writeAside(file: string, bytes: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const aside = `${file}.part-${randomBytes(6).toString("hex")}`;
  await writeFile(aside, bytes, { flush: true });
  await rename(aside, file);
}
