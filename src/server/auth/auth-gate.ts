/**
 * @module The server's side of auth: authenticate (16) → resolve the database → authorize the
 * role (15). It runs as soon as a request's head has arrived, before any of its body is read, so
 * that a caller without valid credentials costs neither memory nor a read of its upload. Only a
 * request without credential headers on a route with a JSON body may authenticate from the
 * body's `identity`; such a body is read only up to `bodyCredentialLimit` and checked once read,
 * before it is validated, so the caller learns nothing about the request's shape either way.
 * Failed authentications are slowed per source (failure-throttle.ts). Admin routes declare
 * their own scope. With auth mode `none` every caller is the anonymous admin of every database.
 *
 * A caller whose role on the request's database allows the operation's `access` passes. Any other
 * is judged by its grants (access-directory.ts): on the head, that it holds USAGE on the database
 * or the operation's privileges there, so a stranger to the database is refused before its body
 * is read; once the route has parsed the path's id, the operation's declared need on the object
 * the id names (model/authz/operation-check.ts).
 */
import type { FastifyInstance, FastifyRequest, RouteOptions, onRequestHookHandler, preValidationHookHandler } from "fastify";
import type { AccessDirectory } from "../../auth/access-directory.js";
import type { EffectiveGrants } from "../../model/authz/effective-grants.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { type Principal, anonymousPrincipal, homeDatabase, roleOn } from "../../auth/principal.js";
import { roleAllows } from "../../auth/roles.js";
import { CatalogError } from "../../model/catalog-error.js";
import { ErrorCode } from "../../model/error-codes.js";
import type { Catalog } from "../../catalog/catalog.js";
import type { CatalogRegistry } from "../../catalog/runtime/database-registry.js";
import { isStream } from "../body-parsing.js";
import { resolveCatalog } from "../database-resolution.js";
import type { Access, OperationEntry, ServedOperation } from "../../model/operations/operation-entry.js";
import { checkOperation } from "../../model/authz/operation-check.js";
import type { CatalogCall } from "../services.js";
import { followObjectChange, renameDestination } from "./grant-lifecycle.js";
import { isListing, visibleListing } from "./visible-listings.js";
import { delimiterOf, parsePathId } from "../identifiers.js";
import { credentialsOf, hasCredentialHeaders } from "./credentials-of.js";
import { FailureThrottle, type ThrottlePolicy, defaultThrottlePolicy } from "./failure-throttle.js";
import { sourceOf } from "./request-source.js";

export type AuthMode = "none" | "required";

/** Largest body read before its caller is authenticated: only one carrying its own `identity`. */
export const bodyCredentialLimit = 64 * 1024;

/**
 * Who may reach a route: `database` (spec operations: the role named by `access` on the
 * request's database), `database-admin` (admin of the `:database` path parameter),
 * `deployment-admin` (admin of every database), `authenticated` (any valid credential),
 * `public` (no check; the route authenticates its caller itself, like the token endpoint).
 */
export type RouteScope = "database" | "database-admin" | "deployment-admin" | "authenticated" | "public";

export interface RouteAuthConfig {
  operation?: ServedOperation;
  scope?: RouteScope;
  /** Record calls in the audit log; default: operations whose access is not `read`. */
  audit?: boolean;
}

interface RequestAuthState {
  principal: Principal;
  catalog?: Catalog;
  /** The caller's grants, when its role did not decide alone. */
  grants?: EffectiveGrants;
}

const states = new WeakMap<FastifyRequest, RequestAuthState>();

/** The caller, once the gate has authenticated it. */
export function principalOf(request: FastifyRequest): Principal | undefined {
  return states.get(request)?.principal;
}

/** The caller's grants, when the gate judged the request by them rather than by a role. */
export function judgedGrantsOf(request: FastifyRequest): EffectiveGrants | undefined {
  return states.get(request)?.grants;
}

/** The database the gate resolved for the request, if any. */
export function gatedCatalogOf(request: FastifyRequest): Catalog | undefined {
  return states.get(request)?.catalog;
}

export function forbidden(database: string, needed: Access): CatalogError {
  return CatalogError.of("PermissionDenied", `this operation needs the ${needed} role on database '${database}'`);
}

/** Throws 15 unless `principal` holds at least `needed` on `database`. */
export function requireRole(principal: Principal, database: string, needed: Access): void {
  if (!roleAllows(roleOn(principal, database), needed)) throw forbidden(database, needed);
}

/** The identifier the request's path names, split on its `delimiter` (the body's may only repeat it). */
function pathIdOf(request: FastifyRequest): string[] {
  const query = (request.query ?? {}) as Record<string, unknown>;
  return parsePathId((request.params as Record<string, string | undefined>).id, delimiterOf(query));
}

function isUnauthenticated(error: unknown): boolean {
  return error instanceof CatalogError && error.code === ErrorCode.Unauthenticated;
}

export class AuthGate {
  private readonly throttle: FailureThrottle;

  constructor(
    readonly mode: AuthMode,
    readonly authenticator: Authenticator,
    private readonly registry: CatalogRegistry,
    throttlePolicy: ThrottlePolicy = defaultThrottlePolicy,
    /** Grants and role bindings; without it, roles alone decide. */
    readonly access?: AccessDirectory,
  ) {
    this.throttle = new FailureThrottle(throttlePolicy);
  }

  /** Authenticates the caller once per request (anonymous admin in mode `none`); a failure waits per its source's record. */
  async principalFor(request: FastifyRequest): Promise<Principal> {
    const known = states.get(request);
    if (known) return known.principal;
    let principal: Principal;
    try {
      principal = this.mode === "none" ? anonymousPrincipal : await this.authenticator.authenticate(credentialsOf(request));
    } catch (error) {
      if (isUnauthenticated(error)) await this.throttle.failed(sourceOf(request));
      throw error;
    }
    states.set(request, { principal });
    return principal;
  }

  /**
   * The check run on a request's head. With credential headers, or on a route whose body cannot
   * carry credentials, it is the whole check. Otherwise the body may carry them: it is let
   * through when small and framed by `Content-Length`, to be checked once read.
   */
  private async checkHead(request: FastifyRequest, scope: RouteScope, operation: ServedOperation, bodyMayCarryCredentials: boolean): Promise<void> {
    if (this.mode === "none" || scope === "public") return;
    if (hasCredentialHeaders(request) || !bodyMayCarryCredentials) return this.check(request, scope, operation);
    // Without framing headers the body is empty, which costs nothing to read.
    const declared = Number(request.headers["content-length"] ?? 0);
    if (request.headers["transfer-encoding"] === undefined && declared <= bodyCredentialLimit) return;
    await this.throttle.failed(sourceOf(request));
    throw CatalogError.of(
      "Unauthenticated",
      `credentials are required: send an x-api-key header or an Authorization: Bearer token (credentials in the body are read only from a body of at most ${bodyCredentialLimit} bytes with a Content-Length)`,
    );
  }

  /** The request's catalog: named by headers or Host, else the caller's own database. */
  async catalogFor(request: FastifyRequest): Promise<Catalog> {
    const state = states.get(request);
    if (state?.catalog) return state.catalog;
    const principal = await this.principalFor(request);
    const catalog = await resolveCatalog(request, this.registry, homeDatabase(principal));
    (states.get(request) as RequestAuthState).catalog = catalog;
    return catalog;
  }

  /**
   * Throws 15 (or, for an object the caller may not see, the missing object's error) unless the
   * caller may run `operation` on `catalog`'s database and the object its path names; with a
   * catalog call (its body read), also where a rename moves a table to.
   */
  async authorize(request: FastifyRequest, catalog: Catalog, operation: ServedOperation, call?: CatalogCall): Promise<void> {
    const principal = await this.principalFor(request);
    const database = catalog.database.name;
    if (roleAllows(roleOn(principal, database), operation.access)) return;
    const need = (operation as Partial<OperationEntry>).privilege;
    if (!need || !this.access) throw forbidden(database, operation.access);
    const { grants } = await this.access.accessOf(principal);
    (states.get(request) as RequestAuthState).grants = grants;
    if (!grants.holds("USAGE", { kind: "database", database })) throw forbidden(database, operation.access);
    const entry = operation as OperationEntry;
    checkOperation(grants, need, entry.target, database, call?.id ?? pathIdOf(request));
    const destination = call && renameDestination(entry, call);
    if (destination) checkOperation(grants, { needs: "CREATE_TABLE", on: "parent" }, "table", database, destination);
  }

  /**
   * What follows an operation that succeeded: grants follow what it created, renamed or dropped
   * (grant-lifecycle.ts), and a listing keeps only what the caller may see (visible-listings.ts).
   * Answers the operation's answer, filtered.
   */
  async afterOperation(request: FastifyRequest, catalog: Catalog, operation: OperationEntry, call: CatalogCall, answer: unknown): Promise<unknown> {
    if (!this.access) return answer;
    const principal = await this.principalFor(request);
    const database = catalog.database.name;
    try {
      await followObjectChange(this.authenticator.store, principal, database, operation, call);
    } catch (error) {
      // The operation itself succeeded and is answered so; an operator can set the grants by hand.
      request.log.warn({ err: error, operation: operation.operationId }, "grants could not follow the operation's change");
    }
    if (!isListing(operation) || roleAllows(roleOn(principal, database), "read")) return answer;
    return visibleListing((await this.access.accessOf(principal)).grants, database, operation, call, answer);
  }

  private async check(request: FastifyRequest, scope: RouteScope, operation: ServedOperation): Promise<void> {
    if (scope === "public") return;
    const principal = await this.principalFor(request);
    switch (scope) {
      case "database":
        return this.authorize(request, await this.catalogFor(request), operation);
      case "database-admin":
        return requireRole(principal, (request.params as { database: string }).database, "admin");
      case "deployment-admin":
        if (principal.everyDatabase !== "admin") {
          throw CatalogError.of("PermissionDenied", "this operation needs a deployment-wide admin credential");
        }
        return;
      case "authenticated":
        return;
    }
  }

  /**
   * Adds the gate to every route that carries an operation: on the request's head, and again
   * after the route's own body reading for a caller whose credentials travel in the body.
   */
  install(app: FastifyInstance): void {
    app.addHook("onRoute", (route: RouteOptions) => {
      const config = route.config as RouteAuthConfig | undefined;
      const operation = config?.operation;
      if (!operation) return;
      const scope = config.scope ?? "database";
      const bodyMayCarryCredentials = (route.schema as { body?: unknown } | undefined)?.body !== undefined;
      const head: onRequestHookHandler = async (request) => this.checkHead(request, scope, operation, bodyMayCarryCredentials);
      const onRequest = route.onRequest;
      route.onRequest = [...(Array.isArray(onRequest) ? onRequest : onRequest ? [onRequest] : []), head];
      const gate: preValidationHookHandler = async (request) => {
        try {
          await this.check(request, scope, operation);
        } catch (error) {
          // A refused upload is drained so the client reads the answer instead of a reset.
          if (isStream(request.body)) request.body.resume();
          throw error;
        }
      };
      const existing = route.preValidation;
      route.preValidation = [...(Array.isArray(existing) ? existing : existing ? [existing] : []), gate];
    });
  }
}
