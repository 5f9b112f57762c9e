/**
 * @module Query parameters that carry JSON maps (CreateTable's `properties` and
 * `storage_options`, spec/endpoints.md §5.1).
 */
import { invalidInput } from "../model/catalog-error.js";

export function jsonMapParam(value: unknown, name: string): Record<string, string> | undefined {
  if (value === undefined || value === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(value));
  } catch (error) {
    throw invalidInput(`query parameter ${name} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw invalidInput(`query parameter ${name} must be a JSON object of strings`);
  }
  const entries = Object.entries(parsed);
  if (!entries.every(([, v]) => typeof v === "string")) throw invalidInput(`query parameter ${name} must map strings to strings`);
  return Object.fromEntries(entries) as Record<string, string>;
}
