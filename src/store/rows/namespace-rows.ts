/**
 * @module Namespace rows. Paths are namespace components joined with "/"; a subtree is the
 * key range [path + "/", path + "0") because "0" is the character after "/".
 */
import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database, NamespaceMapColumn, NamespaceRow, NamespacesTable, NewNamespaceRow } from "../schema.js";
import { decodeMaps, encodeMaps } from "./json-columns.js";

const maps: readonly NamespaceMapColumn[] = ["properties"];
const decoded = (row: Selectable<NamespacesTable>): NamespaceRow => decodeMaps(row, maps);

export interface NamespaceRows {
  findNamespace(database: string, path: string): Promise<NamespaceRow | undefined>;
  insertNamespace(row: NewNamespaceRow): Promise<void>;
  /** Direct children of `parentPath`, ordered by name, starting after `afterName`. */
  listChildNamespaces(database: string, parentPath: string, afterName: string | undefined, limit: number | undefined): Promise<NamespaceRow[]>;
  countChildNamespaces(database: string, parentPath: string): Promise<number>;
  /** Deletes the namespace and every namespace below it; returns how many rows went. */
  deleteNamespaceTree(database: string, path: string): Promise<number>;
}

export function subtreeRange(path: string): [string, string] {
  return [`${path}/`, `${path}0`];
}

/** What a namespace directly holds: its child namespaces, or its tables, by the column naming their parent. */
type NamespaceMembers = { table: "namespaces"; parentColumn: "parent_path" } | { table: "tables"; parentColumn: "namespace_path" };

/** How many rows of `members` sit directly in the namespace at `path` of `database`. */
export async function countInNamespace(db: Kysely<Database>, members: NamespaceMembers, database: string, path: string): Promise<number> {
  const row = await db
    .selectFrom(members.table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("database", "=", database)
    .where(members.parentColumn, "=", path)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function namespaceRows(db: Kysely<Database>): NamespaceRows {
  return {
    async findNamespace(database, path) {
      const row = await db.selectFrom("namespaces").selectAll().where("database", "=", database).where("path", "=", path).executeTakeFirst();
      return row && decoded(row);
    },

    async insertNamespace(row) {
      await db.insertInto("namespaces").values(encodeMaps<Insertable<NamespacesTable>, NamespaceMapColumn>(row, maps)).execute();
    },

    async listChildNamespaces(database, parentPath, afterName, limit) {
      let query = db
        .selectFrom("namespaces")
        .selectAll()
        .where("database", "=", database)
        .where("parent_path", "=", parentPath)
        .orderBy("name");
      if (afterName !== undefined) query = query.where("name", ">", afterName);
      if (limit !== undefined) query = query.limit(limit);
      return (await query.execute()).map(decoded);
    },

    countChildNamespaces: (database, parentPath) => countInNamespace(db, { table: "namespaces", parentColumn: "parent_path" }, database, parentPath),

    async deleteNamespaceTree(database, path) {
      const [low, high] = subtreeRange(path);
      const result = await db
        .deleteFrom("namespaces")
        .where("database", "=", database)
        .where((eb) => eb.or([eb("path", "=", path), eb.and([eb("path", ">=", low), eb("path", "<", high)])]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
