/**
 * @module Namespace operation models (spec/endpoints.md §2.1–2.6).
 */
import { Type, type Static } from "@sinclair/typebox";
import { delimiterField, Nullable, pageFields, pageQueryFields, PageResponse, RequestModel, ResponseModel, StringMap } from "./common.js";

export const CreateNamespaceRequest = RequestModel("CreateNamespaceRequest", {
  mode: Type.Optional(Nullable(Type.String({ description: "Create | ExistOk | Overwrite (default Create)" }))),
  properties: Type.Optional(Nullable(StringMap)),
});
export type CreateNamespaceRequest = Static<typeof CreateNamespaceRequest>;

export const CreateNamespaceResponse = ResponseModel("CreateNamespaceResponse", {
  transaction_id: Type.Optional(Type.String()),
  properties: Type.Optional(Nullable(StringMap)),
});
export type CreateNamespaceResponse = Static<typeof CreateNamespaceResponse>;

export const ListNamespacesRequest = RequestModel("ListNamespacesRequest", pageFields);
export type ListNamespacesRequest = Static<typeof ListNamespacesRequest>;

export const ListNamespacesResponse = PageResponse("ListNamespacesResponse", {
  namespaces: Type.Array(Type.String()),
});
export type ListNamespacesResponse = Static<typeof ListNamespacesResponse>;

export const DescribeNamespaceRequest = RequestModel("DescribeNamespaceRequest", {});
export type DescribeNamespaceRequest = Static<typeof DescribeNamespaceRequest>;

export const DescribeNamespaceResponse = ResponseModel("DescribeNamespaceResponse", {
  properties: Type.Optional(Nullable(StringMap)),
});
export type DescribeNamespaceResponse = Static<typeof DescribeNamespaceResponse>;

export const DropNamespaceRequest = RequestModel("DropNamespaceRequest", {
  mode: Type.Optional(Nullable(Type.String({ description: "Fail (default) | Skip" }))),
  behavior: Type.Optional(Nullable(Type.String({ description: "Restrict (default) | Cascade" }))),
});
export type DropNamespaceRequest = Static<typeof DropNamespaceRequest>;

export const DropNamespaceResponse = ResponseModel("DropNamespaceResponse", {
  properties: Type.Optional(Nullable(StringMap)),
  transaction_id: Type.Optional(Type.Array(Type.String())),
});
export type DropNamespaceResponse = Static<typeof DropNamespaceResponse>;

export const NamespaceExistsRequest = RequestModel("NamespaceExistsRequest", {});
export type NamespaceExistsRequest = Static<typeof NamespaceExistsRequest>;

export const ListTablesRequest = RequestModel("ListTablesRequest", {
  ...pageFields,
  include_declared: Type.Optional(Nullable(Type.Boolean({ default: true }))),
});
export type ListTablesRequest = Static<typeof ListTablesRequest>;

export const ListTablesResponse = PageResponse("ListTablesResponse", {
  tables: Type.Array(Type.String()),
});
export type ListTablesResponse = Static<typeof ListTablesResponse>;

/** Query string of the list routes (GET, no body). */
export const ListQuery = Type.Object({
  ...delimiterField,
  ...pageQueryFields,
  include_declared: Type.Optional(Type.Boolean()),
});
export type ListQuery = Static<typeof ListQuery>;
