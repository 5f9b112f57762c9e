/**
 * @module AlterTableBackfillColumns models (spec/endpoints.md §6.5): fills a computed column
 * as an asynchronous job.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Nullable, RequestModel, ResponseModel } from "./common.js";

const OptionalInt = Type.Optional(Nullable(Type.Integer({ minimum: 0 })));

export const AlterTableBackfillColumnsRequest = RequestModel("AlterTableBackfillColumnsRequest", {
  branch: Type.Optional(Nullable(Type.String())),
  column: Type.String({ minLength: 1 }),
  where: Type.Optional(Nullable(Type.String())),
  concurrency: OptionalInt,
  intra_applier_concurrency: OptionalInt,
  min_checkpoint_size: OptionalInt,
  max_checkpoint_size: OptionalInt,
  batch_checkpoint_flush_interval_seconds: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
  read_version: OptionalInt,
  task_size: OptionalInt,
  num_frags: OptionalInt,
  checkpoint_size: OptionalInt,
  commit_granularity: OptionalInt,
  cluster: Type.Optional(Nullable(Type.String())),
  manifest: Type.Optional(Nullable(Type.String())),
});
export type AlterTableBackfillColumnsRequest = Static<typeof AlterTableBackfillColumnsRequest>;

export const AlterTableBackfillColumnsResponse = ResponseModel("AlterTableBackfillColumnsResponse", {
  job_id: Type.String(),
});
export type AlterTableBackfillColumnsResponse = Static<typeof AlterTableBackfillColumnsResponse>;
