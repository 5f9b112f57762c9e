/**
 * @module The catalog properties a deregistered table keeps beside its files, so that
 * registering the table again (here or in another deployment) restores them. One small JSON file
 * at the table's root, which Lance does not read.
 */
import { joinLocation } from "../../storage/locations.js";
import type { Storages } from "../../storage/storages.js";

const fileName = ".quiver-properties.json";

function fileOf(location: string): string {
  return joinLocation(location, fileName);
}

/** Writes `properties` beside the table's files; the file is replaced whole, never half-written. */
async function keepProperties(storages: Storages, location: string, properties: Record<string, string>): Promise<void> {
  const file = fileOf(location);
  await storages.for(file).put(file, Buffer.from(JSON.stringify({ properties })));
}

/** The properties kept at `location`, or undefined when none are (or the file is unreadable). */
async function readKeptProperties(storages: Storages, location: string): Promise<Record<string, string> | undefined> {
  const file = fileOf(location);
  try {
    const bytes = await storages.for(file).read(file);
    if (!bytes) return undefined;
    const parsed = JSON.parse(bytes.toString("utf8")) as { properties?: unknown };
    const properties = parsed.properties;
    if (!properties || typeof properties !== "object" || Array.isArray(properties)) return undefined;
    const entries = Object.entries(properties).filter((entry): entry is [string, string] => typeof entry[1] === "string");
    return Object.fromEntries(entries);
  } catch {
    return undefined;
  }
}

/** Whether a deregistered table's properties are kept at `location`: its files are kept by design. */
async function hasKeptProperties(storages: Storages, location: string): Promise<boolean> {
  const file = fileOf(location);
  return (await storages.for(file).head(file)) !== undefined;
}

/** Removes the kept properties once the table is registered again; none kept is fine. */
async function forgetKeptProperties(storages: Storages, location: string): Promise<void> {
  const file = fileOf(location);
  await storages.for(file).delete(file);
}

/** The catalog properties kept beside deregistered tables' files. */
export class KeptProperties {
  constructor(private readonly storages: Storages) {}

  /** Writes `properties` beside the table's files; the file is replaced whole, never half-written. */
  keep(location: string, properties: Record<string, string>): Promise<void> {
    return keepProperties(this.storages, location, properties);
  }

  /** The properties kept at `location`, or undefined when none are (or the file is unreadable). */
  read(location: string): Promise<Record<string, string> | undefined> {
    return readKeptProperties(this.storages, location);
  }

  /** Whether properties are kept at `location`: its files are kept by design. */
  has(location: string): Promise<boolean> {
    return hasKeptProperties(this.storages, location);
  }

  /** Removes the kept properties once the table is registered again; none kept is fine. */
  forget(location: string): Promise<void> {
    return forgetKeptProperties(this.storages, location);
  }
}
