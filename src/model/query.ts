/**
 * @module Read models: query, count, explain/analyze, stats (spec/endpoints.md §3.9, §5.6–5.9).
 * `vector`, `columns` and `full_text_query` take both the spec's shapes and the LanceDB Cloud
 * client's (spec/clients.md §2.4); `catalog/queries/query-spec.ts` normalizes them.
 */
import { Type, type Static } from "@sinclair/typebox";
import { delimiterField, Nullable, readAtFields, RequestModel, ResponseModel, Version } from "./common.js";

const NonNegative = Nullable(Type.Integer({ minimum: 0 }));

/** The fields of a query, shared by QueryTable, ExplainTableQueryPlan's `query` and AnalyzeTableQueryPlan. */
export const queryFields = {
  branch: Type.Optional(Nullable(Type.String())),
  version: Type.Optional(Nullable(Version)),
  k: Type.Optional(Nullable(Type.Integer({ minimum: 0, description: "Max results; values ≥ 2^53 mean no limit" }))),
  offset: Type.Optional(NonNegative),
  vector: Type.Optional(
    Type.Unknown({
      description: "{single_vector: number[]} | {multi_vector: number[][]} | null | {}; the Cloud client's number[] or number[][] also",
    }),
  ),
  vector_column: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  distance_type: Type.Optional(Nullable(Type.String())),
  nprobes: Type.Optional(NonNegative),
  minimum_nprobes: Type.Optional(NonNegative),
  maximum_nprobes: Type.Optional(NonNegative),
  ef: Type.Optional(NonNegative),
  refine_factor: Type.Optional(NonNegative),
  lower_bound: Type.Optional(Nullable(Type.Number())),
  upper_bound: Type.Optional(Nullable(Type.Number())),
  bypass_vector_index: Type.Optional(Nullable(Type.Boolean())),
  fast_search: Type.Optional(Nullable(Type.Boolean())),
  prefilter: Type.Optional(Nullable(Type.Boolean())),
  filter: Type.Optional(Nullable(Type.String())),
  full_text_query: Type.Optional(
    Type.Unknown({ description: "{string_query: {query, columns?}} | {structured_query: {query: FtsQuery}}; the Cloud client's {query, columns?} also" }),
  ),
  columns: Type.Optional(
    Type.Unknown({ description: "{column_names: string[]} | {column_aliases: {alias: path}}; the Cloud client's string[] or {alias: sql} also" }),
  ),
  with_row_id: Type.Optional(Nullable(Type.Boolean())),
  order_by: Type.Optional(
    Nullable(
      Type.Array(
        Type.Object({
          column_name: Type.String({ minLength: 1 }),
          ascending: Type.Optional(Nullable(Type.Boolean())),
          nulls_first: Type.Optional(Nullable(Type.Boolean())),
        }),
      ),
    ),
  ),
};

export const QueryTableRequest = RequestModel("QueryTableRequest", queryFields);
export type QueryTableRequest = Static<typeof QueryTableRequest>;

export const CountTableRowsRequest = RequestModel("CountTableRowsRequest", {
  ...readAtFields,
  predicate: Type.Optional(Nullable(Type.String())),
});
export type CountTableRowsRequest = Static<typeof CountTableRowsRequest>;

export const ExplainTableQueryPlanRequest = RequestModel("ExplainTableQueryPlanRequest", {
  branch: Type.Optional(Nullable(Type.String())),
  query: Type.Object(queryFields, { additionalProperties: true }),
  verbose: Type.Optional(Nullable(Type.Boolean({ default: false }))),
});
export type ExplainTableQueryPlanRequest = Static<typeof ExplainTableQueryPlanRequest>;

/** Flat: the fields of a query at the top level (spec/endpoints.md §5.9). */
export const AnalyzeTableQueryPlanRequest = RequestModel("AnalyzeTableQueryPlanRequest", queryFields);
export type AnalyzeTableQueryPlanRequest = Static<typeof AnalyzeTableQueryPlanRequest>;

/** AnalyzeTableQueryPlan's query string; the LanceDB clients' `distributed_metrics` is accepted and ignored. */
export const AnalyzeTableQueryPlanQuery = Type.Object({
  ...delimiterField,
  distributed_metrics: Type.Optional(Type.String()),
});

export const GetTableStatsRequest = RequestModel("GetTableStatsRequest", {
  branch: Type.Optional(Nullable(Type.String())),
});
export type GetTableStatsRequest = Static<typeof GetTableStatsRequest>;

const Count = Type.Integer({ minimum: 0 });

export const GetTableStatsResponse = ResponseModel("GetTableStatsResponse", {
  total_bytes: Count,
  num_rows: Count,
  num_indices: Count,
  fragment_stats: Type.Object({
    num_fragments: Count,
    num_small_fragments: Count,
    lengths: Type.Object({ min: Count, max: Count, mean: Count, p25: Count, p50: Count, p75: Count, p99: Count }),
  }),
});
export type GetTableStatsResponse = Static<typeof GetTableStatsResponse>;
