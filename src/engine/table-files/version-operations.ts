/**
 * @module What made a version: Lance writes, beside each manifest, a transaction file naming the
 * operation that committed it (append, delete, update, restore, index, compaction, …). The
 * manifest names its transaction file; both are protobuf messages, of which only a few top-level
 * fields are read here, by hand, so no protobuf library or Lance call is needed. Whoever wrote the
 * version (this server, a Python or Rust client) left the same record.
 */
import type { Storages } from "../../storage/storages.js";
import { fieldsOf, manifestMessage } from "./lance-proto.js";

/** The operation behind a version, and a short detail where Lance records one cheaply. */
export interface VersionOperation {
  operation: string;
  detail?: string;
}

/** Lance's `Transaction.operation` oneof: field number → the operation's name. */
const operationNames: Record<number, string> = {
  100: "Append",
  101: "Delete",
  102: "Overwrite",
  103: "CreateIndex",
  104: "Rewrite",
  105: "Merge",
  106: "Restore",
  107: "ReserveFragments",
  108: "Update",
  109: "Project",
  110: "UpdateConfig",
  111: "DataReplacement",
  112: "UpdateMemWalState",
  113: "Clone",
  114: "UpdateBases",
};

/** `Manifest.transaction_file`: the transaction's file name under `_transactions/`. */
const manifestTransactionFile = 12;
/** `Restore.version` and `Delete.predicate`, the details worth showing. */
const restoreVersion = 1;
const deletePredicate = 3;
function detailOf(operation: string, message: Buffer): string | undefined {
  const fields = fieldsOf(message);
  if (operation === "Restore") {
    const version = fields.find((field) => field.number === restoreVersion)?.value;
    return typeof version === "bigint" ? `version ${version}` : undefined;
  }
  if (operation === "Delete") {
    const predicate = fields.find((field) => field.number === deletePredicate)?.value;
    return Buffer.isBuffer(predicate) && predicate.length > 0 ? predicate.toString("utf8") : undefined;
  }
  return undefined;
}

/** The directory holding a manifest's `_versions/` folder: the dataset (or branch) root. */
function datasetRootOf(manifestPath: string): string {
  const versions = manifestPath.slice(0, manifestPath.lastIndexOf("/"));
  return versions.slice(0, versions.lastIndexOf("/"));
}

/**
 * The operation that committed the version whose manifest is at `manifestPath`, or undefined
 * when the manifest names no transaction (versions written before Lance kept them) or either
 * file cannot be read or decoded: the operation is a description, never worth failing a listing.
 */
export async function readVersionOperation(storages: Storages, manifestPath: string): Promise<VersionOperation | undefined> {
  try {
    const manifest = await storages.for(manifestPath).read(manifestPath);
    if (!manifest) return undefined;
    const name = fieldsOf(manifestMessage(manifest)).find((field) => field.number === manifestTransactionFile)?.value;
    if (!Buffer.isBuffer(name) || name.length === 0) return undefined;
    const transactionPath = `${datasetRootOf(manifestPath)}/_transactions/${name.toString("utf8")}`;
    const transaction = await storages.for(transactionPath).read(transactionPath);
    if (!transaction) return undefined;
    for (const field of fieldsOf(transaction)) {
      const operation = operationNames[field.number];
      if (!operation) continue;
      const detail = Buffer.isBuffer(field.value) ? detailOf(operation, field.value) : undefined;
      return detail === undefined ? { operation } : { operation, detail };
    }
    return undefined;
  } catch {
    return undefined;
  }
}
