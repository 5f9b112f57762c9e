/**
 * @module Lance field paths (spec/endpoints.md §0.6, service description "Update rows"): dot-separated segments;
 * a segment holding a dot is wrapped in backticks; a backtick inside a quoted segment is doubled.
 */
import { EngineError } from "./engine-errors.js";

/** Splits a field path into its segments: "a.`b.c`.d" → ["a", "b.c", "d"]. */
export function parseFieldPath(path: string): string[] {
  const segments: string[] = [];
  let i = 0;
  if (path.length === 0) throw new EngineError("invalid-input", "field path must not be empty");
  while (i <= path.length) {
    let segment = "";
    if (path[i] === "`") {
      i += 1;
      for (;;) {
        if (i >= path.length) throw new EngineError("invalid-input", `field path ${path} has an unterminated backtick`);
        if (path[i] === "`") {
          if (path[i + 1] === "`") {
            segment += "`";
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        segment += path[i];
        i += 1;
      }
      if (i < path.length && path[i] !== ".") throw new EngineError("invalid-input", `field path ${path} has text after a quoted segment`);
    } else {
      while (i < path.length && path[i] !== ".") {
        if (path[i] === "`") throw new EngineError("invalid-input", `field path ${path} has a backtick inside an unquoted segment`);
        segment += path[i];
        i += 1;
      }
    }
    if (segment.length === 0) throw new EngineError("invalid-input", `field path ${path} has an empty segment`);
    segments.push(segment);
    if (i >= path.length) break;
    i += 1; // the dot
    if (i === path.length) throw new EngineError("invalid-input", `field path ${path} ends with a dot`);
  }
  return segments;
}

/** One segment as it must be written in a path: quoted only when it needs to be. */
export function formatSegment(segment: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(segment) ? segment : quoteSegment(segment);
}

/** Canonical form of a path, as reported back to clients. */
export function formatFieldPath(segments: readonly string[]): string {
  return segments.map(formatSegment).join(".");
}

/** A path as a SQL column reference: every segment backtick-quoted, so any name is safe. */
export function sqlReference(segments: readonly string[]): string {
  return segments.map(quoteSegment).join(".");
}

function quoteSegment(segment: string): string {
  return "`" + segment.replace(/`/g, "``") + "`";
}
