/**
 * @module Changes to tags and branches, made by Lance itself through the native binding.
 */
import type { BranchName, TagName } from "../model/path-names.js";
import type { Engine } from "./engine.js";

/** Creates `tag` at `version` of `branch` (null = main); Lance checks the version exists. */
async function createTag(engine: Engine, location: string, tag: TagName, version: number, branch: BranchName | null): Promise<void> {
  const table = await engine.openTable(location, { branch });
  const tags = await engine.call(() => table.tags());
  await engine.call(() => tags.create(tag, version));
}

/** Re-points `tag` at `version` of `branch` (null = main). */
async function updateTag(engine: Engine, location: string, tag: TagName, version: number, branch: BranchName | null): Promise<void> {
  const table = await engine.openTable(location, { branch });
  const tags = await engine.call(() => table.tags());
  await engine.call(() => tags.update(tag, version));
}

async function deleteTag(engine: Engine, location: string, tag: TagName): Promise<void> {
  const table = await engine.openTable(location);
  const tags = await engine.call(() => table.tags());
  await engine.call(() => tags.delete(tag));
}

/** Forks `name` from `fromBranch` (null = main) at `fromVersion` (null = its latest). */
async function createBranch(
  engine: Engine,
  location: string,
  name: BranchName,
  fromBranch: BranchName | null,
  fromVersion: number | null,
): Promise<void> {
  const table = await engine.openTable(location);
  const branches = await engine.call(() => table.branches());
  await engine.call(() => branches.create(name, fromBranch, fromVersion));
}

/** Deletes a branch with its manifests; Lance refuses while tags point into it. */
async function deleteBranch(engine: Engine, location: string, name: BranchName): Promise<void> {
  const table = await engine.openTable(location);
  const branches = await engine.call(() => table.branches());
  await engine.call(() => branches.delete(name));
}

/** Changes to one engine's tags and branches, made by Lance; the ref files are read through `TableFiles`. */
export class RefChanges {
  constructor(private readonly engine: Engine) {}

  /** Creates `tag` at `version` of `branch` (null = main); Lance checks the version exists. */
  createTag(location: string, tag: TagName, version: number, branch: BranchName | null): Promise<void> {
    return createTag(this.engine, location, tag, version, branch);
  }

  /** Re-points `tag` at `version` of `branch` (null = main). */
  updateTag(location: string, tag: TagName, version: number, branch: BranchName | null): Promise<void> {
    return updateTag(this.engine, location, tag, version, branch);
  }

  deleteTag(location: string, tag: TagName): Promise<void> {
    return deleteTag(this.engine, location, tag);
  }

  /** Forks `name` from `fromBranch` (null = main) at `fromVersion` (null = its latest). */
  createBranch(location: string, name: BranchName, fromBranch: BranchName | null, fromVersion: number | null): Promise<void> {
    return createBranch(this.engine, location, name, fromBranch, fromVersion);
  }

  /** Deletes a branch with its manifests; Lance refuses while tags point into it. */
  deleteBranch(location: string, name: BranchName): Promise<void> {
    return deleteBranch(this.engine, location, name);
  }
}
