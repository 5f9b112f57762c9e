/**
 * @module The store's tables as the database itself describes them, for whole-store copies:
 * every table the migrations made (whatever later migrations add is picked up without a list
 * kept here), ordered so that a table comes after the tables its foreign keys point to.
 */
import { type Kysely, sql } from "kysely";

/** One table of the store, with the columns a copy carries. */
export interface SnapshotTable {
  name: string;
  columns: string[];
  /** Columns the database numbers itself (identity, AUTOINCREMENT). */
  numbered: string[];
}

/** A foreign key: `table` refers to `references`. */
interface Reference {
  table: string;
  references: string;
}

/** The dialect-specific questions a copy asks the database's own catalog. */
interface DialectCatalog {
  /** Runs `fn` in a transaction that reads one point in time of the whole store and writes nothing. */
  readingSnapshot<T>(db: Kysely<any>, fn: (trx: Kysely<any>) => Promise<T>): Promise<T>;
  references(db: Kysely<any>): Promise<Reference[]>;
  /** Moves the numbering of `column` past the highest value it holds. */
  renumber(db: Kysely<any>, table: string, column: string): Promise<void>;
}

const sqliteCatalog: DialectCatalog = {
  // In WAL mode a read transaction sees the file as of its first read, whatever commits meanwhile.
  readingSnapshot: (db, fn) => db.transaction().execute(fn),
  references: async (db) => {
    const { rows } = await sql<Reference>`
      select m.name as "table", f."table" as "references"
      from sqlite_master m join pragma_foreign_key_list(m.name) f
      where m.type = 'table'`.execute(db);
    return rows;
  },
  // AUTOINCREMENT's counter (sqlite_sequence) already follows explicit values as they are inserted.
  renumber: async () => undefined,
};

const postgresCatalog: DialectCatalog = {
  // Every statement of a repeatable-read transaction reads the snapshot its first statement took.
  readingSnapshot: (db, fn) => db.transaction().setIsolationLevel("repeatable read").setAccessMode("read only").execute(fn),
  references: async (db) => {
    const { rows } = await sql<Reference>`
      select c.conrelid::regclass::text as "table", c.confrelid::regclass::text as "references"
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'f' and n.nspname = current_schema()`.execute(db);
    return rows.map((row) => ({ table: unquote(row.table), references: unquote(row.references) }));
  },
  renumber: async (db, table, column) => {
    await sql`select setval(pg_get_serial_sequence(${table}, ${column}), coalesce((select max(${sql.ref(column)}) from ${sql.table(table)}), 0) + 1, false)`.execute(db);
  },
};

/** `regclass` text quotes names that need it ("tables" stays bare, "User" would not). */
function unquote(name: string): string {
  return name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name;
}

export function dialectCatalog(dialect: "sqlite" | "postgres"): DialectCatalog {
  return dialect === "postgres" ? postgresCatalog : sqliteCatalog;
}

/**
 * The store's tables (Kysely's bookkeeping left out), each after the tables it refers to; ties
 * by name, so two stores at the same migration list them alike.
 */
export async function snapshotTables(db: Kysely<any>, dialect: "sqlite" | "postgres"): Promise<SnapshotTable[]> {
  const introspected = (await db.introspection.getTables()).filter((table) => !table.isView);
  const tables = new Map<string, SnapshotTable>(
    introspected.map((table) => [
      table.name,
      {
        name: table.name,
        columns: table.columns.map((column) => column.name),
        numbered: table.columns.filter((column) => column.isAutoIncrementing).map((column) => column.name),
      },
    ]),
  );
  const dependsOn = new Map<string, Set<string>>([...tables.keys()].map((name) => [name, new Set<string>()]));
  for (const { table, references } of await dialectCatalog(dialect).references(db)) {
    if (table !== references && tables.has(table) && tables.has(references)) dependsOn.get(table)?.add(references);
  }
  const ordered: SnapshotTable[] = [];
  const placed = new Set<string>();
  while (placed.size < tables.size) {
    const ready = [...tables.keys()].filter((name) => !placed.has(name) && [...(dependsOn.get(name) ?? [])].every((target) => placed.has(target))).sort();
    if (ready.length === 0) throw new Error(`the store's foreign keys form a cycle among ${[...tables.keys()].filter((name) => !placed.has(name)).join(", ")}`);
    for (const name of ready) {
      placed.add(name);
      ordered.push(tables.get(name) as SnapshotTable);
    }
  }
  return ordered;
}
