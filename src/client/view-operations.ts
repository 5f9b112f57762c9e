/**
 * @module Client operation entries of materialized views and column backfill (spec/endpoints.md
 * §6.5, §10). Refreshes and backfills answer a `job_id`; a server's workers run the job (a `dir`
 * client queues it for the next server started on the same folder).
 */
import * as M from "../model/index.js";
import { operation } from "./operation-types.js";

export const viewOperations = {
  /**
   * CreateMaterializedView: a view of kind `query`, `chunker` or `udtf` over a source table,
   * answering the creating `version` and, with `with_no_data: false`, the first refresh's
   * `job_id`. Throws 1, 4, 5, 13.
   */
  createMaterializedView: operation({
    operationId: "CreateMaterializedView",
    method: "POST",
    path: "/v1/materialized_view/{id}/create",
    target: "table",
    body: "json",
    request: M.CreateMaterializedViewRequest,
    response: { kind: "json", schema: M.CreateMaterializedViewResponse },
  }),

  /**
   * RefreshMaterializedView: queues a refresh job and answers its `job_id`; `output_limit` is for
   * chunker views only (13 otherwise). Throws 1, 4, 13.
   */
  refreshMaterializedView: operation({
    operationId: "RefreshMaterializedView",
    method: "POST",
    path: "/v1/materialized_view/{id}/refresh",
    target: "table",
    body: "json",
    request: M.RefreshMaterializedViewRequest,
    response: { kind: "json", schema: M.RefreshMaterializedViewResponse },
  }),

  /** AlterTableBackfillColumns: queues a job filling a computed column; answers its `job_id`. Throws 1, 4, 12, 13. */
  alterTableBackfillColumns: operation({
    operationId: "AlterTableBackfillColumns",
    method: "POST",
    path: "/v1/table/{id}/backfill_column",
    target: "table",
    body: "json",
    request: M.AlterTableBackfillColumnsRequest,
    response: { kind: "json", schema: M.AlterTableBackfillColumnsResponse },
  }),
};
