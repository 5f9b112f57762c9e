/**
 * @module Which database (tenant) a request addresses (service description: Authentication §3): the
 * `x-svc-database` header (or the LanceDB client's `x-lancedb-database`), else the first label of
 * the Host name when it names a database. `x-svc-database-prefix` (`x-lancedb-database-prefix`)
 * picks one of several databases behind one endpoint: `<base>.<prefix>` when a base is named by
 * header or Host, else the prefix alone. A request naming no database goes to the caller's
 * own database when its credentials are confined to one; a single-database deployment serves
 * its database to every request, so names in client URLs (`db://demo`) need no setup. Otherwise
 * it goes to the database named `default` when there is one, so clients that send no database
 * header keep working after more databases are created.
 */
import type { FastifyRequest } from "fastify";
import { CatalogError } from "../model/catalog-error.js";
import type { Catalog } from "../catalog/catalog.js";
import { type CatalogRegistry, defaultDatabaseName } from "../catalog/runtime/database-registry.js";

export const databaseHeaders = ["x-svc-database", "x-lancedb-database"] as const;
export const databasePrefixHeaders = ["x-svc-database-prefix", "x-lancedb-database-prefix"] as const;

function headerValue(request: FastifyRequest, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = request.headers[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (text && text.trim() !== "") return text.trim();
  }
  return undefined;
}

/** The database name a request asks for by header, if it names one. */
export function requestedDatabase(request: FastifyRequest): string | undefined {
  const named = headerValue(request, databaseHeaders);
  const prefix = headerValue(request, databasePrefixHeaders);
  if (!prefix) return named;
  const base = named ?? hostLabel(request);
  return base ? `${base}.${prefix}` : prefix;
}

function hostLabel(request: FastifyRequest): string | undefined {
  const host = request.hostname.split(":")[0] ?? "";
  if (/^[\d.]+$/.test(host) || host.startsWith("[")) return undefined;
  const label = host.split(".")[0];
  return label && label !== host ? label : undefined;
}

/**
 * `preferred` is the caller's own database, used when the request names none. A database named
 * explicitly must exist (else 404, code 1), except in a single-database deployment, which
 * answers to any name so that `db://<name>` URLs need no setup.
 */
export async function resolveCatalog(request: FastifyRequest, registry: CatalogRegistry, preferred?: string): Promise<Catalog> {
  const named = requestedDatabase(request);
  if (named) {
    const catalog = (await registry.catalogFor(named)) ?? (await onlyDatabase(registry));
    if (catalog) return catalog;
    throw CatalogError.of("NamespaceNotFound", `database '${named}' does not exist`);
  }
  const label = hostLabel(request);
  const byHost = label ? await registry.catalogFor(label) : undefined;
  if (byHost) return byHost;
  const own = preferred ? await registry.catalogFor(preferred) : undefined;
  if (own) return own;
  const fallback = (await onlyDatabase(registry)) ?? (await registry.catalogFor(defaultDatabaseName));
  if (fallback) return fallback;
  throw CatalogError.of(
    "InvalidInput",
    `this deployment serves several databases and none is named '${defaultDatabaseName}': name one with the x-svc-database header`,
  );
}

async function onlyDatabase(registry: CatalogRegistry): Promise<Catalog | undefined> {
  const names = await registry.databaseNames();
  return names.length === 1 ? registry.catalogFor(names[0] as string) : undefined;
}
