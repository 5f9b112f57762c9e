/**
 * @module Grants follow the objects they are on. Whoever creates a table, view or namespace owns
 * it (OWNERSHIP on it, taken from any earlier holder); a renamed table keeps its grants under its
 * new name; a dropped table or namespace leaves none behind, so a later one of the same name
 * starts with none. An operation that creates declares `on: "parent"` in the operation table.
 */
import type { AuthStore } from "../../auth/auth-store.js";
import { principalSubject } from "../../auth/access-directory.js";
import type { Principal } from "../../auth/principal.js";
import { type AuthzObject, formatObject } from "../../model/authz/objects.js";
import type { OperationEntry } from "../../model/operations/operation-entry.js";
import type { CatalogCall } from "../services.js";

/** Operations that remove the table or namespace `{id}` names. */
const removals = new Set(["DropTable", "DeregisterTable", "DropNamespace"]);

/** The identifier a RenameTable moves its table to, or undefined for any other operation. */
export function renameDestination(operation: OperationEntry, { id, request }: CatalogCall): string[] | undefined {
  if (operation.operationId !== "RenameTable") return undefined;
  const namespace = (request.new_namespace_id ?? request.new_namespace ?? id.slice(0, -1)) as readonly string[];
  return [...namespace, String(request.new_table_name)];
}

/** Whether an operation creates, renames or removes what grants are on: most do neither. */
function changesObjects(operation: OperationEntry): boolean {
  return operation.privilege.on === "parent" || removals.has(operation.operationId) || operation.operationId === "RenameTable";
}

export async function followObjectChange(store: AuthStore, principal: Principal, database: string, operation: OperationEntry, call: CatalogCall): Promise<void> {
  if (!changesObjects(operation)) return;
  const named = objectText(operation, database, call.id);
  if (named === undefined) return;
  if (operation.privilege.on === "parent") {
    if (principal.kind !== "anonymous") await store.recordOwner(named, principalSubject(principal), principal.subject);
    return;
  }
  if (removals.has(operation.operationId)) {
    const below = operation.target === "namespace" ? ["namespace", "table", "view"].map((kind) => `${kind}:${named.slice(named.indexOf(":") + 1)}$`) : [];
    await store.forgetGrants(operation.target === "table" ? [named, `view:${named.slice("table:".length)}`] : [named], below);
    return;
  }
  const destination = renameDestination(operation, call);
  if (destination) {
    const moved = objectText(operation, database, destination);
    if (moved !== undefined) await store.moveGrants(named, moved);
  }
}

/** The object text of the table or namespace `id` names, or undefined when it has none. */
function objectText(operation: OperationEntry, database: string, id: readonly string[]): string | undefined {
  if (operation.target === "none" || (operation.target === "table" && id.length === 0)) return undefined;
  const object: AuthzObject =
    operation.target === "table" ? { kind: "table", database, namespace: id.slice(0, -1), name: id[id.length - 1] as string } : { kind: "namespace", database, namespace: [...id] };
  try {
    return formatObject(object);
  } catch {
    return undefined;
  }
}
