/**
 * @module Request budgets shared by every replica on a PostgreSQL store, as one row per budget
 * (a caller's or a database's) holding when it is next fully spent (the generic cell rate
 * algorithm): a request may pass while that moment, pushed on by one request's interval, stays
 * within the budget's tolerance of now. One statement takes a request from several budgets in
 * order, each only when the ones before it admitted it, timed by the database's clock so that
 * replicas whose clocks differ still share one budget.
 */
import { type Kysely, sql } from "kysely";
import type { RateCell, RateTake } from "../../model/rate-budgets.js";
import type { Database } from "../schema.js";


export interface RateLimitRows {
  /**
   * Takes one request from every budget of `cells`, in order; when one refuses it, those before
   * it are given their request back, so a refused request costs no budget. PostgreSQL only: on
   * SQLite one process serves and keeps its budgets in memory.
   */
  takeRateLimitCells(cells: readonly RateCell[]): Promise<RateTake>;
  /** Removes the budgets that are whole again: a missing row is a whole budget, so nothing changes but the table's size. */
  forgetWholeRateLimitCells(): Promise<void>;
}

interface TakeRow {
  now: number;
  [column: string]: number | boolean | null;
}

export function rateLimitRows(db: Kysely<Database>, dialect: "sqlite" | "postgres"): RateLimitRows {
  return {
    async takeRateLimitCells(cells) {
      if (cells.length === 0) return { admitted: true };
      if (dialect !== "postgres") throw new Error("shared request budgets need a PostgreSQL store");
      const now = sql`(select now from clock)`;
      const steps = cells.map((cell, index) => {
        const previous = index === 0 ? sql`` : sql`where exists (select 1 from ${sql.raw(`take_${index - 1}`)})`;
        const next = sql`greatest(c.due_at, ${now}) + ${cell.intervalSeconds}::float8`;
        return sql`${sql.raw(`take_${index}`)} as (
          insert into rate_limit_cells as c (key, due_at) select ${cell.key}, now + ${cell.intervalSeconds}::float8 from clock ${previous}
          on conflict (key) do update set due_at = ${next} where ${next} - ${now} <= ${cell.toleranceSeconds}::float8
          returning due_at)`;
      });
      // The outer select reads the rows as they were before this statement: the refusing budget's due time.
      const outcomes = cells.map(
        (cell, index) =>
          sql`exists (select 1 from ${sql.raw(`take_${index}`)}) as ${sql.raw(`admitted_${index}`)}, (select due_at from rate_limit_cells where key = ${cell.key}) as ${sql.raw(`due_${index}`)}`,
      );
      const { rows } = await sql<TakeRow>`with clock as (select extract(epoch from clock_timestamp())::float8 as now), ${sql.join(steps)}
        select (select now from clock) as now, ${sql.join(outcomes)}`.execute(db);
      const row = rows[0] as TakeRow;
      const refused = cells.findIndex((_, index) => row[`admitted_${index}`] !== true);
      if (refused < 0) return { admitted: true };
      const cell = cells[refused] as RateCell;
      const due = Math.max(Number(row[`due_${refused}`] ?? row.now), row.now);
      for (const given of cells.slice(0, refused)) {
        await db.updateTable("rate_limit_cells").set({ due_at: sql`due_at - ${given.intervalSeconds}::float8` }).where("key", "=", given.key).execute();
      }
      return { admitted: false, refusedKey: cell.key, waitSeconds: Math.max(0, due + cell.intervalSeconds - cell.toleranceSeconds - row.now) };
    },
    async forgetWholeRateLimitCells() {
      if (dialect !== "postgres") return;
      await sql`delete from rate_limit_cells where due_at < extract(epoch from clock_timestamp())::float8`.execute(db);
    },
  };
}
