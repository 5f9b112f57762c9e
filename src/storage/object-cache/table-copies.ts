/**
 * @module Local copies of object-store tables, for reads. Every file a version of a table reads is
 * written once under a name never written again (data, deletion and index files, and the
 * version's manifest), so a folder holding those files is the same table at that version, and the
 * engine reads it as a local folder: a `pread` per read instead of a request to the store or to
 * the object cache's proxy. A copy is only ever used at the exact version the read asked for (the
 * caller decides the version as it always does), and only when every file of that version is in
 * place: the manifest is copied last, and the copy's state names it only after that.
 *
 * A copy is made in the background once reads have asked for a version it does not hold for a
 * second, by copying the files the table's folder has and the copy lacks (later versions copy only
 * what they added), and is kept across restarts. What a table format may be copied, and where its manifests are, the
 * engine says (`CopiedTableFormat`): this module knows only files. Tables larger than half the
 * copies' bound are not copied; the least recently read copies are removed to stay under it.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { joinLocation } from "../locations.js";
import type { Storages } from "../storages.js";
import type { TableStorage } from "../table-storage.js";
import { type CopyState, allThere, readState, removeBeyond, safeSegment, writeAside } from "./copy-files.js";

/** Where copies live and how many bytes they may take. */
export interface TableCopiesSettings {
  dir: string;
  /** The bound on the copies' bytes on disk; 0 turns copies off. */
  maxBytes: number;
}

/** Why a table is not copied (now). */
export type SkipReason =
  /** Its files would take more than half the copies' bound. */
  | "too-large"
  /** The version reads files outside the folders copied (other base paths, external row-id files). */
  | "other-locations"
  /** A file name that is not one the table format writes, which could name a path outside the copy. */
  | "unsafe-name"
  /** Copying failed (the store was down, a file changed); tried again later. */
  | "failed"
  /** A read found the copy damaged, or its manifest no longer the store's. */
  | "damaged";

/** What the copies need to know of the table format. */
export interface CopiedTableFormat {
  /** The folders under a table whose files versions read, each file written once under a name never written again. */
  readonly folders: readonly string[];
  /** Where the manifest of `version` may be, relative to the table's folder, most likely first. */
  manifestPaths(version: number): string[];
  /**
   * Why the version `manifest` describes cannot be read from a copy holding `files` (paths
   * relative to the table's folder), or undefined when it can.
   */
  refusal(manifest: Buffer, files: ReadonlySet<string>): "other-locations" | "unsafe-name" | undefined;
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
  /** The complete copies now held and the bytes of every copy. */
  holding(copies: number, bytes: number): void;
}

const silent: TableCopiesObserver = { copied: () => undefined, read: () => undefined, evicted: () => undefined, skipped: () => undefined, holding: () => undefined };

/** What a file counts against the bound at least: empty files still take an inode and a state entry. */
const minimumFileBytes = 4096;
/** Files a copy may hold at most. */
const maxFilesPerCopy = 100_000;
/** Bytes per ranged read while copying a file: a large data file is never held whole. */
const rangeBytes = 8 * 1024 * 1024;
/** Files copied at once by one copy, and sizes asked at once. */
const parallelFiles = 4;
const parallelHeads = 8;
/** Copies made at once: the rest wait, so copying never takes over the store connection or the disk. */
const parallelCopies = 2;
/** A failed copy is tried again after this long, doubled after each further failure up to `maxRetryDelayMs`. */
const retryDelayMs = 60_000;
const maxRetryDelayMs = 30 * 60_000;
/** A table not to copy (too large, other locations, a copy found damaged twice) is looked at again after this long. */
const skipDelayMs = 10 * 60_000;
/** How long a removed copy's files stay on disk for reads already under way. */
const removalGraceMs = 30_000;
/**
 * How long reads must have asked for a version before it is copied: a table whose versions follow
 * each other faster (written while read) is read through the proxy instead of copied again and
 * again, and a table read once is not copied at all.
 */
const settleMs = 1000;
/** Tables remembered without a copy (never copied, not to copy) at most: beyond, the oldest are forgotten. */
const maxRemembered = 10_000;

/** A copy being made: stopped when the copy is let go, so nothing it does afterwards is recorded. */
interface CopyRun {
  stopped: boolean;
}

interface Copy {
  key: string;
  /**
   * The folder holding the copy's files: a new name each time a table's copy starts over, so the
   * files of a removed copy, kept a while for reads under way, are never mistaken for a new one's.
   */
  folder: string;
  location: string;
  tableId: string;
  /** The version whose files are all in the folder; undefined until the first copy completes. */
  version: number | undefined;
  /** Its manifest (relative path) and the store's ETag and size of it when copied. */
  manifest: string | undefined;
  manifestTag: string | undefined;
  /** The manifest before `manifest`, kept one version longer for reads told of it just before the copy moved on. */
  earlierManifest: string | undefined;
  /** Each file in the folder (manifests too), relative, with its size. */
  files: Map<string, number>;
  /** What the files count against the bound. */
  bytes: number;
  lastRead: number;
  /** The newest version reads asked for, and when they first did: what the settling is measured from. */
  askedVersion: number | undefined;
  askedSince: number;
  copying: Promise<void> | undefined;
  run: CopyRun | undefined;
  /** No copy is started before this time (after a failure, or a table not to copy). */
  retryAt: number;
  failures: number;
  /** When a read last found the copy damaged: a second time soon after, copying waits. */
  distrustedAt: number | undefined;
}

/** A copy holding the version a read asked for. */
export interface CopyHit {
  folder: string;
  /** The version's manifest, relative to the table's folder, and the store's ETag and size of it when it was copied. */
  manifest: string;
  manifestTag: string;
}

/** What a file counts against the bound. */
function charged(size: number): number {
  return Math.max(size, minimumFileBytes);
}

/** The key of the copy of the table `tableId` at `location`: a table re-created at a location gets a copy of its own. */
function keyOf(location: string, tableId: string): string {
  return createHash("sha256").update(`${location}\n${tableId}`).digest("hex").slice(0, 32);
}

/** Thrown inside a copy that was let go while it ran. */
class CopyStopped extends Error {}

export class TableCopies {
  private readonly copies = new Map<string, Copy>();
  /** Bytes of every copy's files, and bytes reserved by copies under way. */
  private bytes = 0;
  private reserved = 0;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;
  /** Told the folder of each copy let go, so reads let go of what they opened there. */
  onRemoved: (folder: string) => void = () => undefined;

  private constructor(
    private readonly settings: TableCopiesSettings,
    private readonly storages: Storages,
    private readonly format: CopiedTableFormat,
    private readonly observer: TableCopiesObserver,
  ) {}

  /**
   * Opens the copies under `settings.dir`, keeping those whose files are all there with their
   * sizes. A folder that cannot be read is started afresh rather than keeping the server from starting.
   */
  static async open(settings: TableCopiesSettings, storages: Storages, format: CopiedTableFormat, observer: TableCopiesObserver = silent): Promise<TableCopies> {
    const copies = new TableCopies(settings, storages, format, observer);
    // The folder is made by the first copy: a server whose tables are all in local folders never gets one.
    try {
      await copies.reopen();
    } catch {
      copies.copies.clear();
      copies.bytes = 0;
      await rm(settings.dir, { recursive: true, force: true });
    }
    copies.report();
    return copies;
  }

  /** The folder the copies' tables open from (each copy is `<key>-<random>.lance` in it). */
  get dir(): string {
    return this.settings.dir;
  }

  private newFolder(key: string): string {
    return path.join(this.settings.dir, `${key}-${randomBytes(6).toString("hex")}.lance`);
  }

  private stateFileOf(key: string): string {
    return path.join(this.settings.dir, `${key}.json`);
  }

  /**
   * A copy of the table `tableId` at `location` holding exactly `version`, or undefined: then,
   * when no copy is under way, one is started in the background (when the table may be copied),
   * and the caller reads the store.
   */
  at(location: string, tableId: string, version: number): CopyHit | undefined {
    if (this.closed) return undefined;
    const key = keyOf(location, tableId);
    let copy = this.copies.get(key);
    if (!copy) {
      copy = { key, folder: this.newFolder(key), location, tableId, version: undefined, manifest: undefined, manifestTag: undefined, earlierManifest: undefined, files: new Map(), bytes: 0, lastRead: 0, askedVersion: undefined, askedSince: 0, copying: undefined, run: undefined, retryAt: 0, failures: 0, distrustedAt: undefined };
      this.copies.set(key, copy);
      this.forgetBeyondBound();
    }
    const now = Date.now();
    copy.lastRead = now;
    if (copy.askedVersion === undefined || version > copy.askedVersion) {
      copy.askedVersion = version;
      copy.askedSince = now;
    }
    if (copy.version === version && copy.manifest !== undefined && copy.manifestTag !== undefined) {
      this.observer.read();
      return { folder: copy.folder, manifest: copy.manifest, manifestTag: copy.manifestTag };
    }
    // A read of an older version than the copy's (a replica that has not heard of a commit yet)
    // reads the store: the copy only moves forward.
    const behind = copy.version === undefined || version > copy.version;
    const settled = version === copy.askedVersion && now - copy.askedSince >= settleMs;
    if (behind && settled && copy.copying === undefined && now >= copy.retryAt) this.start(copy, version);
    return undefined;
  }

  /** Starts bringing `copy` to `version` in the background. */
  private start(copy: Copy, version: number): void {
    const run: CopyRun = { stopped: false };
    copy.run = run;
    copy.copying = this.inTurn(() => this.copyVersion(copy, version, run))
      .then(() => {
        copy.failures = 0;
      })
      .catch((error: unknown) => {
        if (error instanceof CopyStopped || run.stopped) return;
        copy.failures += 1;
        copy.retryAt = Date.now() + Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (copy.failures - 1));
        this.observer.skipped("failed");
      })
      .finally(() => {
        if (copy.run === run) {
          copy.copying = undefined;
          copy.run = undefined;
        }
      });
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

  /**
   * Brings `copy` to `version`: copies the files it lacks, then the manifest, then records the
   * state. Checks `run` before every change it records: a copy let go meanwhile changes nothing.
   */
  private async copyVersion(copy: Copy, version: number, run: CopyRun): Promise<void> {
    const stopIfLetGo = () => {
      if (run.stopped || this.closed) throw new CopyStopped();
    };
    const storage = this.storages.for(copy.location);
    const manifest = await this.manifestOf(storage, copy.location, version);
    if (!manifest) throw new Error(`no manifest of version ${version} at ${copy.location}`);
    const listed = await this.filesOf(storage, copy.location);
    stopIfLetGo();
    if (listed === "unsafe-name") return this.skip(copy, "unsafe-name");
    const refusal = this.format.refusal(manifest.bytes, new Set(listed.keys()));
    if (refusal) return this.skip(copy, refusal);
    const limit = this.settings.maxBytes / 2;
    const kept = [...copy.files].filter(([file]) => listed.has(file)).reduce((sum, [, size]) => sum + charged(size), 0);
    const missing = await this.sizesOf(storage, copy.location, [...listed].filter(([file]) => !copy.files.has(file)), limit - kept);
    stopIfLetGo();
    if (missing === "too-large" || listed.size + 2 > maxFilesPerCopy) return this.skip(copy, "too-large");
    const needed = [...missing.values()].reduce((sum, size) => sum + charged(size), 0) + charged(manifest.bytes.length);
    if (kept + needed > limit) return this.skip(copy, "too-large");
    if (!this.makeRoom(needed, copy)) throw new Error("no room for the copy");
    this.reserved += needed;
    let copied = 0;
    try {
      const folder = copy.folder;
      const queue = [...missing];
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const [file, size] = next;
          await this.copyFile(storage, joinLocation(copy.location, file), path.join(folder, file), size, stopIfLetGo);
          stopIfLetGo();
          this.record(copy, file, size);
          copied += size;
        }
      };
      const workers = await Promise.allSettled(Array.from({ length: parallelFiles }, worker));
      const failed = workers.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
      if (failed) throw failed.reason;
      await writeAside(path.join(folder, manifest.path), manifest.bytes);
      stopIfLetGo();
      this.record(copy, manifest.path, manifest.bytes.length);
      copied += manifest.bytes.length;
      const dropped = copy.earlierManifest;
      if (copy.manifest !== manifest.path) copy.earlierManifest = copy.manifest;
      copy.version = version;
      copy.manifest = manifest.path;
      copy.manifestTag = manifest.tag;
      // Files the store no longer holds (removed by a cleanup of old versions) are no version's
      // the copy serves; they go once the state no longer names them.
      const gone = [...copy.files.keys()].filter((file) => this.format.folders.some((top) => file.startsWith(`${top}/`)) && !listed.has(file));
      if (dropped !== undefined && dropped !== copy.manifest && dropped !== copy.earlierManifest) gone.push(dropped);
      for (const file of gone) this.unrecord(copy, file);
      await this.saveState(copy);
      for (const file of gone) await rm(path.join(folder, file), { force: true });
    } finally {
      this.reserved -= needed;
    }
    this.observer.copied(copied);
    this.report();
  }

  private record(copy: Copy, file: string, size: number): void {
    const previous = copy.files.get(file);
    if (previous !== undefined) this.unrecord(copy, file);
    copy.files.set(file, size);
    copy.bytes += charged(size);
    this.bytes += charged(size);
  }

  private unrecord(copy: Copy, file: string): void {
    const size = copy.files.get(file);
    if (size === undefined) return;
    copy.files.delete(file);
    copy.bytes -= charged(size);
    this.bytes -= charged(size);
  }

  /** Gives up on copying `copy` until `retryAt`; what it held is let go (it cannot follow the table). */
  private skip(copy: Copy, reason: SkipReason, retryAt = Date.now() + skipDelayMs): void {
    this.observer.skipped(reason);
    copy.retryAt = retryAt;
    this.stop(copy);
    if (copy.files.size === 0 && copy.version === undefined) return;
    this.discard(copy);
    Object.assign(copy, { folder: this.newFolder(copy.key), version: undefined, manifest: undefined, manifestTag: undefined, earlierManifest: undefined, files: new Map(), bytes: 0 });
    this.report();
  }

  /** Stops the copy of `copy` under way, if any: it records nothing more. */
  private stop(copy: Copy): void {
    if (copy.run) copy.run.stopped = true;
    copy.run = undefined;
    copy.copying = undefined;
  }

  /** The manifest of `version` and the store's ETag and size of it, or undefined when there is none. */
  private async manifestOf(storage: TableStorage, location: string, version: number): Promise<{ path: string; bytes: Buffer; tag: string } | undefined> {
    for (const relative of this.format.manifestPaths(version)) {
      const where = joinLocation(location, relative);
      const info = await storage.head(where);
      if (!info) continue;
      const bytes = await storage.read(where);
      if (!bytes || bytes.length !== info.size) throw new Error(`${where} changed while it was read`);
      return { path: relative, bytes, tag: `${info.eTag}:${info.size}` };
    }
    return undefined;
  }

  /**
   * Every file under the format's folders, relative to the table's folder, with its size where the
   * listing gave it; "unsafe-name" when a name there is not one a table format writes (it is
   * neither listed into nor copied), or names both a file and a folder.
   */
  private async filesOf(storage: TableStorage, location: string): Promise<Map<string, number | undefined> | "unsafe-name"> {
    const files = new Map<string, number | undefined>();
    const folders = new Set<string>();
    let unsafe = false;
    const walk = async (relative: string): Promise<void> => {
      for (const entry of await storage.list(joinLocation(location, relative))) {
        if (!safeSegment.test(entry.name) || files.size > maxFilesPerCopy) unsafe = true;
        if (unsafe) return;
        const child = `${relative}/${entry.name}`;
        if (entry.kind === "prefix") {
          folders.add(child);
          await walk(child);
        } else files.set(child, entry.size);
      }
    };
    for (const folder of this.format.folders) await walk(folder);
    if ([...folders].some((folder) => files.has(folder))) unsafe = true;
    return unsafe ? "unsafe-name" : files;
  }

  /**
   * The sizes of `files` (relative, with the listing's size where it gave one); a file gone since
   * it was listed is an error. "too-large" as soon as they pass `limit`.
   */
  private async sizesOf(storage: TableStorage, location: string, files: [string, number | undefined][], limit: number): Promise<Map<string, number> | "too-large"> {
    const sizes = new Map<string, number>();
    let total = 0;
    const add = (file: string, size: number) => {
      sizes.set(file, size);
      total += charged(size);
    };
    const unknown: string[] = [];
    for (const [file, size] of files) {
      if (size === undefined) unknown.push(file);
      else add(file, size);
    }
    if (total > limit) return "too-large";
    const workers = Array.from({ length: parallelHeads }, async () => {
      for (let file = unknown.shift(); file !== undefined && total <= limit; file = unknown.shift()) {
        const info = await storage.head(joinLocation(location, file));
        if (!info) throw new Error(`${file} was removed while the table was copied`);
        add(file, info.size);
      }
    });
    await Promise.all(workers);
    return total > limit ? "too-large" : sizes;
  }

  /** Copies one object to `target` in ranged reads, written aside and renamed once whole. */
  private async copyFile(storage: TableStorage, source: string, target: string, size: number, stopIfLetGo: () => void): Promise<void> {
    await mkdir(path.dirname(target), { recursive: true });
    const aside = `${target}.part-${randomBytes(6).toString("hex")}`;
    const handle = await open(aside, "w");
    try {
      for (let offset = 0; offset < size; offset += rangeBytes) {
        stopIfLetGo();
        const length = Math.min(rangeBytes, size - offset);
        const bytes = await storage.readRange(source, offset, length);
        if (!bytes || bytes.length !== length) throw new Error(`${source} changed while it was copied`);
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

  /**
   * Removes the least recently read copies (not `keep`, nor copies under way) until `bytes` more
   * fit beside what copies under way have reserved; false when they cannot.
   */
  private makeRoom(bytes: number, keep: Copy): boolean {
    const fits = () => this.bytes + this.reserved + bytes <= this.settings.maxBytes;
    const byAge = [...this.copies.values()].filter((copy) => copy !== keep && copy.copying === undefined && copy.files.size > 0).sort((a, b) => a.lastRead - b.lastRead);
    for (const copy of byAge) {
      if (fits()) break;
      this.remove(copy);
      this.observer.evicted();
    }
    return fits();
  }

  /** Forgets a copy (stopping it if under way); its files go once reads already under way are done with them. */
  private remove(copy: Copy): void {
    this.stop(copy);
    this.copies.delete(copy.key);
    this.discard(copy);
    this.report();
  }

  /**
   * Lets go of a copy's folder: its bytes are no longer counted and its state goes now (a restart
   * does not take the folder for a copy), the folder after a grace for reads under way.
   */
  private discard(copy: Copy): void {
    this.bytes -= copy.bytes;
    const folder = copy.folder;
    this.onRemoved(folder);
    void rm(this.stateFileOf(copy.key), { force: true }).catch(() => undefined);
    setTimeout(() => void rm(folder, { recursive: true, force: true }).catch(() => undefined), removalGraceMs).unref();
  }

  /** Forgets the oldest tables remembered without any file once there are more than `maxRemembered`. */
  private forgetBeyondBound(): void {
    if (this.copies.size <= maxRemembered) return;
    for (const copy of this.copies.values()) {
      if (this.copies.size <= maxRemembered) break;
      if (copy.files.size === 0 && copy.copying === undefined) this.copies.delete(copy.key);
    }
  }

  private report(): void {
    this.observer.holding([...this.copies.values()].filter((copy) => copy.version !== undefined).length, this.bytes);
  }

  /**
   * Lets go of the copy at `folder`, which a read found damaged (or whose manifest is no longer
   * the store's): the next read of its table starts a new one, unless this copy was found damaged
   * within the last minutes (then not for a while).
   */
  distrust(folder: string): void {
    const copy = [...this.copies.values()].find((candidate) => candidate.folder === folder);
    if (!copy) return;
    const now = Date.now();
    const again = copy.distrustedAt !== undefined && now - copy.distrustedAt < skipDelayMs;
    copy.distrustedAt = now;
    this.skip(copy, "damaged", again ? now + skipDelayMs : now);
  }

  /**
   * Whether the manifest the copy `hit` of the table at `location` holds is still the store's
   * (same ETag and size): a table written again from scratch at its location, under the same
   * catalog id, reuses version numbers with other files. One request to the store.
   */
  async stillTheStores(location: string, hit: CopyHit): Promise<boolean> {
    const info = await this.storages.for(location).head(joinLocation(location, hit.manifest));
    return info !== undefined && `${info.eTag}:${info.size}` === hit.manifestTag;
  }

  /** Lets go of every copy of a table at `location` (its data is being removed). */
  forget(location: string): void {
    for (const copy of [...this.copies.values()]) if (copy.location === location) this.remove(copy);
  }

  private async saveState(copy: Copy): Promise<void> {
    const state: CopyState = {
      folder: path.basename(copy.folder),
      location: copy.location,
      tableId: copy.tableId,
      version: copy.version as number,
      manifest: copy.manifest as string,
      manifestTag: copy.manifestTag as string,
      files: Object.fromEntries(copy.files),
    };
    await writeAside(this.stateFileOf(copy.key), Buffer.from(JSON.stringify(state)));
  }

  /**
   * Rebuilds the copies from their state files: a copy with a file missing or of another size is
   * removed, and whatever a copy's folder holds beyond its state (files of a copy cut short) too.
   */
  private async reopen(): Promise<void> {
    const names = await readdir(this.settings.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [];
      throw error;
    });
    for (const name of names.filter((entry) => entry.endsWith(".json"))) {
      const key = name.slice(0, -".json".length);
      const state = await readState(this.stateFileOf(key));
      const valid = state !== undefined && keyOf(state.location, state.tableId) === key && state.folder.startsWith(`${key}-`) && state.folder.endsWith(".lance") && !state.folder.includes("/") && state.manifest in state.files;
      const folder = valid ? path.join(this.settings.dir, state.folder) : "";
      if (!valid || !(await allThere(folder, state.files))) {
        // The folder is removed below, with every folder no state names.
        await rm(this.stateFileOf(key), { force: true });
        continue;
      }
      await removeBeyond(folder, new Set(Object.keys(state.files)));
      const copy: Copy = { key, folder, location: state.location, tableId: state.tableId, version: state.version, manifest: state.manifest, manifestTag: state.manifestTag, earlierManifest: undefined, files: new Map(), bytes: 0, lastRead: 0, askedVersion: undefined, askedSince: 0, copying: undefined, run: undefined, retryAt: 0, failures: 0, distrustedAt: undefined };
      for (const [file, size] of Object.entries(state.files)) this.record(copy, file, size);
      this.copies.set(key, copy);
    }
    // Folders no state names are copies that never completed, or were being removed.
    const named = new Set([...this.copies.values()].map((copy) => path.basename(copy.folder)));
    for (const name of names.filter((entry) => !entry.endsWith(".json") && !named.has(entry))) {
      await rm(path.join(this.settings.dir, name), { recursive: true, force: true });
    }
  }

  /** Stops the copies under way and starts none: a copy stops at its next file or range. */
  async close(): Promise<void> {
    this.closed = true;
    for (const resolve of this.waiting.splice(0)) resolve();
    const under = [...this.copies.values()].map((copy) => copy.copying);
    for (const copy of this.copies.values()) if (copy.run) copy.run.stopped = true;
    await Promise.all(under);
  }
}
