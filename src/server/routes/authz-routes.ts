/**
 * @module LanceDB's authorization API (`POST /admin/authz/...`, docs/auth.md "Authorization"):
 * deployment-wide, so any valid credential reaches the routes and each operation checks the
 * caller's privileges itself (auth/authz-admin.ts). Changes are audited; API keys in `a:`
 * subjects are never logged (request bodies are not logged at all).
 */
import type { FastifyInstance } from "fastify";
import type { AuthzAdmin } from "../../auth/authz-admin.js";
import * as A from "../../model/authz-api.js";
import { json } from "../../model/operations/operation-entry.js";
import { principalOf } from "../auth/auth-gate.js";
import type { ServerServices } from "../services.js";
import { type AdminOperation, adminOperationDefiner } from "./admin-route-kit.js";
import { type Principal, anonymousPrincipal } from "../../auth/principal.js";

const tag = "Authorization";

/** One route of the API: a POST with a JSON body, open to every valid credential. */
function authzOperation(operationId: string, summary: string, path: string, request: AdminOperation["request"], response: AdminOperation["response"], changes: boolean): AdminOperation {
  return { operationId, summary, tag, methods: ["POST"], path, body: "json", request, response, access: changes ? "admin" : "read", scope: "authenticated", audit: changes };
}

export function authzRoutes(app: FastifyInstance, services: ServerServices, admin: AuthzAdmin): void {
  const define = adminOperationDefiner(app, services);
  const empty = json(A.EmptyResponse);
  /** Registers one route calling `run` with the caller and the validated body. */
  const route = <Body>(operation: AdminOperation, run: (caller: Principal, body: Body) => Promise<unknown>) =>
    define<Body, unknown, unknown>(operation, async ({ body, request }) => (await run(principalOf(request) ?? anonymousPrincipal, body)) ?? {});

  route(authzOperation("ListAcls", "List grants: on one object (needs USAGE on it) or all (needs USAGE on system)", "/admin/authz/acl/list", A.ListAclsRequest, json(A.ListAclsResponse), false), (caller, body: Parameters<AuthzAdmin["listAcls"]>[1]) =>
    admin.listAcls(caller, body),
  );
  route(authzOperation("AddAcl", "Grant a privilege on an object (needs OWNERSHIP of it); granting OWNERSHIP transfers it", "/admin/authz/acl/add", A.AclRequest, empty, true), (caller, body: A.AclRequest) => admin.addAcl(caller, body));
  route(authzOperation("DeleteAcl", "Revoke a privilege on an object (needs OWNERSHIP of it)", "/admin/authz/acl/delete", A.AclRequest, empty, true), (caller, body: A.AclRequest) => admin.deleteAcl(caller, body));
  route(authzOperation("ListRoleBindings", "List role bindings (needs USAGE on system)", "/admin/authz/role_binding/list", A.ListRoleBindingsRequest, json(A.ListRoleBindingsResponse), false), (caller, body: Parameters<AuthzAdmin["listRoleBindings"]>[1]) =>
    admin.listRoleBindings(caller, body),
  );
  route(authzOperation("AddRoleBinding", "Bind a role to a principal or group (needs OPERATE on system); binding twice changes nothing", "/admin/authz/role_binding/add", A.RoleBindingRequest, empty, true), (caller, body: A.RoleBindingRequest) =>
    admin.addRoleBinding(caller, body),
  );
  route(authzOperation("DeleteRoleBinding", "Unbind a role (needs OPERATE on system); unbinding what is not bound changes nothing", "/admin/authz/role_binding/delete", A.RoleBindingRequest, empty, true), (caller, body: A.RoleBindingRequest) =>
    admin.deleteRoleBinding(caller, body),
  );
  route(authzOperation("GetPrincipal", "A principal's id and the roles bound to it (needs USAGE on system)", "/admin/authz/principal", A.PrincipalRequest, json(A.PrincipalInfo), false), (caller, body: { principal: string }) => admin.principal(caller, body));
  route(authzOperation("GetGroup", "A group's roles (needs USAGE on system)", "/admin/authz/group", A.GroupRequest, json(A.GroupInfo), false), (caller, body: { group: string }) => admin.group(caller, body));
}
