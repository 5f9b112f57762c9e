/**
 * @module Multipart writes and their staged parts (see schema.ts): what every replica needs to
 * take a part, complete or abort an upload, whichever replica created it.
 */
import type { Kysely, Selectable } from "kysely";
import type { Database, MultipartPartsTable, MultipartWritesTable } from "../schema.js";

export type MultipartWriteRow = Selectable<MultipartWritesTable>;
export type MultipartPartRow = Selectable<MultipartPartsTable>;

export interface MultipartWriteRows {
  insertMultipartWrite(row: MultipartWriteRow): Promise<void>;
  findMultipartWrite(uploadId: string): Promise<MultipartWriteRow | undefined>;
  updateMultipartWrite(uploadId: string, changes: Partial<Omit<MultipartWriteRow, "upload_id">>): Promise<void>;
  /** Forgets an upload and its parts' records. */
  deleteMultipartWrite(uploadId: string): Promise<void>;
  /** Records a staged part; the same part sent again replaces the record. */
  putMultipartPart(row: MultipartPartRow): Promise<void>;
  listMultipartParts(uploadId: string): Promise<MultipartPartRow[]>;
  deleteMultipartParts(uploadId: string): Promise<void>;
  /** Uploads whose time has run out, oldest first. */
  listExpiredMultipartWrites(now: number, limit: number): Promise<MultipartWriteRow[]>;
}

export function multipartWriteRows(db: Kysely<Database>): MultipartWriteRows {
  const asWrite = (row: MultipartWriteRow): MultipartWriteRow => ({
    ...row,
    overwrite: Number(row.overwrite),
    base_version: row.base_version === null ? null : Number(row.base_version),
    version: row.version === null ? null : Number(row.version),
    num_rows: row.num_rows === null ? null : Number(row.num_rows),
    created_at: Number(row.created_at),
    expires_at: Number(row.expires_at),
  });
  const asPart = (row: MultipartPartRow): MultipartPartRow => ({
    ...row,
    num_rows: Number(row.num_rows),
    bytes: Number(row.bytes),
    created_at: Number(row.created_at),
  });
  return {
    async insertMultipartWrite(row) {
      await db.insertInto("multipart_writes").values(row).execute();
    },
    async findMultipartWrite(uploadId) {
      const row = await db.selectFrom("multipart_writes").selectAll().where("upload_id", "=", uploadId).executeTakeFirst();
      return row && asWrite(row);
    },
    async updateMultipartWrite(uploadId, changes) {
      await db.updateTable("multipart_writes").set(changes).where("upload_id", "=", uploadId).execute();
    },
    async deleteMultipartWrite(uploadId) {
      await db.deleteFrom("multipart_parts").where("upload_id", "=", uploadId).execute();
      await db.deleteFrom("multipart_writes").where("upload_id", "=", uploadId).execute();
    },
    async putMultipartPart(row) {
      await db
        .insertInto("multipart_parts")
        .values(row)
        .onConflict((conflict) => conflict.columns(["upload_id", "part_id"]).doUpdateSet({ object: row.object, num_rows: row.num_rows, bytes: row.bytes, created_at: row.created_at }))
        .execute();
    },
    async listMultipartParts(uploadId) {
      const rows = await db.selectFrom("multipart_parts").selectAll().where("upload_id", "=", uploadId).orderBy("created_at").orderBy("part_id").execute();
      return rows.map(asPart);
    },
    async deleteMultipartParts(uploadId) {
      await db.deleteFrom("multipart_parts").where("upload_id", "=", uploadId).execute();
    },
    async listExpiredMultipartWrites(now, limit) {
      const rows = await db.selectFrom("multipart_writes").selectAll().where("expires_at", "<", now).orderBy("expires_at").limit(limit).execute();
      return rows.map(asWrite);
    },
  };
}
