/**
 * @module Parsing and validation of a materialized view's definition: Quiver's JSON form of
 * `source_query`, the `udtf_spec` envelope (built-in chunkers only) and its SHA-256, and the
 * stable hash that tells a refresh whether the definition changed since the last one.
 * The forms are documented in docs/materialized-views.md.
 */
import { createHash } from "node:crypto";
import { type ChunkerSpec, chunkerImplementationVersion, chunkerNames, validateChunkerSpec } from "../../engine/engine.js";
import { EngineError } from "../../engine/engine-errors.js";
import { type MaterializedViewKind, MaterializedViewKinds, type MaterializedViewUdtfEntry } from "../../model/materialized-view.js";
import { invalidInput } from "../../model/catalog-error.js";
import { splitTableId } from "../identifiers.js";

/** What Quiver stores and runs for a view. */
export interface ViewDefinition {
  kind: MaterializedViewKind;
  /** The source table's list identifier. */
  source: string[];
  /** `[view column, SQL expression]` pairs; always explicit once stored. */
  projections: [string, string][];
  filter: string | null;
  chunker: ChunkerSpec | null;
  /** The client's `udtf_version`, part of the definition hash. */
  udtfVersion: string | null;
}

export interface ParsedSourceQuery {
  source: string[];
  /** Null = every column of the source, resolved when the view is created. */
  projections: [string, string][] | null;
  filter: string | null;
}

const reservedColumns = new Set(["__source_row_id", "_rowid", "_rowaddr", "_distance", "_score", "_relevance_score"]);
const sourceQueryKeys = new Set(["source", "projections", "filter"]);
const envelopeKeys = new Set(["chunker", "column", "size", "overlap", "output_column", "index_column"]);

export function parseKind(kind: string): MaterializedViewKind {
  const canonical = kind.trim().toLowerCase().replace(/^scalar_udtf$/, "chunker");
  const found = MaterializedViewKinds.find((k) => k === canonical);
  if (!found) throw invalidInput(`kind must be one of ${MaterializedViewKinds.join(", ")}; got '${kind}'`);
  return found;
}

/** Reads `source_query`: JSON `{"source": [...id], "projections"?: ..., "filter"?: "sql"}`. */
export function parseSourceQuery(text: string): ParsedSourceQuery {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidInput(`source_query must be JSON of the form {"source": ["ns", "table"], "projections": ..., "filter": "..."}; it is not JSON`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw invalidInput("source_query must be a JSON object");
  const object = value as Record<string, unknown>;
  const unknown = Object.keys(object).filter((key) => !sourceQueryKeys.has(key));
  if (unknown.length > 0) throw invalidInput(`source_query has unknown field(s) ${unknown.join(", ")}; allowed: source, projections, filter`);

  let source: string[];
  if (typeof object.source === "string") source = object.source.split("$").filter((part) => part !== "");
  else if (Array.isArray(object.source) && object.source.every((part) => typeof part === "string")) source = object.source as string[];
  else throw invalidInput("source_query.source must be the source table's identifier: an array of strings or a '$'-joined string");
  splitTableId(source);

  if (object.filter !== undefined && object.filter !== null && (typeof object.filter !== "string" || object.filter.trim() === "")) {
    throw invalidInput("source_query.filter must be a non-empty SQL predicate");
  }
  const filter = typeof object.filter === "string" ? object.filter : null;
  const projections = object.projections === undefined || object.projections === null ? null : parseProjections(object.projections);
  return { source, projections, filter };
}

function parseProjections(value: unknown): [string, string][] {
  let pairs: [string, string][];
  if (Array.isArray(value)) {
    pairs = value.map((entry) => {
      if (typeof entry === "string") return [entry, quoteColumn(entry)];
      if (Array.isArray(entry) && entry.length === 2 && entry.every((part) => typeof part === "string")) return [entry[0], entry[1]];
      throw invalidInput("each source_query.projections entry must be a column name or an [alias, sql expression] pair");
    });
  } else if (value && typeof value === "object") {
    pairs = Object.entries(value as Record<string, unknown>).map(([alias, expr]) => {
      if (typeof expr !== "string") throw invalidInput(`source_query.projections.${alias} must be an SQL expression string`);
      return [alias, expr];
    });
  } else {
    throw invalidInput("source_query.projections must be a list or an object of alias → SQL expression");
  }
  if (pairs.length === 0) throw invalidInput("source_query.projections must name at least one column");
  checkColumnNames(pairs.map(([alias]) => alias));
  for (const [alias, expr] of pairs) if (expr.trim() === "") throw invalidInput(`projection '${alias}' has an empty expression`);
  return pairs;
}

/** View column names: non-empty, unique, and none of the names Lance or Quiver reserve. */
export function checkColumnNames(names: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (name === "") throw invalidInput("a view column name must not be empty");
    if (reservedColumns.has(name)) throw invalidInput(`'${name}' is a reserved column name`);
    if (seen.has(name)) throw invalidInput(`view column '${name}' appears twice`);
    seen.add(name);
  }
}

/** A column name as an SQL expression: bare when simple, else in backticks (doubled inside). */
export function quoteColumn(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name.replace(/`/g, "``")}\``;
}

/**
 * Validates `udtf_spec` for `kind` and returns the built-in chunker it selects (null for a
 * `query` view). Refuses with 13: a spec on a query view or none on the others, a kind
 * mismatch, a wrong `udtf_sha` or `manifest_checksum`, and any function Quiver cannot run.
 */
export function parseUdtfSpec(kind: MaterializedViewKind, spec: MaterializedViewUdtfEntry | null | undefined): ChunkerSpec | null {
  if (kind === "query") {
    if (spec) throw invalidInput("udtf_spec must be null for a query view");
    return null;
  }
  if (!spec) throw invalidInput(`a ${kind} view needs a udtf_spec`);
  if (parseKind(spec.kind) !== kind) throw invalidInput(`udtf_spec.kind '${spec.kind}' does not match the view's kind '${kind}'`);
  if (!sha256Matches(spec.udtf, spec.udtf_sha)) throw invalidInput("udtf_sha is not the SHA-256 of the udtf envelope");
  if (spec.manifest && spec.manifest_checksum && !sha256Matches(spec.manifest, spec.manifest_checksum, false)) {
    throw invalidInput("manifest_checksum is not the SHA-256 of manifest");
  }
  if (spec.partition_by || spec.partition_by_indexed_column) {
    throw invalidInput("Quiver's built-in functions do not partition; partition_by and partition_by_indexed_column must be null");
  }
  const envelope = decodeEnvelope(spec);
  if (typeof envelope.chunker !== "string" || !chunkerNames.includes(envelope.chunker as never)) {
    throw invalidInput(
      `Quiver cannot run udtf '${spec.udtf_name}' (version ${spec.udtf_version}): its envelope names no built-in function; ` +
        `Quiver runs ${chunkerNames.join(", ")} (envelope {"chunker": NAME, ...})`,
    );
  }
  const unknown = Object.keys(envelope).filter((key) => !envelopeKeys.has(key));
  if (unknown.length > 0) throw invalidInput(`udtf envelope has unknown field(s) ${unknown.join(", ")}`);
  const column = envelope.column ?? spec.input_columns?.[0];
  if (typeof column !== "string" || column === "") throw invalidInput("the chunker needs an input column: envelope 'column' or udtf_spec.input_columns[0]");
  const name = envelope.chunker as ChunkerSpec["chunker"];
  const chunker: ChunkerSpec = {
    chunker: name,
    column,
    outputColumn: stringOr(envelope.output_column, name === "explode_list" ? "item" : "chunk", "output_column"),
    indexColumn: envelope.index_column === null ? null : stringOr(envelope.index_column, "chunk_index", "index_column"),
  };
  if (name !== "explode_list") {
    chunker.size = envelope.size as number;
    chunker.overlap = (envelope.overlap ?? 0) as number;
  }
  try {
    validateChunkerSpec(chunker);
  } catch (error) {
    if (error instanceof EngineError) throw invalidInput(error.message);
    throw error;
  }
  return chunker;
}

function decodeEnvelope(spec: MaterializedViewUdtfEntry): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(spec.udtf, "base64").toString("utf8"));
  } catch {
    throw invalidInput(`Quiver cannot run udtf '${spec.udtf_name}': its envelope is not base64 JSON`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw invalidInput(`Quiver cannot run udtf '${spec.udtf_name}': its envelope is not a JSON object`);
  return value as Record<string, unknown>;
}

function stringOr(value: unknown, fallback: string, field: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || value === "") throw invalidInput(`udtf envelope field ${field} must be a non-empty string`);
  return value;
}

/** SHA-256 in hex, compared case-insensitively, of the text or (base64 text) of its bytes. */
function sha256Matches(text: string, expected: string, base64 = true): boolean {
  const want = expected.trim().toLowerCase().replace(/^sha256:/, "");
  const candidates = [createHash("sha256").update(text, "utf8").digest("hex")];
  if (base64) candidates.push(createHash("sha256").update(Buffer.from(text, "base64")).digest("hex"));
  return candidates.includes(want);
}

/** A stable hash of everything that decides the view's rows. */
export function definitionSha(definition: ViewDefinition): string {
  const canonical = JSON.stringify([
    definition.kind,
    definition.source,
    definition.projections,
    definition.filter,
    definition.chunker,
    definition.udtfVersion,
    chunkerImplementationVersion,
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}
