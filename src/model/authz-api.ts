/**
 * @module Models of LanceDB's authorization API (`/admin/authz/*`), as its clients send and parse
 * them: subjects, objects and privileges travel as text in the grammar of `model/authz/`.
 */
import { Type, type Static } from "@sinclair/typebox";

/** Longest subject, object or token accepted; far above any valid one. */
const text = (description: string) => Type.String({ maxLength: 4096, description });
const continuationToken = Type.Optional(text("where the previous page ended; absent on the last page"));
const maxResults = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: "most entries in one page (default 100)" }));

export const AclRequest = Type.Object(
  {
    subject: text("p:<principal id>, g:<group id>, r:<role> or a:<API key> (the key's principal)"),
    object: text("system, database:DB, namespace:DB:NS, table:DB:NS$TABLE or view:DB:NS$VIEW"),
    privilege: text("OWNERSHIP, USAGE, SELECT, INSERT, UPDATE, DELETE, CREATE_DATABASE, CREATE_NAMESPACE, CREATE_TABLE, CREATE_MATERIALIZED_VIEW, CREATE_VIEW or OPERATE"),
  },
  { $id: "AclRequest" },
);
export type AclRequest = Static<typeof AclRequest>;

export const ListAclsRequest = Type.Object(
  { object: Type.Optional(text("only grants on this object")), subject: Type.Optional(text("only grants to this subject")), continuation_token: continuationToken, max_results: maxResults },
  { $id: "ListAclsRequest" },
);

export const AccessControlEntry = Type.Object({ subject_id: Type.String(), object: Type.String(), privilege: Type.String() }, { $id: "AccessControlEntry" });
export const ListAclsResponse = Type.Object({ entries: Type.Array(AccessControlEntry), continuation_token: Type.Optional(Type.String()) }, { $id: "ListAclsResponse" });

export const RoleBindingRequest = Type.Object({ subject: text("p:<principal id>, g:<group id> or a:<API key>"), role: text("a role of your own naming") }, { $id: "RoleBindingRequest" });
export type RoleBindingRequest = Static<typeof RoleBindingRequest>;
export const ListRoleBindingsRequest = Type.Object(
  { subject: Type.Optional(text("only this subject's roles")), role: Type.Optional(text("only this role's members")), continuation_token: continuationToken, max_results: maxResults },
  { $id: "ListRoleBindingsRequest" },
);
export const RoleBinding = Type.Object({ subject_id: Type.String(), role: Type.String() }, { $id: "RoleBinding" });
export const ListRoleBindingsResponse = Type.Object({ bindings: Type.Array(RoleBinding), continuation_token: Type.Optional(Type.String()) }, { $id: "ListRoleBindingsResponse" });

const IdentityInfo = Type.Object({ id: Type.String(), name: Type.Optional(Type.String()) });
export const PrincipalRequest = Type.Object({ principal: text("p:<principal id> or a:<API key>") }, { $id: "PrincipalRequest" });
export const PrincipalInfo = Type.Object(
  { principal_id: Type.String(), principal_name: Type.Optional(Type.String()), groups: Type.Array(IdentityInfo), roles: Type.Array(Type.String()) },
  { $id: "PrincipalInfo" },
);
export const GroupRequest = Type.Object({ group: text("g:<group id>") }, { $id: "GroupRequest" });
export const GroupInfo = Type.Object(
  { group_id: Type.String(), group_name: Type.Optional(Type.String()), principals: Type.Array(IdentityInfo), roles: Type.Array(Type.String()) },
  { $id: "GroupInfo" },
);
export const EmptyResponse = Type.Object({}, { $id: "AuthzEmptyResponse" });
