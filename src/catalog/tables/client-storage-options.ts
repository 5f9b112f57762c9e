/**
 * @module The `storage_options` a client receives with a table's location (declare, create,
 * describe), so that it can open the table's objects itself: the table's own options, then what
 * the storage layer vends for the caller's access. Only `vend_credentials: false` withholds
 * credentials: the LanceDB namespace client's first call does not send the field at all.
 */
import { CatalogError } from "../../model/catalog-error.js";
import type { TableAccess } from "../../model/table-access.js";
import { clientStorageOptions, defaultVending } from "../../storage/storage-for.js";
import type { StorageOptions } from "../../storage/storage-options.js";
import type { CatalogScope } from "../catalog-scope.js";

export async function storageOptionsForClient(
  scope: CatalogScope,
  answer: { location?: string; storage_options?: StorageOptions },
  access: TableAccess,
  vendCredentials: boolean | null | undefined,
): Promise<StorageOptions> {
  const own = answer.storage_options ?? {};
  if (!answer.location) return own;
  const vending = scope.vending ?? defaultVending;
  try {
    const vended = await clientStorageOptions(answer.location, access, vendCredentials === false ? { ...vending, mode: "none" } : vending);
    return { ...own, ...vended };
  } catch (error) {
    // A provider that cannot mint right now (STS down, throttled) is not the client's mistake.
    throw CatalogError.of("ServiceUnavailable", `credentials for the table could not be issued: ${(error as Error).message}`, { cause: error });
  }
}
