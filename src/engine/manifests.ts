/**
 * @module Lance manifest files: their names under both naming schemes (spec/concepts.md §6.2),
 * where each branch keeps them, listing them, and putting a staged manifest at its final name
 * with put-if-not-exists semantics. Plain file operations: no Lance call is needed, which keeps
 * CreateTableVersion cheap.
 */
import type { Stats } from "node:fs";
import { copyFile, link, lstat, open, readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import path from "node:path";

export type ManifestNamingScheme = "V1" | "V2";

const u64Max = 18446744073709551615n;
const v2Pattern = /^(\d{20})\.manifest$/;
const v1Pattern = /^(\d{1,19})\.manifest$/;
const hintFile = "latest_version_hint.json";

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
export function versionsDirectory(location: string, branch: string): string {
  return branch === "" ? path.join(location, "_versions") : path.join(location, "tree", branch, "_versions");
}

export function manifestPath(location: string, branch: string, version: number, scheme: ManifestNamingScheme): string {
  return path.join(versionsDirectory(location, branch), manifestFileName(version, scheme));
}

export interface ManifestFile {
  version: number;
  path: string;
  scheme: ManifestNamingScheme;
  size: number;
  eTag: string;
  modifiedMillis: number;
}

/**
 * The ETag the object store Lance uses (Rust `object_store`, local files) gives a file:
 * inode, modification time in microseconds and size, in hex.
 */
export function localETag(stats: Stats & { ino: number | bigint; mtimeNs?: bigint }): string {
  const micros = stats.mtimeNs !== undefined ? stats.mtimeNs / 1000n : BigInt(Math.floor(stats.mtimeMs * 1000));
  return `${BigInt(stats.ino).toString(16)}-${micros.toString(16)}-${BigInt(stats.size).toString(16)}`;
}

/** Size and ETag of a file, or undefined when it does not exist. */
export async function statManifest(file: string): Promise<{ size: number; eTag: string; modifiedMillis: number } | undefined> {
  try {
    const stats = await stat(file, { bigint: true });
    return { size: Number(stats.size), eTag: localETag(stats as unknown as Stats & { mtimeNs: bigint; ino: bigint }), modifiedMillis: Number(stats.mtimeMs) };
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

export interface ManifestName {
  version: number;
  path: string;
  scheme: ManifestNamingScheme;
}

/**
 * Every manifest of one branch by version ascending, from the directory listing alone (no
 * stat per file, so "latest version" stays cheap on long histories); a missing directory has none.
 */
export async function listManifestNames(location: string, branch: string): Promise<ManifestName[]> {
  const directory = versionsDirectory(location, branch);
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
  const files: ManifestName[] = [];
  for (const name of names) {
    const parsed = parseManifestFileName(name);
    if (parsed) files.push({ ...parsed, path: path.join(directory, name) });
  }
  return files.sort((a, b) => a.version - b.version);
}

/** A listed manifest with its size, ETag and time; undefined if it vanished meanwhile. */
export async function describeManifest(name: ManifestName): Promise<ManifestFile | undefined> {
  const info = await statManifest(name.path);
  return info ? { ...name, ...info } : undefined;
}

export type PutOutcome = "created" | "already-there" | "conflict";

/**
 * Puts the staged manifest at `final` unless a manifest is already there. The bytes are copied
 * to a temporary name in the same directory and hard-linked to the final name, so readers never
 * see a half-written manifest and two writers cannot both win. A final file with the same bytes
 * counts as already there (a repeated finalize); different bytes are a conflict.
 */
export async function putManifestIfAbsent(staged: string, final: string): Promise<PutOutcome> {
  if (staged === final) return (await statManifest(final)) ? "already-there" : "conflict";
  const temporary = `${final}.${randomUUID()}.tmp`;
  try {
    await copyFile(staged, temporary);
  } catch (error) {
    // The staged file is gone: another finalize got there first, or it never existed.
    if (isMissing(error) && (await statManifest(final))) return "already-there";
    throw error;
  }
  try {
    await link(temporary, final);
    return "created";
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const [ours, theirs] = await Promise.all([readFile(temporary), readFile(final)]);
    return ours.equals(theirs) ? "already-there" : "conflict";
  } finally {
    await removeFile(temporary);
  }
}

/** Removes a file; a missing one is fine. */
export async function removeFile(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

/** Every Lance file, manifests included, ends with this magic (after the metadata position and format version). */
const lanceMagic = Buffer.from("LANC");
const lanceFooterLength = 16;

/** Whether a file ends the way every Lance manifest does: a 16-byte footer closed by "LANC". */
export async function hasLanceFooter(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    if (size < lanceFooterLength) return false;
    const tail = Buffer.alloc(lanceMagic.length);
    await handle.read(tail, 0, tail.length, size - tail.length);
    return tail.equals(lanceMagic);
  } finally {
    await handle.close();
  }
}

export async function isRegularFile(file: string): Promise<boolean> {
  try {
    return (await lstat(file)).isFile();
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/**
 * Raises Lance's latest-version hint of a branch to `version` when the hint exists and is
 * lower, so readers that trust it find a version the catalog put in place.
 */
export async function raiseVersionHint(location: string, branch: string, version: number): Promise<void> {
  const file = path.join(versionsDirectory(location, branch), hintFile);
  let current: number;
  try {
    current = Number((JSON.parse(await readFile(file, "utf8")) as { version?: unknown }).version);
  } catch (error) {
    if (isMissing(error) || error instanceof SyntaxError) return;
    throw error;
  }
  if (Number.isFinite(current) && current >= version) return;
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, JSON.stringify({ version }));
  await rename(temporary, file);
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
