/**
 * @module The operation table: one entry per catalog operation, keyed by its camelCase name,
 * which is also the `Catalog` method and the client's `Namespace` method. The server routes,
 * validates, authorizes and documents every entry; the client carries every entry not marked
 * `client: false`. Entries live in one file per spec area; see `operation-entry.ts` for what an
 * entry holds.
 */
import { blobOperations } from "./blob-operations.js";
import { dataOperations } from "./data-operations.js";
import { maintenanceOperations } from "./maintenance-operations.js";
import { namespaceOperations } from "./namespace-operations.js";
import { queryOperations } from "./query-operations.js";
import { schemaIndexOperations } from "./schema-index-operations.js";
import { tableOperations } from "./table-operations.js";
import { tagBranchOperations } from "./tag-branch-operations.js";
import { transactionOperations } from "./transaction-operations.js";
import { versionOperations } from "./version-operations.js";
import { viewJobOperations } from "./view-job-operations.js";

export const operations = {
  ...namespaceOperations,
  ...tableOperations,
  ...dataOperations,
  ...queryOperations,
  ...blobOperations,
  ...schemaIndexOperations,
  ...versionOperations,
  ...tagBranchOperations,
  ...transactionOperations,
  ...viewJobOperations,
  ...maintenanceOperations,
};

export type Operations = typeof operations;
export type OperationName = keyof Operations;

export * from "./operation-entry.js";
