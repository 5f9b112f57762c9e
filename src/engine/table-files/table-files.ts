/**
 * @module The files Lance keeps beside a table's data that Quiver reads and writes itself,
 * without a Lance call: manifests, the refs of tags and branches, and the properties a
 * deregistered table keeps. One entry over the runtime's storage.
 */
import type { Storages } from "../../storage/storages.js";
import { KeptProperties } from "./kept-properties.js";
import { ManifestFiles } from "./manifests.js";
import { RefFiles } from "./refs.js";

export class TableFiles {
  /** Manifests by branch: listing, checking and putting staged ones in place, removing them. */
  readonly manifests: ManifestFiles;
  /** Tags and branches as Lance's ref files record them. */
  readonly refs: RefFiles;
  /** The catalog properties a deregistered table keeps beside its files. */
  readonly properties: KeptProperties;

  constructor(storages: Storages) {
    this.manifests = new ManifestFiles(storages);
    this.refs = new RefFiles(storages);
    this.properties = new KeptProperties(storages);
  }
}

export type { ManifestFile, ManifestName, ManifestNamingScheme, PutOutcome, StagedManifestCheck } from "./manifests.js";
export type { BranchRef, TagRef } from "./refs.js";
export type { VersionOperation } from "./version-operations.js";
