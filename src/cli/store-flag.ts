/**
 * @module `--store URL` (env QUIVER_STORE), read the same way by `quiver serve`, `quiver migrate`
 * and the admin commands, so they all open the catalog the server uses.
 */
import { checkStoreUrl } from "../store/open-store.js";

export const storeFlagSpec = { store: { type: "string" } } as const;

/** The help lines of the admin commands' `--root` and `--store`. */
export const storeTargetUsage = `  --root DIR   the server's root folder, which holds its SQLite file (env QUIVER_ROOT, default ./data)
  --store URL  the PostgreSQL catalog the server uses instead (env QUIVER_STORE)`;

/** The store URL from the flag, else QUIVER_STORE; undefined for the SQLite file. Throws on a malformed URL. */
export function storeSetting(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const url = flag ?? (env.QUIVER_STORE || undefined);
  return url === undefined ? undefined : checkStoreUrl(url);
}
