/**
 * @module The `quiver serve` config file: TOML whose top-level keys are the settings' keys
 * (`port = 8080`, `job_lease_ms = 30000`, a `[storage_options]` table). A key that is no
 * setting is refused by name, with the nearest known key when one is close, so a typo never
 * passes as silently ignored.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import type { Setting } from "./serve-settings.js";

export interface ConfigFile {
  /** How errors name the file: its base name (`quiver.toml`). */
  name: string;
  values: Record<string, unknown>;
}

export function readConfigFile(file: string, settings: readonly Setting[]): ConfigFile {
  const name = path.basename(file);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`cannot read the config file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let values: Record<string, unknown>;
  try {
    values = parse(text) as Record<string, unknown>;
  } catch (error) {
    // The parser's message names the line and column; the file's values are not echoed.
    throw new Error(`${name} is not valid TOML: ${(error as Error).message.split("\n", 1)[0]}`);
  }
  const known = new Set(settings.map((setting) => setting.key));
  for (const key of Object.keys(values)) {
    if (known.has(key)) continue;
    const near = nearestKey(key, [...known]);
    throw new Error(`unknown setting '${key}' in ${name}${near ? `; did you mean '${near}'?` : ""} (quiver serve --help lists the settings)`);
  }
  return { name, values };
}

/** The known key within a small edit distance of `key`, if any. */
function nearestKey(key: string, known: string[]): string | undefined {
  const normalized = key.toLowerCase().replace(/-/g, "_");
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(normalized, candidate);
    if (distance <= 2 && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
