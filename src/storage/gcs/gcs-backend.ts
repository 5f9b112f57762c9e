/** @module The `gs://` backend: tables on Google Cloud Storage, and downscoped tokens for one table. */
import type { StorageBackend } from "../storage-backend.js";
import { gcsCredentialMinterOf } from "./gcs-credentials.js";
import { GcsStorage } from "./gcs-storage.js";

export const gcsBackend: StorageBackend = {
  scheme: "gs",
  open: (options) => new GcsStorage(options),
  minter: (options) => gcsCredentialMinterOf(options),
};
