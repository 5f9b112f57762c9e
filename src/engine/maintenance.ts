/**
 * @module Table maintenance through the binding's one maintenance call. It runs three steps in
 * one pass, which the binding offers no way to run apart: it compacts small fragments into
 * larger ones, removes the versions older than a cutoff (never the latest, never a branch's
 * base; it refuses when a tagged version would be removed), and brings indexes up to date with
 * the rows added since they were built. A cutoff of 0 removes nothing.
 */
import type { Engine } from "./engine.js";
import { withCommitRetry } from "./commit-retry.js";
import { inSpan } from "../tracing/spans.js";

export interface MaintenanceOutcome {
  /** The table's version after the pass. */
  version: number;
  fragmentsBefore: number;
  fragmentsAfter: number;
  fragmentsRemoved: number;
  fragmentsAdded: number;
  filesRemoved: number;
  filesAdded: number;
  versionsRemoved: number;
  bytesRemoved: number;
}

/** A version of the main branch with when it was committed. */
export interface VersionTime {
  version: number;
  timestampMs: number;
}

/**
 * Runs the pass on the main branch of the table at `location`, removing versions committed before
 * `removeBeforeMs` (epoch milliseconds; 0 keeps every version).
 */
function maintainTable(engine: Engine, location: string, removeBeforeMs: number, deleteUnverified = false): Promise<MaintenanceOutcome> {
  return inSpan("engine.maintain", { "quiver.table.location": location }, async () => {
    return withCommitRetry(engine.commitAttempts, async () => {
      const table = await engine.openTable(location);
      const before = await engine.call(() => table.stats());
      const stats = await engine.call(() => table.optimize(removeBeforeMs, deleteUnverified));
      const [after, version] = await engine.call(() => Promise.all([table.stats(), table.version()]));
      return {
        version,
        fragmentsBefore: before.fragmentStats.numFragments,
        fragmentsAfter: after.fragmentStats.numFragments,
        fragmentsRemoved: stats.compaction.fragmentsRemoved,
        fragmentsAdded: stats.compaction.fragmentsAdded,
        filesRemoved: stats.compaction.filesRemoved,
        filesAdded: stats.compaction.filesAdded,
        versionsRemoved: stats.prune.oldVersionsRemoved,
        bytesRemoved: stats.prune.bytesRemoved,
      };
    });
  });
}

/** The main branch's versions with their commit times (the binding reports microseconds). */
async function versionTimes(engine: Engine, location: string): Promise<VersionTime[]> {
  const table = await engine.openTable(location);
  const versions = await engine.call(() => table.listVersions());
  return versions.map((v) => ({ version: v.version, timestampMs: Math.floor(Number(v.timestamp) / 1000) }));
}

/** Compaction and cleanup of one engine's tables. */
export class TableMaintenance {
  constructor(private readonly engine: Engine) {}

  /** Compacts the table and removes versions older than `removeBeforeMs` (see `maintainTable`). */
  run(location: string, removeBeforeMs: number, deleteUnverified = false): Promise<MaintenanceOutcome> {
    return maintainTable(this.engine, location, removeBeforeMs, deleteUnverified);
  }

  /** When each version of the table was committed. */
  versionTimes(location: string): Promise<VersionTime[]> {
    return versionTimes(this.engine, location);
  }
}
