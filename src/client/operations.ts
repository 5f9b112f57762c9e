/**
 * @module The client's operation table: one entry per spec operation, keyed by the camelCase
 * operation name, which is also the `Catalog` method `dir` calls and the `Namespace` method
 * users call. The entries live in one file per spec area; adding an operation to the client is
 * adding its entry there (see `operation-types.ts` for what an entry holds).
 */
import { dataOperations } from "./data-operations.js";
import { namespaceOperations } from "./namespace-operations.js";
import { schemaIndexOperations } from "./schema-index-operations.js";
import { tableOperations } from "./table-operations.js";
import { versionOperations } from "./version-operations.js";
import { viewOperations } from "./view-operations.js";

export const operations = {
  ...namespaceOperations,
  ...tableOperations,
  ...dataOperations,
  ...schemaIndexOperations,
  ...versionOperations,
  ...viewOperations,
};

export type Operations = typeof operations;
export type OperationName = keyof Operations;

/** Names of the operations whose path id is a table: the methods of an opened table. */
export type TableOperationName = {
  [K in OperationName]: Operations[K]["target"] extends "table" ? K : never;
}[OperationName];
