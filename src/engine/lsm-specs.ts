/**
 * @module The LSM write spec (Lance's MemWAL write path) another writer may have installed on a
 * table. Quiver serves no LSM writes: it reads the spec to report it, and to refuse a merge insert
 * that Lance would otherwise route through that path.
 */
import type { Engine, TableRef } from "./engine.js";
import { EngineError } from "./engine-errors.js";
import type { NativeTable } from "./lance-native.js";

export interface LsmWriteSpec {
  mode: "bucket" | "identity" | "unsharded";
  column?: string | undefined;
  numBuckets?: number | undefined;
  maintainedIndexes: string[];
  writerConfigDefaults: Record<string, string>;
}

/** The spec installed on `table`'s version, or null. It lives in the manifest's index section, which opening the table already read. */
export async function lsmWriteSpecOf(engine: Engine, table: NativeTable): Promise<LsmWriteSpec | null> {
  const spec = await engine.call(() => table.getLsmWriteSpec());
  if (!spec) return null;
  return {
    mode: spec.specType as LsmWriteSpec["mode"],
    column: spec.column,
    numBuckets: spec.numBuckets,
    maintainedIndexes: spec.maintainedIndexes ?? [],
    writerConfigDefaults: spec.writerConfigDefaults ?? {},
  };
}

/** How a spec reads in a sentence: `bucket sharding on 'id' (16 buckets)`. */
export function describeLsmWriteSpec(spec: LsmWriteSpec): string {
  const column = spec.column === undefined ? "" : ` on '${spec.column}'`;
  const buckets = spec.numBuckets === undefined ? "" : ` (${spec.numBuckets} buckets)`;
  return `${spec.mode} sharding${column}${buckets}`;
}

/** Throws EngineError "invalid-state" when `table` has an LSM write spec: its merge inserts would take the LSM path. */
export async function refuseLsmWrites(engine: Engine, table: NativeTable): Promise<void> {
  const spec = await lsmWriteSpecOf(engine, table);
  if (!spec) return;
  throw new EngineError(
    "invalid-state",
    `the table has an LSM write spec (${describeLsmWriteSpec(spec)}) installed by another writer; this server does not write through the LSM path, so merge inserts go through that writer until the spec is removed`,
  );
}

/** LSM reads of one engine. */
export class TableLsm {
  constructor(private readonly engine: Engine) {}

  /** The LSM write spec of the newest version of `ref`'s branch, or null. */
  async writeSpec(location: string, ref: TableRef): Promise<LsmWriteSpec | null> {
    return lsmWriteSpecOf(this.engine, await this.engine.readTable(location, ref));
  }
}
