/**
 * @module Tag operation models (spec/endpoints.md §8). `TagContents` keeps the camelCase
 * `manifestSize` the clients parse.
 */
import { Type, type Static } from "@sinclair/typebox";
import { delimiterField, Nullable, pageFields, pageQueryFields, PageResponse, RequestModel, ResponseModel, TransactionResponse, Version } from "./common.js";

export const TagContents = Type.Object(
  {
    branch: Type.Optional(Nullable(Type.String())),
    version: Version,
    manifestSize: Type.Integer({ minimum: 0 }),
  },
  { title: "TagContents" },
);
export type TagContents = Static<typeof TagContents>;

export const ListTableTagsRequest = RequestModel("ListTableTagsRequest", pageFields);
export type ListTableTagsRequest = Static<typeof ListTableTagsRequest>;

export const ListTableTagsResponse = PageResponse("ListTableTagsResponse", {
  tags: Type.Record(Type.String(), TagContents),
});
export type ListTableTagsResponse = Static<typeof ListTableTagsResponse>;

export const GetTableTagVersionRequest = RequestModel("GetTableTagVersionRequest", {
  tag: Type.String({ minLength: 1 }),
});
export type GetTableTagVersionRequest = Static<typeof GetTableTagVersionRequest>;

export const GetTableTagVersionResponse = ResponseModel("GetTableTagVersionResponse", {
  version: Version,
  /** The tagged version's branch: `main` for the main branch (the seed lists it in every answer). */
  branch: Type.String(),
});
export type GetTableTagVersionResponse = Static<typeof GetTableTagVersionResponse>;

/** Tag versions are validated in the catalog, so that -1 is InvalidInput (13) with a clear message. */
const tagFields = {
  tag: Type.String({ minLength: 1 }),
  version: Type.Integer({ description: "version the tag points to, >= 0" }),
  branch: Type.Optional(Nullable(Type.String())),
};

export const CreateTableTagRequest = RequestModel("CreateTableTagRequest", tagFields);
export type CreateTableTagRequest = Static<typeof CreateTableTagRequest>;

export const CreateTableTagResponse = TransactionResponse("CreateTableTagResponse");
export type CreateTableTagResponse = Static<typeof CreateTableTagResponse>;

export const UpdateTableTagRequest = RequestModel("UpdateTableTagRequest", tagFields);
export type UpdateTableTagRequest = Static<typeof UpdateTableTagRequest>;

export const UpdateTableTagResponse = TransactionResponse("UpdateTableTagResponse");
export type UpdateTableTagResponse = Static<typeof UpdateTableTagResponse>;

export const DeleteTableTagRequest = RequestModel("DeleteTableTagRequest", {
  tag: Type.String({ minLength: 1 }),
});
export type DeleteTableTagRequest = Static<typeof DeleteTableTagRequest>;

export const DeleteTableTagResponse = TransactionResponse("DeleteTableTagResponse");
export type DeleteTableTagResponse = Static<typeof DeleteTableTagResponse>;

/** Query string of tags/list (GET or bodiless POST). */
export const ListTableTagsQuery = Type.Object({
  ...delimiterField,
  ...pageQueryFields,
});
export type ListTableTagsQuery = Static<typeof ListTableTagsQuery>;
