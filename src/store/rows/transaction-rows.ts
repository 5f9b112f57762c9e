/**
 * @module Transaction records: what `transaction_id` in a write response refers to.
 */
import type { Kysely } from "kysely";
import type { Database, NewTransactionRow, TransactionRow, TransactionRowUpdate } from "../schema.js";

export interface TransactionRows {
  insertTransaction(row: NewTransactionRow): Promise<void>;
  findTransaction(database: string, id: string): Promise<TransactionRow | undefined>;
  updateTransaction(id: string, update: TransactionRowUpdate): Promise<void>;
}

export function transactionRows(db: Kysely<Database>): TransactionRows {
  return {
    async insertTransaction(row) {
      await db.insertInto("transactions").values(row).execute();
    },
    findTransaction: (database, id) =>
      db.selectFrom("transactions").selectAll().where("database", "=", database).where("id", "=", id).executeTakeFirst(),
    async updateTransaction(id, update) {
      await db.updateTable("transactions").set(update).where("id", "=", id).execute();
    },
  };
}
