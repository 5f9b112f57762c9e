/**
 * @module Audit log rows, read newest first. Keyset pagination on (at, id) keeps pages stable
 * while new records arrive.
 */
import type { Kysely } from "kysely";
import type { AuditRow, Database, NewAuditRow } from "../schema.js";

export interface AuditCursor {
  at: number;
  id: string;
}

export interface AuditRows {
  insertAuditRecord(row: NewAuditRow): Promise<void>;
  /** Records of one database (or of all with undefined), newest first, strictly before `before`. */
  listAuditRecords(database: string | undefined, before: AuditCursor | undefined, limit: number): Promise<AuditRow[]>;
}

export function auditRows(db: Kysely<Database>): AuditRows {
  return {
    async insertAuditRecord(row) {
      await db.insertInto("audit_log").values(row).execute();
    },
    listAuditRecords(database, before, limit) {
      let query = db.selectFrom("audit_log").selectAll().orderBy("at", "desc").orderBy("id", "desc").limit(limit);
      if (database !== undefined) query = query.where("database", "=", database);
      if (before) {
        query = query.where((eb) => eb.or([eb("at", "<", before.at), eb.and([eb("at", "=", before.at), eb("id", "<", before.id)])]));
      }
      return query.execute();
    },
  };
}
