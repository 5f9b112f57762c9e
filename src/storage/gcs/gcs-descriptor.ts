/** @module The `gs://` backend as Quiver sees it before loading the Cloud Storage SDK: its secret keys and what it can do. */
import { objectStoreCapabilities } from "../object-store-capabilities.js";
import type { BackendDescriptor } from "../storage-backend.js";

/** Keys Quiver reads for itself from `gs://` options; Lance does not know them. */
export const gcsQuiverKeys = {
  /** The STS endpoint Quiver calls to downscope `gs://` credentials (default Google's). */
  stsEndpoint: "quiver_gcs_sts_endpoint",
} as const;

export const gcsDescriptor: BackendDescriptor = {
  scheme: "gs",
  secretKeys: [
    "google_service_account",
    "google_service_account_path",
    "service_account",
    "service_account_path",
    "google_service_account_key",
    "service_account_key",
    "google_application_credentials",
    "google_storage_token",
  ],
  quiverKeys: Object.values(gcsQuiverKeys),
  // `google_base_url` may name an emulator or a gateway rather than Cloud Storage itself.
  capabilities: objectStoreCapabilities,
  load: async () => (await import("./gcs-backend.js")).gcsBackend,
};
