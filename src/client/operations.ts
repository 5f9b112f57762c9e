/**
 * @module The client's operations: every entry of the operation table (`model/operations/`)
 * not marked `client: false`. An entry's key is the `Catalog` method `dir` calls and the
 * `Namespace` method users call.
 */
import { type OperationEntry, type Operations as AllOperations, operations as allOperations } from "../model/operations/index.js";

export type Operations = { [K in keyof AllOperations as AllOperations[K] extends { client: false } ? never : K]: AllOperations[K] };
export type OperationName = keyof Operations;

const entries: [string, OperationEntry][] = Object.entries(allOperations);
export const operations = Object.fromEntries(entries.filter(([, entry]) => entry.client !== false)) as unknown as Operations;

/** Names of the operations whose path id is a table: the methods of an opened table. */
export type TableOperationName = {
  [K in OperationName]: Operations[K]["target"] extends "table" ? K : never;
}[OperationName];
