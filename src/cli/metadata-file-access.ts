/**
 * @module Keeps the metadata store readable by its owner only: it holds the secret that signs
 * access tokens, so anyone who could read it could mint one.
 */
import { chmodSync } from "node:fs";
import path from "node:path";
import { metadataFileName } from "../catalog/runtime/local-root.js";

/** Restricts the SQLite file of `root` and its WAL and shared-memory files to their owner. */
export function restrictMetadataFileAccess(root: string): void {
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      chmodSync(path.join(root, metadataFileName + suffix), 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}
