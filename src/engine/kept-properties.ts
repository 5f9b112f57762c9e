/**
 * @module The catalog properties a deregistered table keeps beside its files, so that
 * registering the table again (here or in another deployment) restores them. One small JSON file
 * at the table's root, which Lance does not read.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { removeFile } from "./manifests.js";

const fileName = ".quiver-properties.json";

function fileOf(location: string): string {
  return path.join(location, fileName);
}

/** Writes `properties` beside the table's files; the file is replaced whole, never half-written. */
export async function keepProperties(location: string, properties: Record<string, string>): Promise<void> {
  const file = fileOf(location);
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, JSON.stringify({ properties }));
  try {
    await rename(temporary, file);
  } catch (error) {
    await removeFile(temporary);
    throw error;
  }
}

/** The properties kept at `location`, or undefined when none are (or the file is unreadable). */
export async function readKeptProperties(location: string): Promise<Record<string, string> | undefined> {
  let text: string;
  try {
    text = await readFile(fileOf(location), "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as { properties?: unknown };
    const properties = parsed.properties;
    if (!properties || typeof properties !== "object" || Array.isArray(properties)) return undefined;
    const entries = Object.entries(properties).filter((entry): entry is [string, string] => typeof entry[1] === "string");
    return Object.fromEntries(entries);
  } catch {
    return undefined;
  }
}

/** Whether a deregistered table's properties are kept at `location`: its files are kept by design. */
export function hasKeptProperties(location: string): boolean {
  return existsSync(fileOf(location));
}

/** Removes the kept properties once the table is registered again; none kept is fine. */
export async function forgetKeptProperties(location: string): Promise<void> {
  await removeFile(fileOf(location));
}
