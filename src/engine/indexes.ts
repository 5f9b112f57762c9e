/**
 * @module Index operations: build (vector, scalar, full-text), list, statistics and drop.
 * Builds run to completion before returning, so a listed index is always ready.
 */
import { withCommitRetry } from "./commit-retry.js";
import type { Engine, TableRef } from "./engine.js";
import { EngineError } from "./engine-errors.js";
import { type NativeIndex, native } from "./lance-native.js";
import type * as Native from "lancedb-native-types";
import { inSpan } from "../tracing/spans.js";

/** Build parameters; absent ones take the engine's defaults. */
export interface IndexSpec {
  column: string;
  /** Upper-case type name (`BTREE`, `IVF_PQ`, …); `AUTO` lets the engine choose by column type. */
  indexType: string;
  name?: string;
  replace: boolean;
  distanceType?: string;
  numPartitions?: number;
  numSubVectors?: number;
  numBits?: number;
  sampleRate?: number;
  maxIterations?: number;
  m?: number;
  efConstruction?: number;
  withPosition?: boolean;
  baseTokenizer?: string;
  language?: string;
  maxTokenLength?: number;
  lowerCase?: boolean;
  stem?: boolean;
  removeStopWords?: boolean;
  asciiFolding?: boolean;
}

/** The index types this engine builds, by their spec names. */
export const indexTypes = ["AUTO", "BTREE", "BITMAP", "LABEL_LIST", "FTS", "INVERTED", "FM", "IVF_FLAT", "IVF_PQ", "IVF_RQ", "IVF_HNSW_SQ", "IVF_HNSW_PQ"] as const;

function nativeIndex(spec: IndexSpec): NativeIndex | null {
  const I = native().Index;
  const d = spec.distanceType?.toLowerCase() ?? null;
  const n = <T>(value: T | undefined): T | null => value ?? null;
  switch (spec.indexType) {
    case "AUTO":
      return null;
    case "BTREE":
      return I.btree();
    case "BITMAP":
      return I.bitmap();
    case "LABEL_LIST":
      return I.labelList();
    case "FM":
      return I.fm();
    case "FTS":
    case "INVERTED":
      return I.fts(n(spec.withPosition), n(spec.baseTokenizer), n(spec.language), n(spec.maxTokenLength), n(spec.lowerCase), n(spec.stem), n(spec.removeStopWords), null, n(spec.asciiFolding));
    case "IVF_FLAT":
      return I.ivfFlat(d, n(spec.numPartitions), n(spec.maxIterations), n(spec.sampleRate));
    case "IVF_PQ":
      return I.ivfPq(d, n(spec.numPartitions), n(spec.numSubVectors), n(spec.numBits), n(spec.maxIterations), n(spec.sampleRate));
    case "IVF_RQ":
      return I.ivfRq(d, n(spec.numPartitions), n(spec.numBits), n(spec.maxIterations), n(spec.sampleRate));
    case "IVF_HNSW_SQ":
      return I.hnswSq(d, n(spec.numPartitions), n(spec.maxIterations), n(spec.sampleRate), n(spec.m), n(spec.efConstruction));
    case "IVF_HNSW_PQ":
      return I.hnswPq(d, n(spec.numPartitions), n(spec.numSubVectors), n(spec.maxIterations), n(spec.sampleRate), n(spec.m), n(spec.efConstruction));
    default:
      throw new EngineError("invalid-input", `unknown index type ${spec.indexType}; expected one of ${indexTypes.join(", ")}`);
  }
}

/** Builds an index and returns the version that records it. */
function createIndex(engine: Engine, location: string, ref: TableRef, spec: IndexSpec): Promise<number> {
  return inSpan("engine.createIndex", { "quiver.table.location": location }, async () => {
    const index = nativeIndex(spec);
    return withCommitRetry(engine.commitAttempts, async () => {
      const table = await engine.openTable(location, ref);
      await engine.call(() => table.createIndex(index, spec.column, spec.replace, null, spec.name ?? null, null));
      return engine.call(() => table.version());
    });
  });
}

async function listIndices(engine: Engine, location: string, ref: TableRef): Promise<Native.IndexConfig[]> {
  const table = await engine.openTable(location, ref);
  return engine.call(() => table.listIndices());
}

/** Statistics of one index; throws `index-not-found` when there is none of that name. */
async function indexStatistics(engine: Engine, location: string, ref: TableRef, name: string): Promise<Native.IndexStatistics> {
  const table = await engine.openTable(location, ref);
  const stats = await engine.call(() => table.indexStats(name));
  if (!stats) throw new EngineError("index-not-found", `index ${name} not found`);
  return stats;
}

/** Loads index `name` into the engine's index cache, which later searches of the table share. */
async function prewarmIndex(engine: Engine, location: string, ref: TableRef, name: string): Promise<void> {
  const table = await engine.openTable(location, ref);
  await engine.call(() => table.prewarmIndex(name));
}

function dropIndex(engine: Engine, location: string, ref: TableRef, name: string): Promise<number> {
  return inSpan("engine.dropIndex", { "quiver.table.location": location }, async () => {
    return withCommitRetry(engine.commitAttempts, async () => {
      const table = await engine.openTable(location, ref);
      await engine.call(() => table.dropIndex(name));
      return engine.call(() => table.version());
    });
  });
}

/** Spec spelling of the engine's index type names: `IvfHnswSq` → `IVF_HNSW_SQ`, `BTree` → `BTREE`. */
export function specIndexType(engineName: string): string {
  const special: Record<string, string> = { BTree: "BTREE", LabelList: "LABEL_LIST", Fts: "FTS", FTS: "FTS" };
  if (special[engineName]) return special[engineName] as string;
  if (/^[A-Z0-9_]+$/.test(engineName)) return engineName;
  return engineName.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}

/** The indexes of one engine's tables. */
export class TableIndexes {
  constructor(private readonly engine: Engine) {}

  /** Builds the index `spec` describes; returns the version it committed. */
  create(location: string, ref: TableRef, spec: IndexSpec): Promise<number> {
    return createIndex(this.engine, location, ref, spec);
  }

  list(location: string, ref: TableRef): Promise<Native.IndexConfig[]> {
    return listIndices(this.engine, location, ref);
  }

  /** Statistics of one index; throws `index-not-found` when there is none of that name. */
  statistics(location: string, ref: TableRef, name: string): Promise<Native.IndexStatistics> {
    return indexStatistics(this.engine, location, ref, name);
  }

  /** Loads one index into the session's cache. */
  prewarm(location: string, ref: TableRef, name: string): Promise<void> {
    return prewarmIndex(this.engine, location, ref, name);
  }

  /** Drops one index; returns the version it committed. */
  drop(location: string, ref: TableRef, name: string): Promise<number> {
    return dropIndex(this.engine, location, ref, name);
  }
}
