/**
 * @module Audit log rows, read newest first. Keyset pagination on (at, id) keeps pages stable
 * while new records arrive.
 */
import type { Insertable, Kysely } from "kysely";
import type { AuditLogTable, AuditMapColumn, AuditRow, Database, NewAuditRow } from "../schema.js";
import { decodeMaps, encodeMaps } from "./json-columns.js";

const maps: readonly AuditMapColumn[] = ["context"];

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
      await db.insertInto("audit_log").values(encodeMaps<Insertable<AuditLogTable>, AuditMapColumn>(row, maps)).execute();
    },
    async listAuditRecords(database, before, limit) {
      let query = db.selectFrom("audit_log").selectAll().orderBy("at", "desc").orderBy("id", "desc").limit(limit);
      if (database !== undefined) query = query.where("database", "=", database);
      if (before) {
        query = query.where((eb) => eb.or([eb("at", "<", before.at), eb.and([eb("at", "=", before.at), eb("id", "<", before.id)])]));
      }
      return (await query.execute()).map((row) => decodeMaps(row, maps));
    },
  };
}
