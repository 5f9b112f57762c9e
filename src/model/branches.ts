/**
 * @module Branch operation models (spec/endpoints.md §9). `BranchContents` keeps the camelCase
 * keys the clients parse (`createAt` is Unix seconds).
 */
import { Type, type Static } from "@sinclair/typebox";
import { delimiterField, Nullable, pageFields, pageQueryFields, PageResponse, RequestModel, ResponseModel, StringMap, TransactionResponse, Version } from "./common.js";

export const BranchContents = Type.Object(
  {
    parentBranch: Type.Optional(Nullable(Type.String())),
    parentVersion: Version,
    createAt: Type.Integer({ minimum: 0 }),
    manifestSize: Type.Integer({ minimum: 0 }),
    metadata: Type.Optional(StringMap),
  },
  { title: "BranchContents" },
);
export type BranchContents = Static<typeof BranchContents>;

export const ListTableBranchesRequest = RequestModel("ListTableBranchesRequest", pageFields);
export type ListTableBranchesRequest = Static<typeof ListTableBranchesRequest>;

export const ListTableBranchesResponse = PageResponse("ListTableBranchesResponse", {
  branches: Type.Record(Type.String(), BranchContents),
});
export type ListTableBranchesResponse = Static<typeof ListTableBranchesResponse>;

export const ListTableBranchesQuery = Type.Object({
  ...delimiterField,
  ...pageQueryFields,
});
export type ListTableBranchesQuery = Static<typeof ListTableBranchesQuery>;

export const CreateTableBranchRequest = RequestModel("CreateTableBranchRequest", {
  name: Type.String({ minLength: 1 }),
  from_branch: Type.Optional(Nullable(Type.String())),
  from_version: Type.Optional(Nullable(Version)),
});
export type CreateTableBranchRequest = Static<typeof CreateTableBranchRequest>;

export const CreateTableBranchResponse = TransactionResponse("CreateTableBranchResponse");
export type CreateTableBranchResponse = Static<typeof CreateTableBranchResponse>;

export const DeleteTableBranchRequest = RequestModel("DeleteTableBranchRequest", {
  name: Type.String({ minLength: 1 }),
});
export type DeleteTableBranchRequest = Static<typeof DeleteTableBranchRequest>;

export const DeleteTableBranchResponse = TransactionResponse("DeleteTableBranchResponse");
export type DeleteTableBranchResponse = Static<typeof DeleteTableBranchResponse>;

/** DiffTableBranch (the LanceDB clients' `branches/diff`): what `from_branch` changed. */
export const DiffTableBranchRequest = RequestModel("DiffTableBranchRequest", {
  from_branch: Type.String({ minLength: 1 }),
});
export type DiffTableBranchRequest = Static<typeof DiffTableBranchRequest>;

export const DiffTableBranchResponse = ResponseModel("DiffTableBranchResponse", {});
export type DiffTableBranchResponse = Static<typeof DiffTableBranchResponse>;

/** CherryPickTableBranch (the LanceDB clients' `branches/cherry_pick`): applies `from_branch`'s changes. */
export const CherryPickTableBranchRequest = RequestModel("CherryPickTableBranchRequest", {
  from_branch: Type.String({ minLength: 1 }),
  dry_run: Type.Optional(Nullable(Type.Boolean())),
});
export type CherryPickTableBranchRequest = Static<typeof CherryPickTableBranchRequest>;

export const CherryPickTableBranchResponse = ResponseModel("CherryPickTableBranchResponse", {});
export type CherryPickTableBranchResponse = Static<typeof CherryPickTableBranchResponse>;
