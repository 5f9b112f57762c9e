/**
 * @module Keeps better-sqlite3's prepared statements by their SQL text. Kysely prepares every query
 * anew, and preparing costs more than running a point lookup; the catalog runs few distinct
 * statements, so a small cache holds them all. Kysely runs one query at a time on the
 * connection, so a kept statement is never busy when it is handed out again.
 */
import type Sqlite from "better-sqlite3";
import type { SqliteDatabase, SqliteStatement } from "kysely";

export function withStatementCache(connection: Sqlite.Database, capacity = 512): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => connection.close(),
    prepare(sql: string): SqliteStatement {
      let statement = statements.get(sql);
      if (!statement) {
        statement = connection.prepare(sql);
        statements.set(sql, statement);
        // Past the capacity the oldest statement goes (dynamic SQL such as IN lists of many sizes).
        if (statements.size > capacity) statements.delete(statements.keys().next().value as string);
      }
      return statement;
    },
  };
}
