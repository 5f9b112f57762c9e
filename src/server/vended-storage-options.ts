/**
 * @module The `storage_options` answered with a table's location (DeclareTable, CreateTable,
 * DescribeTable): the table's own options and what is vended for the caller's role or grants
 * (docs/object-storage.md): a caller judged by its grants gets write credentials with INSERT,
 * UPDATE or DELETE on the table, read-only ones with SELECT alone, none without SELECT. The answer of a mutating one is kept for its `Idempotency-Key`
 * without them, and a replay gets them vended afresh: kept credentials would sit in the store and
 * its backups in clear, and would have run out by the time a retry comes.
 */
import type { FastifyRequest } from "fastify";
import { roleOn } from "../auth/principal.js";
import { roleAllows } from "../auth/roles.js";
import type { Catalog } from "../catalog/catalog.js";
import { tableVisible } from "../model/authz/operation-check.js";
import { type AuthzObject, type TableObject, hasObjectText } from "../model/authz/objects.js";
import type { OperationEntry } from "../model/operations/operation-entry.js";
import type { TableAccess } from "../model/table-access.js";
import { judgedGrantsOf, principalOf } from "./auth/auth-gate.js";
import type { AnswerSecrets } from "./idempotent-requests.js";
import { isCloudClientRequest } from "./cloud-client.js";

/** What vending needs of an operation's call. */
export interface VendingCall {
  catalog: Catalog;
  http: FastifyRequest;
  /** The catalog request; `vend_credentials: false` in it withholds credentials. */
  request: Record<string, unknown>;
  /** The table's identifier. */
  id: readonly string[];
  entry: OperationEntry;
}

type AnswerWithLocation = { location?: string; storage_options?: Record<string, string> };

/** What the caller may do with a table's objects itself: writers and admins write, readers read; by grants, see above. */
function tableAccessOf({ http, catalog, id, entry }: VendingCall): TableAccess | "none" {
  const grants = judgedGrantsOf(http);
  // Its creator is about to own the table (grant-lifecycle.ts), and fills it itself.
  if (grants !== undefined && entry.privilege.on === "parent") return "write";
  if (grants === undefined) {
    const principal = principalOf(http);
    const role = principal ? roleOn(principal, catalog.database.name) : undefined;
    return roleAllows(role, "write") ? "write" : "read";
  }
  const table: TableObject = { kind: "table", database: catalog.database.name, namespace: id.slice(0, -1), name: id[id.length - 1] ?? "" };
  if (!hasObjectText(table) || !tableVisible(grants, table)) return "none";
  const view: AuthzObject = { ...table, kind: "view" };
  const holds = (privilege: "SELECT" | "INSERT" | "UPDATE" | "DELETE") => grants.allows(privilege, table) || grants.allows(privilege, view);
  if (!holds("SELECT")) return "none";
  return holds("INSERT") || holds("UPDATE") || holds("DELETE") ? "write" : "read";
}

/**
 * Whether to vend: the request's `vend_credentials`; never to a caller without SELECT on the
 * table, nor to the LanceDB client in managed-deployment mode, which reads and writes only
 * through the server: credentials it would not use would only make every replica's reads of the
 * table look at the store until they expire (docs/read-freshness.md).
 */
function vendCredentialsOf(call: VendingCall, access: TableAccess | "none"): boolean | null | undefined {
  if (access === "none" || isCloudClientRequest(call.http)) return false;
  return (call.request as { vend_credentials?: boolean | null }).vend_credentials;
}

/** `answer` with what the caller needs to open the table itself. */
export async function withClientStorageOptions<T extends AnswerWithLocation>(call: VendingCall, answer: T): Promise<T> {
  const access = tableAccessOf(call);
  return { ...answer, storage_options: await call.catalog.storageOptionsForClient(answer, access === "none" ? "read" : access, vendCredentialsOf(call, access)) };
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
      const access = tableAccessOf(call);
      return { ...kept, storage_options: await call.catalog.storageOptionsForTableAt(kept.location, access === "none" ? "read" : access, vendCredentialsOf(call, access)) };
    },
  };
}
