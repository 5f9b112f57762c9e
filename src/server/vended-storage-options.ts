/**
 * @module The `storage_options` answered with a table's location (DeclareTable, CreateTable,
 * DescribeTable): the table's own options and what is vended for the caller's role
 * (docs/object-storage.md). The answer of a mutating one is kept for its `Idempotency-Key`
 * without them, and a replay gets them vended afresh: kept credentials would sit in the store and
 * its backups in clear, and would have run out by the time a retry comes.
 */
import type { FastifyRequest } from "fastify";
import { roleOn } from "../auth/principal.js";
import { roleAllows } from "../auth/roles.js";
import type { Catalog } from "../catalog/catalog.js";
import type { TableAccess } from "../model/table-access.js";
import { principalOf } from "./auth/auth-gate.js";
import type { AnswerSecrets } from "./idempotent-requests.js";

/** What vending needs of an operation's call. */
export interface VendingCall {
  catalog: Catalog;
  http: FastifyRequest;
  /** The catalog request; `vend_credentials: false` in it withholds credentials. */
  request: Record<string, unknown>;
}

type AnswerWithLocation = { location?: string; storage_options?: Record<string, string> };

/** What the caller may do with a table's objects itself: writers and admins write, readers read. */
function tableAccessOf({ http, catalog }: VendingCall): TableAccess {
  const principal = principalOf(http);
  const role = principal ? roleOn(principal, catalog.database.name) : undefined;
  return roleAllows(role, "write") ? "write" : "read";
}

function vendCredentialsOf({ request }: VendingCall): boolean | null | undefined {
  return (request as { vend_credentials?: boolean | null }).vend_credentials;
}

/** `answer` with what the caller needs to open the table itself. */
export async function withClientStorageOptions<T extends AnswerWithLocation>(call: VendingCall, answer: T): Promise<T> {
  return { ...answer, storage_options: await call.catalog.storageOptionsForClient(answer, tableAccessOf(call), vendCredentialsOf(call)) };
}

/**
 * An answer carrying `storage_options` is kept with an empty map in their place (the table's own
 * options too: the table's row holds those), so that a replay answers the fields in their first
 * order; the replay asks the catalog for the options of the table at the answer's location,
 * vended for the caller's role at the time of the retry.
 */
export function storageOptionsVendedAgain(call: VendingCall): AnswerSecrets {
  return {
    kept: (sent) => ("storage_options" in sent ? { ...sent, storage_options: {} } : sent),
    replayed: async (kept) => {
      if (typeof kept.location !== "string") return kept;
      return { ...kept, storage_options: await call.catalog.storageOptionsForTableAt(kept.location, tableAccessOf(call), vendCredentialsOf(call)) };
    },
  };
}
