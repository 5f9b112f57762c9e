/**
 * @module Table rows: a table's name, namespace and (immutable) location.
 */
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { DialectAdapter } from "../dialect-adapter.js";
import type { Database, NewTableRow, TableMapColumn, TableRow, TableRowUpdate, TablesTable } from "../schema.js";
import { decodeMaps, encodeMaps } from "./json-columns.js";
import { countInNamespace, subtreeRange } from "./namespace-rows.js";

/** The map columns of a table's row (shared with the kept rows of dropped tables). */
export const tableMaps: readonly TableMapColumn[] = ["properties", "storage_options"];
const decoded = (row: Selectable<TablesTable> | undefined): TableRow | undefined => row && decodeMaps(row, tableMaps);
const decodedAll = (rows: Selectable<TablesTable>[]): TableRow[] => rows.map((row) => decodeMaps(row, tableMaps));

export interface TableRows {
  findTableByName(database: string, namespacePath: string, name: string): Promise<TableRow | undefined>;
  findTableById(id: string): Promise<TableRow | undefined>;
  /**
   * Reads the table's row and, inside a transaction, keeps other writers of it waiting until the
   * transaction ends (`FOR UPDATE` where rows can be locked): a read-modify-write of the row, or a
   * check-then-insert about the table, is then exact across processes.
   */
  lockTableRow(id: string): Promise<TableRow | undefined>;
  insertTable(row: NewTableRow): Promise<void>;
  updateTable(id: string, update: TableRowUpdate): Promise<void>;
  /**
   * Raises the table's `head_version` to `version` unless it already names a newer one: commits
   * of one table may report in any order, and the head never goes back.
   */
  raiseTableHead(id: string, version: number): Promise<void>;
  /**
   * Moves the table's `head_version` from `from` to `to` only if it still names `from`: of the
   * processes that found the same commits made around Quiver, one records them. Answers whether
   * this call moved it.
   */
  moveTableHead(id: string, from: number | null, to: number): Promise<boolean>;
  /**
   * Raises `outside_writes_until` of the table of `database` at `location` to `until` unless it
   * is already later: credentials with write access to it were vended, valid until then.
   */
  raiseOutsideWrites(database: string, location: string, until: number): Promise<void>;
  /** The tables of `database` that credentials vended with write access may still reach after `since`. */
  listTablesWrittenOutside(database: string, since: number): Promise<TableRow[]>;
  deleteTable(id: string): Promise<void>;
  /** Tables directly in `namespacePath`, ordered by name, starting after `afterName`. */
  listTablesIn(database: string, namespacePath: string, afterName: string | undefined, limit: number | undefined): Promise<TableRow[]>;
  /** Every table of the database, ordered by namespace path then name. */
  listAllTables(database: string): Promise<TableRow[]>;
  countTablesIn(database: string, namespacePath: string): Promise<number>;
  /** Tables in `namespacePath` or any namespace below it. */
  listTablesInTree(database: string, namespacePath: string): Promise<TableRow[]>;
  findTableByLocation(database: string, location: string): Promise<TableRow | undefined>;
  /** A table whose location lies inside the directory `dir`, if any. */
  findTableBelowLocation(database: string, dir: string): Promise<TableRow | undefined>;
}

export function tableRows(db: Kysely<Database>, adapter: DialectAdapter): TableRows {
  /** The rows of one database's tables, to narrow further. */
  const tablesOf = (database: string) => db.selectFrom("tables").selectAll().where("database", "=", database);
  return {
    findTableByName: async (database, namespacePath, name) =>
      decoded(await tablesOf(database).where("namespace_path", "=", namespacePath).where("name", "=", name).executeTakeFirst()),

    findTableById: async (id) => decoded(await db.selectFrom("tables").selectAll().where("id", "=", id).executeTakeFirst()),

    async lockTableRow(id) {
      const query = db.selectFrom("tables").selectAll().where("id", "=", id);
      return decoded(await (adapter.rowLocks ? query.forUpdate() : query).executeTakeFirst());
    },

    async insertTable(row) {
      await db.insertInto("tables").values(encodeMaps<Insertable<TablesTable>, TableMapColumn>(row, tableMaps)).execute();
    },

    async updateTable(id, update) {
      await db.updateTable("tables").set(encodeMaps<Updateable<TablesTable>, TableMapColumn>(update, tableMaps)).where("id", "=", id).execute();
    },

    async raiseTableHead(id, version) {
      await db
        .updateTable("tables")
        .set({ head_version: version })
        .where("id", "=", id)
        .where((eb) => eb.or([eb("head_version", "is", null), eb("head_version", "<", version)]))
        .execute();
    },

    async moveTableHead(id, from, to) {
      const result = await db
        .updateTable("tables")
        .set({ head_version: to })
        .where("id", "=", id)
        .where((eb) => (from === null ? eb("head_version", "is", null) : eb("head_version", "=", from)))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async raiseOutsideWrites(database, location, until) {
      await db
        .updateTable("tables")
        .set({ outside_writes_until: until })
        .where("database", "=", database)
        .where("location", "=", location)
        .where((eb) => eb.or([eb("outside_writes_until", "is", null), eb("outside_writes_until", "<", until)]))
        .execute();
    },

    listTablesWrittenOutside: async (database, since) => decodedAll(await tablesOf(database).where("outside_writes_until", ">", since).orderBy("id").execute()),

    async deleteTable(id) {
      await db.deleteFrom("tables").where("id", "=", id).execute();
    },

    async listTablesIn(database, namespacePath, afterName, limit) {
      let query = tablesOf(database).where("namespace_path", "=", namespacePath).orderBy("name");
      if (afterName !== undefined) query = query.where("name", ">", afterName);
      if (limit !== undefined) query = query.limit(limit);
      return decodedAll(await query.execute());
    },

    listAllTables: async (database) =>
      decodedAll(await tablesOf(database).orderBy("namespace_path").orderBy("name").execute()),

    countTablesIn: (database, namespacePath) => countInNamespace(db, { table: "tables", parentColumn: "namespace_path" }, database, namespacePath),

    async listTablesInTree(database, namespacePath) {
      const [low, high] = subtreeRange(namespacePath);
      return decodedAll(
        await tablesOf(database)
          .where((eb) =>
            eb.or([eb("namespace_path", "=", namespacePath), eb.and([eb("namespace_path", ">=", low), eb("namespace_path", "<", high)])]),
          )
          .execute(),
      );
    },

    async findTableBelowLocation(database, dir) {
      const [low, high] = subtreeRange(dir);
      return decoded(await tablesOf(database).where("location", ">=", low).where("location", "<", high).executeTakeFirst());
    },

    findTableByLocation: async (database, location) =>
      decoded(await tablesOf(database).where("location", "=", location).executeTakeFirst()),
  };
}
