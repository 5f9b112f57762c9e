/**
 * @module Built-in chunkers of materialized views (1 source row → 0..N view rows), selected by
 * a view's `udtf_spec`. Each takes one input value and returns the pieces; the caller gathers
 * the source row's other columns alongside (view-io.ts). They are pure functions so the same
 * definition always gives the same rows, which incremental refresh relies on.
 */
import { EngineError } from "./engine-errors.js";

export const chunkerNames = ["split_characters", "split_words", "explode_list"] as const;
export type ChunkerName = (typeof chunkerNames)[number];

/** A validated chunker definition, as stored in the view's definition. */
export interface ChunkerSpec {
  chunker: ChunkerName;
  /** Source column (field path) holding the text or list to expand. */
  column: string;
  /** split_*: characters or words per chunk. */
  size?: number;
  /** split_*: characters or words shared by consecutive chunks; less than `size`. */
  overlap?: number;
  /** Name of the output column holding each piece. */
  outputColumn: string;
  /** Name of the Int32 output column numbering the pieces of one source row from 0; null = none. */
  indexColumn: string | null;
}

/**
 * Bumped whenever a chunker's output for the same input changes; part of the definition hash,
 * so views built by an older implementation are rebuilt rather than mixed.
 */
export const chunkerImplementationVersion = "1";

/** Splits `text` into chunks of `size` characters (code points), consecutive ones sharing `overlap`. */
export function splitCharacters(text: string, size: number, overlap: number): string[] {
  // Strings without surrogate pairs (the common case) are sliced directly.
  const units = /[\uD800-\uDFFF]/.test(text) ? Array.from(text) : null;
  const length = units ? units.length : text.length;
  const step = size - overlap;
  const chunks: string[] = [];
  for (let start = 0; start < length; start += step) {
    chunks.push(units ? units.slice(start, start + size).join("") : text.slice(start, start + size));
    if (start + size >= length) break;
  }
  return chunks;
}

/** Splits `text` on whitespace into chunks of `size` words, consecutive ones sharing `overlap`. */
export function splitWords(text: string, size: number, overlap: number): string[] {
  const words = text.match(/\S+/g) ?? [];
  const step = size - overlap;
  const chunks: string[] = [];
  for (let start = 0; start < words.length; start += step) {
    chunks.push(words.slice(start, start + size).join(" "));
    if (start + size >= words.length) break;
  }
  return chunks;
}

/** Checks a chunker definition's parameters; throws EngineError("invalid-input") naming the fault. */
export function validateChunkerSpec(spec: ChunkerSpec): void {
  if (!chunkerNames.includes(spec.chunker)) {
    throw new EngineError("invalid-input", `unknown chunker '${spec.chunker}'; Quiver runs ${chunkerNames.join(", ")}`);
  }
  if (spec.chunker === "explode_list") return;
  const { size, overlap } = spec;
  if (!Number.isInteger(size) || (size as number) < 1 || (size as number) > 1_000_000) {
    throw new EngineError("invalid-input", `chunker '${spec.chunker}' needs an integer size from 1 to 1000000`);
  }
  if (!Number.isInteger(overlap) || (overlap as number) < 0 || (overlap as number) >= (size as number)) {
    throw new EngineError("invalid-input", `chunker '${spec.chunker}' needs an integer overlap from 0 to size - 1`);
  }
}
