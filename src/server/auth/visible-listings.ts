/**
 * @module Listings show a caller only what it may see. A caller whose role on the database
 * reads it sees everything; any other sees the namespaces it holds USAGE on and the tables it
 * holds a privilege on (model/authz/effective-grants.ts `visible`). Pages are filtered after they
 * are cut, so a page may come back shorter than asked, with its token still leading on.
 */
import type { EffectiveGrants } from "../../model/authz/effective-grants.js";
import { tableVisible } from "../../model/authz/operation-check.js";
import { type NamespaceObject, type TableObject, hasObjectText } from "../../model/authz/objects.js";
import type { OperationEntry } from "../../model/operations/operation-entry.js";
import { delimiterOf } from "../identifiers.js";
import type { CatalogCall } from "../services.js";

type Listing = { namespaces?: string[]; tables?: string[] };

/** The operations whose answers list objects, and how each names one. */
const listings: Record<string, (grants: EffectiveGrants, database: string, call: CatalogCall, listed: Listing) => Listing> = {
  ListNamespaces: (grants, database, { id }, listed) => ({ ...listed, namespaces: (listed.namespaces ?? []).filter((name) => shownNamespace(grants, { kind: "namespace", database, namespace: [...id, name] })) }),
  ListTables: (grants, database, { id }, listed) => ({ ...listed, tables: (listed.tables ?? []).filter((name) => shownTable(grants, database, [...id, name])) }),
  ListAllTables: allTables,
  ListTablesExtended: allTables,
};

/** Whether an operation's answer is a listing to filter. */
export function isListing(operation: OperationEntry): boolean {
  return operation.operationId in listings;
}

/** The listing `answer` with only what `grants` let the caller see. */
export function visibleListing(grants: EffectiveGrants, database: string, operation: OperationEntry, call: CatalogCall, answer: unknown): unknown {
  const filter = listings[operation.operationId];
  return filter ? filter(grants, database, call, answer as Listing) : answer;
}

/** Full identifiers joined with the request's delimiter; a name holding the delimiter splits as it would on the client. */
function allTables(grants: EffectiveGrants, database: string, { request }: CatalogCall, listed: Listing): Listing {
  const delimiter = delimiterOf(request);
  return { ...listed, tables: (listed.tables ?? []).filter((joined) => shownTable(grants, database, joined.split(delimiter))) };
}

function shownTable(grants: EffectiveGrants, database: string, id: readonly string[]): boolean {
  const table: TableObject = { kind: "table", database, namespace: id.slice(0, -1), name: id[id.length - 1] as string };
  return hasObjectText(table) ? tableVisible(grants, table) : grants.holds("SELECT", { kind: "database", database });
}

/** A namespace the caller holds USAGE on; one with no authorization text is covered by database grants only. */
function shownNamespace(grants: EffectiveGrants, namespace: NamespaceObject): boolean {
  return hasObjectText(namespace) ? grants.visible(namespace) : grants.holds("SELECT", { kind: "database", database: namespace.database });
}
