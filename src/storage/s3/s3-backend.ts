/**
 * @module The `s3://` backend: Amazon S3 and S3-compatible stores, configured with Lance's own
 * `aws_*` storage options, minting per-table credentials through STS when a vending role is set.
 */
import type { StorageBackend } from "../storage-backend.js";
import { s3MinterOf } from "./s3-credentials.js";
import { S3Storage } from "./s3-storage.js";

export const s3Backend: StorageBackend = {
  scheme: "s3",
  open: (options) => new S3Storage(options),
  minter: (options) => s3MinterOf(options),
};
