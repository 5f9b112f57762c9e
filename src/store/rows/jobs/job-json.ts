/**
 * @module The JSON columns of jobs and work items, encoded and decoded here for every job row
 * function, so callers pass and get objects; the stored text is `JSON.stringify` of the object.
 */
import type { Insertable, Selectable } from "kysely";
import type { JobItemRow, JobItemsTable, JobJson, JobRow, JobsTable, NewJobRow } from "../../job-schema.js";

/** A job's row as read, its params, state and result decoded. */
export function decodedJob(row: Selectable<JobsTable>): JobRow {
  return {
    ...row,
    params: JSON.parse(row.params) as JobJson,
    state: JSON.parse(row.state) as JobJson,
    result: row.result ? (JSON.parse(row.result) as JobJson) : null,
  };
}

/** A new job's row to write, its params, state and result encoded. */
export function encodedJob(row: NewJobRow): Insertable<JobsTable> {
  return { ...row, params: JSON.stringify(row.params), state: JSON.stringify(row.state), result: row.result === null ? null : JSON.stringify(row.result) };
}

/** A work item as read, its params decoded. */
export function decodedJobItem(row: Selectable<JobItemsTable>): JobItemRow {
  return { ...row, params: JSON.parse(row.params) as JobJson };
}
