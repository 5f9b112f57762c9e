/**
 * @module Where table data lives, as `quiver serve` and the admin commands take it: `--data` (env
 * QUIVER_DATA) and `--storage-option KEY=VALUE`, repeatable (env QUIVER_STORAGE_OPTIONS, a JSON
 * object; flags win per key). Values are never echoed: they may be secrets.
 */
import type { StorageOptions } from "../storage/storage-options.js";

export const storageFlagSpecs = {
  data: { type: "string" },
  "storage-option": { type: "string", multiple: true },
} as const;

export interface StorageFlags {
  /** A folder or an object-store URI; undefined leaves the default, `<root>/databases`. */
  data: string | undefined;
  options: StorageOptions;
}

export function parseStorageFlags(values: { data?: string; "storage-option"?: string[] }, env: NodeJS.ProcessEnv): StorageFlags {
  return { data: values.data ?? env.QUIVER_DATA, options: { ...optionsFromEnv(env.QUIVER_STORAGE_OPTIONS), ...optionsFromFlags(values["storage-option"] ?? []) } };
}

function optionsFromEnv(text: string | undefined): StorageOptions {
  if (text === undefined || text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error("QUIVER_STORAGE_OPTIONS must be a JSON object of strings");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("QUIVER_STORAGE_OPTIONS must be a JSON object of strings");
  const options: StorageOptions = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== "string") throw new Error(`QUIVER_STORAGE_OPTIONS: the value of '${key}' must be a string`);
    options[key] = value;
  }
  return options;
}

function optionsFromFlags(pairs: string[]): StorageOptions {
  const options: StorageOptions = {};
  for (const pair of pairs) {
    const equals = pair.indexOf("=");
    // Nothing of the argument is echoed: it may be a secret given without its key.
    if (equals <= 0) throw new Error("--storage-option takes KEY=VALUE; one was given without '=' or without a key");
    options[pair.slice(0, equals).trim()] = pair.slice(equals + 1);
  }
  return options;
}
