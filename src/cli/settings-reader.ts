/**
 * @module Reads the settings of `serve-settings.ts` from flags, then the environment, then the
 * config file (the first that has a setting wins) and checks each value against its kind. Every
 * refusal names where the value came from: `--port`, `QUIVER_PORT` or `port in quiver.toml`.
 */
import type { ConfigFile } from "./config-file.js";
import type { Setting } from "./serve-settings.js";

export type SettingValue = string | number | boolean | string[] | Record<string, string>;
export type FlagValues = Record<string, string | string[] | boolean | undefined>;

/** A value as it arrives, with the name of where it came from. */
interface RawValue {
  source: string;
  value: unknown;
  /** Text (flags and environment) or typed (the TOML file). */
  typed: boolean;
}

const truthy = new Set(["1", "true", "yes", "on"]);
const falsy = new Set(["0", "false", "no", "off", ""]);

/** Where `setting` is set, the winning source first: flag, environment, file. */
function rawValues(setting: Setting, flags: FlagValues, env: NodeJS.ProcessEnv, file: ConfigFile | undefined): RawValue[] {
  const found: RawValue[] = [];
  const flagName = setting.flag.slice(2);
  if (flags[flagName] !== undefined) found.push({ source: setting.flag, value: flags[flagName], typed: false });
  const fromEnv = env[setting.env];
  if (fromEnv !== undefined && !(setting.kind.type !== "boolean" && fromEnv.trim() === "")) found.push({ source: setting.env, value: fromEnv, typed: false });
  if (file && file.values[setting.key] !== undefined) found.push({ source: `${setting.key} in ${file.name}`, value: file.values[setting.key], typed: true });
  return found;
}

function checked(setting: Setting, raw: RawValue): SettingValue {
  const { source, value } = raw;
  const shown = typeof value === "string" ? `'${value}'` : JSON.stringify(value);
  const kind = setting.kind;
  switch (kind.type) {
    case "string":
      if (typeof value !== "string") throw new Error(`${source} must be a string, got ${shown}`);
      return value;
    case "boolean":
      if (typeof value === "boolean") return value;
      if (typeof value === "string" && !raw.typed) {
        const lower = value.trim().toLowerCase();
        if (truthy.has(lower)) return true;
        if (falsy.has(lower)) return false;
      }
      throw new Error(`${source} must be ${raw.typed ? "true or false" : "1 or 0 (true or false)"}, got ${shown}`);
    case "integer": {
      const number = typeof value === "string" && !raw.typed ? Number(value.trim() === "" ? NaN : value) : value;
      const inRange = typeof number === "number" && Number.isInteger(number) && number >= kind.min && (kind.max === undefined || number <= kind.max);
      if (!inRange) {
        const bound = kind.max === undefined ? `of at least ${kind.min}` : `from ${kind.min} to ${kind.max}`;
        throw new Error(`${source} must be an integer ${bound}, got ${shown}`);
      }
      return number as number;
    }
    case "size": {
      const bytes = sizeOf(value, raw.typed);
      if (bytes === undefined || bytes < kind.min) throw new Error(`${source} must be a size of at least ${kind.min} byte (a number of bytes, or with KiB, MiB or GiB), got ${shown}`);
      return bytes;
    }
    case "duration": {
      const ms = durationOf(value, raw.typed);
      if (ms === undefined) throw new Error(`${source} must be a duration (seconds, or a number with s, m, h or d such as 30m or 7d), got ${shown}`);
      return ms;
    }
    case "choice":
      if (typeof value !== "string" || !kind.values.includes(value)) throw new Error(`${source} must be one of ${kind.values.join(", ")}, got ${shown}`);
      return value;
    case "list": {
      // A repeated flag arrives as an array, each entry itself comma-separated.
      const texts = Array.isArray(value) && !raw.typed ? value : [value];
      const items = !raw.typed && texts.every((text) => typeof text === "string") ? texts.flatMap((text) => (text as string).split(",").map((item) => item.trim()).filter(Boolean)) : value;
      if (!Array.isArray(items) || items.some((item) => typeof item !== "string" || item === "")) {
        throw new Error(`${source} must be ${raw.typed ? "an array of names" : "comma-separated names"}, got ${shown}`);
      }
      return items as string[];
    }
    case "map":
      return mapOf(source, value, raw.typed);
  }
}

const sizeUnits: Record<string, number> = { "": 1, b: 1, k: 2 ** 10, kib: 2 ** 10, m: 2 ** 20, mib: 2 ** 20, g: 2 ** 30, gib: 2 ** 30, t: 2 ** 40, tib: 2 ** 40 };

const durationUnits: Record<string, number> = { "": 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A non-negative amount written as text with an optional unit ("1.5GiB", "7d"), times that unit's
 * factor in `units` and rounded by `round`; undefined when the text or its unit does not parse or
 * the result is no safe integer.
 */
function scaledAmount(text: string, units: Record<string, number>, round: (value: number) => number): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? units[(match[2] as string).toLowerCase()] : undefined;
  if (!match || unit === undefined) return undefined;
  const amount = round(Number(match[1]) * unit);
  return Number.isSafeInteger(amount) ? amount : undefined;
}

/** Milliseconds of a duration setting: seconds (typed in the file, or text), or text with a unit. */
function durationOf(value: unknown, typed: boolean): number | undefined {
  if (typeof value === "number" && typed) return Number.isSafeInteger(value) && value >= 0 ? value * 1000 : undefined;
  return typeof value === "string" ? scaledAmount(value, durationUnits, Math.round) : undefined;
}

/** Bytes of a size setting: an integer (typed in the file, or text), or text with a binary unit. */
function sizeOf(value: unknown, typed: boolean): number | undefined {
  if (typeof value === "number" && typed) return Number.isSafeInteger(value) ? value : undefined;
  return typeof value === "string" ? scaledAmount(value, sizeUnits, Math.floor) : undefined;
}

/**
 * A map setting: `K=V` flags, a JSON object in the environment, a TOML table in the file. Values
 * are never echoed in errors: they may be secrets.
 */
function mapOf(source: string, value: unknown, typed: boolean): Record<string, string> {
  let object: unknown = value;
  if (Array.isArray(value) && !typed) {
    object = {};
    for (const pair of value as string[]) {
      const equals = pair.indexOf("=");
      if (equals <= 0) throw new Error(`${source} takes KEY=VALUE; one was given without '=' or without a key`);
      (object as Record<string, string>)[pair.slice(0, equals).trim()] = pair.slice(equals + 1);
    }
  } else if (typeof value === "string" && !typed) {
    try {
      object = JSON.parse(value);
    } catch {
      throw new Error(`${source} must be a JSON object of strings`);
    }
  }
  if (!object || typeof object !== "object" || Array.isArray(object)) throw new Error(`${source} must be ${typed ? "a table of strings" : "a JSON object of strings"}`);
  for (const [key, item] of Object.entries(object)) {
    if (typeof item !== "string") throw new Error(`${source}: the value of '${key}' must be a string`);
  }
  return object as Record<string, string>;
}

/** The checked value of every setting that flags, environment or file set; unset ones are absent. */
export function readSettings(settings: readonly Setting[], flags: FlagValues, env: NodeJS.ProcessEnv, file: ConfigFile | undefined): Map<string, SettingValue> {
  const values = new Map<string, SettingValue>();
  for (const setting of settings) {
    const found = rawValues(setting, flags, env, file);
    if (found.length === 0) continue;
    // A map merges its sources key by key, the winning source's keys last.
    if (setting.kind.type === "map") values.set(setting.key, Object.assign({}, ...found.reverse().map((raw) => checked(setting, raw))));
    else values.set(setting.key, checked(setting, found[0] as RawValue));
  }
  return values;
}
