/**
 * @module Lance manifest files: their names under both naming schemes (spec/concepts.md §6.2),
 * where each branch keeps them, listing them, and putting a staged manifest at its final name
 * with put-if-not-exists semantics. Plain object operations through the storage layer: no Lance
 * call is needed, which keeps CreateTableVersion cheap.
 */
import type { ObjectInfo } from "../../storage/table-storage.js";
import { joinLocation, locationName, parentLocation } from "../../storage/locations.js";
import type { Storages } from "../../storage/storages.js";
import type { BranchName } from "../../model/path-names.js";
import { StagedManifestMissing } from "../engine-errors.js";
import { type VersionOperation, readVersionOperation } from "./version-operations.js";

export type ManifestNamingScheme = "V1" | "V2";

const u64Max = 18446744073709551615n;
const v2Pattern = /^(\d{20})\.manifest$/;
const v1Pattern = /^(\d{1,19})\.manifest$/;
const hintFile = "latest_version_hint.json";

/** A manifest file name, final (`<n>.manifest`) or staged (`<n>.manifest-<suffix>`). */
export function isManifestFileName(name: string): boolean {
  return /^\d+\.manifest(-[A-Za-z0-9_.-]+)?$/.test(name);
}

/** Whether a path names a staged manifest (which finalizing may delete), not a final one. */
export function isStagedManifestName(file: string): boolean {
  return /^\d+\.manifest-[A-Za-z0-9_.-]+$/.test(file.slice(file.lastIndexOf("/") + 1));
}

/**
 * Whether `file` is named as a manifest in a `_versions` folder: what the path of a manifest a
 * client stages, or a restore brings, must say before Quiver installs or deletes that file.
 */
export function isVersionsFolderManifest(file: string): boolean {
  return locationName(parentLocation(file)) === "_versions" && isManifestFileName(locationName(file));
}

/** File name of `version`'s manifest: V1 `{n}.manifest`, V2 `{u64::MAX − n, 20 digits}.manifest`. */
export function manifestFileName(version: number, scheme: ManifestNamingScheme): string {
  if (scheme === "V1") return `${version}.manifest`;
  return `${(u64Max - BigInt(version)).toString().padStart(20, "0")}.manifest`;
}

/** The version a manifest file name stands for, or undefined for any other file. */
export function parseManifestFileName(name: string): { version: number; scheme: ManifestNamingScheme } | undefined {
  const v2 = v2Pattern.exec(name);
  if (v2) return { version: Number(u64Max - BigInt(v2[1] as string)), scheme: "V2" };
  const v1 = v1Pattern.exec(name);
  if (v1) return { version: Number(v1[1]), scheme: "V1" };
  return undefined;
}

/** Directory of a branch's manifests: `_versions/` for main, `tree/<branch>/_versions/` for others. */
export function versionsDirectory(location: string, branch: BranchName | ""): string {
  return branch === "" ? joinLocation(location, "_versions") : joinLocation(location, "tree", branch, "_versions");
}

export function manifestPath(location: string, branch: BranchName | "", version: number, scheme: ManifestNamingScheme): string {
  return joinLocation(versionsDirectory(location, branch), manifestFileName(version, scheme));
}

export interface ManifestFile extends ObjectInfo {
  version: number;
  path: string;
  scheme: ManifestNamingScheme;
}

export interface ManifestName {
  version: number;
  path: string;
  scheme: ManifestNamingScheme;
}

export type PutOutcome = "created" | "already-there" | "conflict";

/** Why a file offered as a staged manifest cannot be one, or its size, ETag and time when it can. */
export type StagedManifestCheck = { info: ObjectInfo } | { refused: "not-a-manifest-name" | "missing" | "not-lance" } | { refused: "too-large"; size: number };

/** Every Lance file, manifests included, ends with this magic (after the metadata position and format version). */
const lanceMagic = Buffer.from("LANC");
const lanceFooterLength = 16;

/** The manifests of tables, read and written as plain objects through the runtime's storage. */
export class ManifestFiles {
  constructor(private readonly storages: Storages) {}

  /** Directory of a branch's manifests ("" is main). */
  readonly directory = versionsDirectory;
  /** Where `version`'s manifest of `branch` lives under `scheme`. */
  readonly path = manifestPath;
  /** Whether a path names a staged manifest (which finalizing may delete), not a final one. */
  readonly isStaged = isStagedManifestName;

  /** Whether a Lance dataset has been written at `location` (any committed version of main). */
  async anyCommitted(location: string): Promise<boolean> {
    const versions = joinLocation(location, "_versions");
    return (await this.storages.for(versions).list(versions)).some((entry) => entry.kind === "object" && entry.name.endsWith(".manifest"));
  }

  /** Size, ETag and time of a manifest, or undefined when it does not exist. */
  stat(file: string): Promise<ObjectInfo | undefined> {
    return this.storages.for(file).head(file);
  }

  /**
   * Every manifest of one branch by version ascending, from the listing alone (no stat per file,
   * so "latest version" stays cheap on long histories); a missing folder has none.
   */
  async list(location: string, branch: BranchName | ""): Promise<ManifestName[]> {
    const directory = versionsDirectory(location, branch);
    const files: ManifestName[] = [];
    for (const entry of await this.storages.for(directory).list(directory)) {
      const parsed = entry.kind === "object" ? parseManifestFileName(entry.name) : undefined;
      if (parsed) files.push({ ...parsed, path: joinLocation(directory, entry.name) });
    }
    return files.sort((a, b) => a.version - b.version);
  }

  /** A listed manifest with its size, ETag and time; undefined if it vanished meanwhile. */
  async describe(name: ManifestName): Promise<ManifestFile | undefined> {
    const info = await this.stat(name.path);
    return info ? { ...name, ...info } : undefined;
  }

  /**
   * Checks a file a client offers as a staged manifest: a manifest file name in a `_versions`
   * folder, present, at most `maxBytes` long, and ending the way every Lance manifest does.
   * Finalizing reads the manifest whole, and committing anything else would leave a version Lance
   * cannot open.
   */
  async checkStaged(file: string, maxBytes: number): Promise<StagedManifestCheck> {
    if (!isVersionsFolderManifest(file)) return { refused: "not-a-manifest-name" };
    const info = await this.stat(file);
    if (!info) return { refused: "missing" };
    if (info.size > maxBytes) return { refused: "too-large", size: info.size };
    if (!(await this.hasLanceFooter(file, info))) return { refused: "not-lance" };
    return { info };
  }

  /**
   * Puts the staged manifest at `final` unless a manifest is already there, with a conditional
   * create, so two writers cannot both win. A final manifest with the same bytes counts as already
   * there (a repeated finalize); different bytes are a conflict. Throws `StagedManifestMissing`
   * when the staged manifest is gone and nothing holds the final name.
   */
  async putIfAbsent(staged: string, final: string): Promise<PutOutcome> {
    const storage = this.storages.for(final);
    if (staged === final) return (await storage.head(final)) ? "already-there" : "conflict";
    const outcome = storage.copyIfAbsent ? await storage.copyIfAbsent(staged, final) : await this.copyByReading(staged, final);
    if (outcome === "created") return "created";
    if (outcome === "missing") {
      // The staged manifest is gone: another finalize got there first, or it never existed.
      if (await storage.head(final)) return "already-there";
      throw new StagedManifestMissing(staged);
    }
    const [ours, theirs] = await Promise.all([this.storages.for(staged).read(staged), storage.read(final)]);
    // No staged manifest left: the finalize that put it in place removed it.
    if (!ours) return "already-there";
    return theirs?.equals(ours) ? "already-there" : "conflict";
  }

  /** Removes a manifest (or any file of the table); a missing one is fine. */
  remove(file: string): Promise<void> {
    return this.storages.for(file).delete(file);
  }

  /**
   * Raises Lance's latest-version hint of a branch to `version` when the hint exists and is
   * lower, so readers that trust it find a version the catalog put in place.
   */
  async raiseVersionHint(location: string, branch: BranchName | "", version: number): Promise<void> {
    const file = joinLocation(versionsDirectory(location, branch), hintFile);
    const storage = this.storages.for(file);
    const text = await storage.read(file);
    if (!text) return;
    let current: number;
    try {
      current = Number((JSON.parse(text.toString("utf8")) as { version?: unknown }).version);
    } catch {
      return;
    }
    if (Number.isFinite(current) && current >= version) return;
    await storage.put(file, Buffer.from(JSON.stringify({ version })));
  }

  /** What committed the version whose manifest is at `file` (see `readVersionOperation`). */
  operation(file: string): Promise<VersionOperation | undefined> {
    return readVersionOperation(this.storages, file);
  }

  /**
   * Whether `file`, as `info` describes it, ends the way every Lance manifest does: a 16-byte footer
   * closed by "LANC". The caller's `info` spares a second stat.
   */
  private async hasLanceFooter(file: string, info: ObjectInfo): Promise<boolean> {
    if (info.size < lanceFooterLength) return false;
    const tail = await this.storages.for(file).readTail(file, lanceMagic.length);
    return tail?.equals(lanceMagic) ?? false;
  }

  private async copyByReading(source: string, final: string): Promise<"created" | "exists" | "missing"> {
    const bytes = await this.storages.for(source).read(source);
    return bytes ? this.storages.for(final).putIfAbsent(final, bytes) : "missing";
  }
}
