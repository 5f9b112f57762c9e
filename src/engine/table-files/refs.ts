/**
 * @module Lance's refs, read from the files Lance keeps them in (`_refs/tags/<name>.json`,
 * `_refs/branches/<name>.json`). The native binding's list calls drop the tag's branch and the
 * branch's creation time, which clients need, so listings read the files directly; every change
 * still goes through Lance.
 */
import { joinLocation } from "../../storage/locations.js";
import type { Storages } from "../../storage/storages.js";
import { type BranchName, type TagName, isPathName } from "../../model/path-names.js";

type RefKind = "tags" | "branches";

export interface TagRef {
  name: string;
  version: number;
  /** null for the main branch. */
  branch: string | null;
  manifestSize: number;
}

export interface BranchRef {
  name: string;
  parentBranch: string | null;
  parentVersion: number;
  /** Unix seconds. */
  createAt: number;
  manifestSize: number;
  metadata: Record<string, string>;
}

function refsDirectory(location: string, kind: RefKind): string {
  return joinLocation(location, "_refs", kind);
}

async function readRef(storages: Storages, location: string, kind: RefKind, name: TagName | BranchName): Promise<Record<string, unknown> | undefined> {
  const file = joinLocation(refsDirectory(location, kind), `${name}.json`);
  const bytes = await storages.for(file).read(file);
  return bytes && (JSON.parse(bytes.toString("utf8")) as Record<string, unknown>);
}

/** The refs a listing holds; a file whose name is no valid ref name (not one Lance wrote for Quiver) is skipped. */
async function refNames(storages: Storages, location: string, kind: RefKind): Promise<Array<TagName | BranchName>> {
  const directory = refsDirectory(location, kind);
  const entries = await storages.for(directory).list(directory);
  return entries
    .filter((entry) => entry.kind === "object" && entry.name.endsWith(".json"))
    .map((entry) => entry.name.slice(0, -".json".length))
    .filter((name): name is TagName | BranchName => isPathName(kind === "tags" ? "tag" : "branch", name))
    .sort();
}

function toTag(name: string, json: Record<string, unknown>): TagRef {
  return {
    name,
    version: Number(json.version),
    branch: typeof json.branch === "string" && json.branch !== "" ? json.branch : null,
    manifestSize: Number(json.manifestSize ?? 0),
  };
}

function toBranch(name: string, json: Record<string, unknown>): BranchRef {
  const metadata = json.metadata && typeof json.metadata === "object" ? (json.metadata as Record<string, string>) : {};
  return {
    name,
    parentBranch: typeof json.parentBranch === "string" && json.parentBranch !== "" ? json.parentBranch : null,
    parentVersion: Number(json.parentVersion ?? 0),
    createAt: Number(json.createAt ?? 0),
    manifestSize: Number(json.manifestSize ?? 0),
    metadata,
  };
}

/** The tags and branches of tables, read from their ref files through the runtime's storage. */
export class RefFiles {
  constructor(private readonly storages: Storages) {}

  /** One tag, or undefined. */
  tag(location: string, name: TagName): Promise<TagRef | undefined> {
    return this.one(location, "tags", name, toTag);
  }

  /** Every tag of the table, by name. */
  tags(location: string): Promise<TagRef[]> {
    return this.all(location, "tags", toTag);
  }

  /** One branch, or undefined. */
  branch(location: string, name: BranchName): Promise<BranchRef | undefined> {
    return this.one(location, "branches", name, toBranch);
  }

  /** Every branch of the table, by name. */
  branches(location: string): Promise<BranchRef[]> {
    return this.all(location, "branches", toBranch);
  }

  private async one<R>(location: string, kind: RefKind, name: TagName | BranchName, parse: (name: string, json: Record<string, unknown>) => R): Promise<R | undefined> {
    const json = await readRef(this.storages, location, kind, name);
    return json ? parse(name, json) : undefined;
  }

  private async all<R>(location: string, kind: RefKind, parse: (name: string, json: Record<string, unknown>) => R): Promise<R[]> {
    // Read at once: on an object store each ref is a round trip.
    const refs = await Promise.all((await refNames(this.storages, location, kind)).map((name) => this.one(location, kind, name, parse)));
    return refs.filter((ref): ref is Awaited<R> => ref !== undefined);
  }
}
