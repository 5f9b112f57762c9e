/**
 * @module Mode-like strings (spec/endpoints.md §0.5): case-insensitive, PascalCase or snake_case,
 * and, from the LanceDB Cloud client, wrapped in an extra pair of quotes (`"\"ExistOk\""`).
 */

/** Canonical form used for comparison: quotes, case and separators removed. */
function canonical(value: string): string {
  return value.trim().replace(/^"+|"+$/g, "").replace(/[_\-\s]/g, "").toLowerCase();
}

/**
 * Resolve `value` to one of `allowed` (PascalCase spellings), or undefined when absent.
 * Returns `null` for a value that matches none, so the caller can name the field in its error.
 */
export function parseMode<const T extends string>(
  value: unknown,
  allowed: readonly T[],
): T | undefined | null {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") return null;
  const wanted = canonical(value);
  return allowed.find((mode) => canonical(mode) === wanted) ?? null;
}

export const CreateModes = ["Create", "ExistOk", "Overwrite"] as const;
export type CreateMode = (typeof CreateModes)[number];

export const DropNamespaceModes = ["Fail", "Skip"] as const;
export const DropBehaviors = ["Restrict", "Cascade"] as const;
export const RegisterModes = ["Create", "Overwrite"] as const;
export const InsertModes = ["Append", "Overwrite"] as const;
