/**
 * @module Grants and role bindings. Listings run in key order (object, subject, privilege for
 * grants; role, subject for bindings) and resume strictly after a given key, so a page boundary
 * holds while rows are added or removed elsewhere.
 */
import type { Kysely } from "kysely";
import type { AuthzGrantRow, AuthzRoleBindingRow, Database } from "../schema.js";

/** Where a grant listing resumes: after this grant. */
export interface GrantKey {
  object: string;
  subject: string;
  privilege: string;
}

/** Where a binding listing resumes: after this binding. */
export interface RoleBindingKey {
  role: string;
  subject: string;
}

export interface GrantFilter {
  object?: string;
  subject?: string;
}

export interface RoleBindingFilter {
  subject?: string;
  role?: string;
}

export interface AuthzRows {
  /** Adds a grant; answers whether it was new (a grant already held changes nothing). */
  insertGrant(row: AuthzGrantRow): Promise<boolean>;
  /** Removes a grant; answers whether it was held. */
  deleteGrant(key: GrantKey): Promise<boolean>;
  /** Removes every grant of `privilege` on `object` but `subject`'s; what ownership's transfer needs. */
  deleteOtherGrants(object: string, privilege: string, subject: string): Promise<void>;
  /** Removes every grant on `object` and, with `below`, on every object whose text starts with `below`. */
  deleteGrantsOn(object: string, below?: string): Promise<number>;
  /** Moves every grant on `from` to `to` (a renamed table). */
  moveGrants(from: string, to: string): Promise<void>;
  listGrants(filter: GrantFilter, after: GrantKey | undefined, limit: number): Promise<AuthzGrantRow[]>;
  /** Every grant, for the in-memory index each process keeps. */
  allGrants(): Promise<AuthzGrantRow[]>;

  /** Binds a role; answers whether it was new (binding twice changes nothing). */
  insertRoleBinding(row: AuthzRoleBindingRow): Promise<boolean>;
  deleteRoleBinding(key: RoleBindingKey): Promise<boolean>;
  listRoleBindings(filter: RoleBindingFilter, after: RoleBindingKey | undefined, limit: number): Promise<AuthzRoleBindingRow[]>;
  allRoleBindings(): Promise<AuthzRoleBindingRow[]>;

  /** Counts one change of grants or bindings; call it in the change's transaction. */
  countAuthzChange(): Promise<void>;
  /** How many changes of grants and bindings there have been (0 before the first). */
  authzVersion(): Promise<number>;
}

export function authzRows(db: Kysely<Database>): AuthzRows {
  return {
    async insertGrant(row) {
      const result = await db
        .insertInto("authz_grants")
        .values(row)
        .onConflict((oc) => oc.columns(["object", "subject", "privilege"]).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async deleteGrant({ object, subject, privilege }) {
      const result = await db.deleteFrom("authz_grants").where("object", "=", object).where("subject", "=", subject).where("privilege", "=", privilege).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async deleteOtherGrants(object, privilege, subject) {
      await db.deleteFrom("authz_grants").where("object", "=", object).where("privilege", "=", privilege).where("subject", "<>", subject).execute();
    },
    async deleteGrantsOn(object, below) {
      let query = db.deleteFrom("authz_grants");
      query = below === undefined ? query.where("object", "=", object) : query.where((eb) => eb.or([eb("object", "=", object), eb.and([eb("object", ">=", below), eb("object", "<", `${below}\uffff`)])]));
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async moveGrants(from, to) {
      await db.updateTable("authz_grants").set({ object: to }).where("object", "=", from).execute();
    },
    listGrants(filter, after, limit) {
      let query = db.selectFrom("authz_grants").selectAll().orderBy("object").orderBy("subject").orderBy("privilege").limit(limit);
      if (filter.object !== undefined) query = query.where("object", "=", filter.object);
      if (filter.subject !== undefined) query = query.where("subject", "=", filter.subject);
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb("object", ">", after.object),
            eb.and([eb("object", "=", after.object), eb("subject", ">", after.subject)]),
            eb.and([eb("object", "=", after.object), eb("subject", "=", after.subject), eb("privilege", ">", after.privilege)]),
          ]),
        );
      }
      return query.execute();
    },
    allGrants: () => db.selectFrom("authz_grants").selectAll().execute(),

    async insertRoleBinding(row) {
      const result = await db
        .insertInto("authz_role_bindings")
        .values(row)
        .onConflict((oc) => oc.columns(["role", "subject"]).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async deleteRoleBinding({ role, subject }) {
      const result = await db.deleteFrom("authz_role_bindings").where("role", "=", role).where("subject", "=", subject).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    listRoleBindings(filter, after, limit) {
      let query = db.selectFrom("authz_role_bindings").selectAll().orderBy("role").orderBy("subject").limit(limit);
      if (filter.role !== undefined) query = query.where("role", "=", filter.role);
      if (filter.subject !== undefined) query = query.where("subject", "=", filter.subject);
      if (after) query = query.where((eb) => eb.or([eb("role", ">", after.role), eb.and([eb("role", "=", after.role), eb("subject", ">", after.subject)])]));
      return query.execute();
    },
    allRoleBindings: () => db.selectFrom("authz_role_bindings").selectAll().execute(),

    async countAuthzChange() {
      await db
        .insertInto("authz_changes")
        .values({ id: 1, version: 1 })
        .onConflict((oc) => oc.column("id").doUpdateSet((eb) => ({ version: eb("authz_changes.version", "+", 1) })))
        .execute();
    },
    async authzVersion() {
      const row = await db.selectFrom("authz_changes").select("version").where("id", "=", 1).executeTakeFirst();
      return Number(row?.version ?? 0);
    },
  };
}
