/** @module The `s3://` backend as Quiver sees it before loading the AWS SDK: its secret keys and what it can do. */
import { objectStoreCapabilities } from "../object-store-capabilities.js";
import type { BackendDescriptor } from "../storage-backend.js";

/** Keys Quiver reads for itself from `s3://` options; Lance does not know them. */
export const s3QuiverKeys = {
  /** The IAM role whose session credentials Quiver vends for `s3://` tables. */
  vendingRole: "quiver_s3_vending_role_arn",
  /** The STS endpoint Quiver calls to assume that role (default: the region's). */
  stsEndpoint: "quiver_s3_sts_endpoint",
} as const;

export const s3Descriptor: BackendDescriptor = {
  scheme: "s3",
  secretKeys: ["aws_access_key_id", "access_key_id", "aws_secret_access_key", "secret_access_key", "aws_session_token", "session_token", "aws_token", "token"],
  quiverKeys: Object.values(s3QuiverKeys),
  // Many S3-compatible stores accept `If-None-Match: *` and ignore it.
  capabilities: objectStoreCapabilities,
  load: async () => (await import("./s3-backend.js")).s3Backend,
};
