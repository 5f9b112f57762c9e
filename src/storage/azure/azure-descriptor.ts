/** @module The `az://` backend as Quiver sees it before loading the Azure SDK: its secret keys and what it can do. */
import { objectStoreCapabilities } from "../object-store-capabilities.js";
import type { BackendDescriptor } from "../storage-backend.js";

export const azureDescriptor: BackendDescriptor = {
  scheme: "az",
  secretKeys: [
    "azure_storage_account_key",
    "azure_storage_access_key",
    "azure_storage_master_key",
    "access_key",
    "account_key",
    "master_key",
    "azure_storage_sas_token",
    "azure_storage_sas_key",
    "sas_token",
    "sas_key",
    "azure_storage_token",
    "bearer_token",
    "azure_client_secret",
    "azure_storage_client_secret",
    "client_secret",
  ],
  quiverKeys: [],
  // `azure_endpoint` may name an emulator or a gateway rather than Azure itself.
  capabilities: objectStoreCapabilities,
  load: async () => (await import("./azure-backend.js")).azureBackend,
};
