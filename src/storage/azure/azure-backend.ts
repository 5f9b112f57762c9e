/** @module The `az://` backend: tables on Azure Blob Storage, and SAS tokens scoped to one table. */
import type { StorageBackend } from "../storage-backend.js";
import { azureCredentialMinterOf } from "./azure-credentials.js";
import { AzureStorage } from "./azure-storage.js";

export const azureBackend: StorageBackend = {
  scheme: "az",
  open: (options) => new AzureStorage(options),
  minter: (options) => azureCredentialMinterOf(options),
};
