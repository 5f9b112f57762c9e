/**
 * @module Transaction records: what `transaction_id` in a write response refers to.
 */
import type { Insertable, Kysely, Updateable } from "kysely";
import type { Database, NewTransactionRow, TransactionMapColumn, TransactionRow, TransactionRowUpdate, TransactionsTable } from "../schema.js";
import { decodeMaps, encodeMaps } from "./json-columns.js";

const maps: readonly TransactionMapColumn[] = ["properties"];

export interface TransactionRows {
  insertTransaction(row: NewTransactionRow): Promise<void>;
  findTransaction(database: string, id: string): Promise<TransactionRow | undefined>;
  updateTransaction(id: string, update: TransactionRowUpdate): Promise<void>;
}

export function transactionRows(db: Kysely<Database>): TransactionRows {
  return {
    async insertTransaction(row) {
      await db.insertInto("transactions").values(encodeMaps<Insertable<TransactionsTable>, TransactionMapColumn>(row, maps)).execute();
    },
    async findTransaction(database, id) {
      const row = await db.selectFrom("transactions").selectAll().where("database", "=", database).where("id", "=", id).executeTakeFirst();
      return row && decodeMaps(row, maps);
    },
    async updateTransaction(id, update) {
      await db.updateTable("transactions").set(encodeMaps<Updateable<TransactionsTable>, TransactionMapColumn>(update, maps)).where("id", "=", id).execute();
    },
  };
}
