/**
 * @module Transaction models (spec/endpoints.md §11). Action keys are camelCase in the spec.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Nullable, RequestModel, ResponseModel, StringMap } from "./common.js";

export const TransactionStatuses = ["Queued", "Running", "Succeeded", "Failed", "Canceled"] as const;
export type TransactionStatus = (typeof TransactionStatuses)[number];
export const SetPropertyModes = ["Overwrite", "Fail", "Skip"] as const;
export const UnsetPropertyModes = ["Skip", "Fail"] as const;

export const DescribeTransactionRequest = RequestModel("DescribeTransactionRequest", {});
export type DescribeTransactionRequest = Static<typeof DescribeTransactionRequest>;

export const DescribeTransactionResponse = ResponseModel("DescribeTransactionResponse", {
  status: Type.String({ description: "Queued | Running | Succeeded | Failed | Canceled" }),
  properties: Type.Optional(StringMap),
});
export type DescribeTransactionResponse = Static<typeof DescribeTransactionResponse>;

export const AlterTransactionAction = Type.Object(
  {
    setStatusAction: Type.Optional(Nullable(Type.Object({ status: Type.Optional(Nullable(Type.String())) }))),
    setPropertyAction: Type.Optional(
      Nullable(
        Type.Object({
          key: Type.Optional(Nullable(Type.String())),
          value: Type.Optional(Nullable(Type.String())),
          mode: Type.Optional(Nullable(Type.String({ description: "Overwrite (default) | Fail | Skip" }))),
        }),
      ),
    ),
    unsetPropertyAction: Type.Optional(
      Nullable(
        Type.Object({
          key: Type.Optional(Nullable(Type.String())),
          mode: Type.Optional(Nullable(Type.String({ description: "Skip (default) | Fail" }))),
        }),
      ),
    ),
  },
  { title: "AlterTransactionAction" },
);
export type AlterTransactionAction = Static<typeof AlterTransactionAction>;

export const AlterTransactionRequest = RequestModel("AlterTransactionRequest", {
  actions: Type.Array(AlterTransactionAction, { minItems: 1 }),
});
export type AlterTransactionRequest = Static<typeof AlterTransactionRequest>;

export const AlterTransactionResponse = ResponseModel("AlterTransactionResponse", {
  status: Type.String(),
  properties: Type.Optional(StringMap),
});
export type AlterTransactionResponse = Static<typeof AlterTransactionResponse>;
