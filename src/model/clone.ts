/**
 * @module CloneTable models: the body the LanceDB clients send to `POST /v1/table/{id}/clone`
 * (spec/clients.md §2.3) and Quiver's answer.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Nullable, RequestModel, ResponseModel, Version } from "./common.js";

export const CloneTableRequest = RequestModel("CloneTableRequest", {
  source_location: Type.String({ minLength: 1, description: "Location of the table to clone, as its describe answers it." }),
  source_version: Type.Optional(Nullable(Version)),
  source_tag: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  is_shallow: Type.Optional(Nullable(Type.Boolean({ description: "true (default): the clone reads the source's data files in place." }))),
});
export type CloneTableRequest = Static<typeof CloneTableRequest>;

export const CloneTableResponse = ResponseModel("CloneTableResponse", {
  location: Type.String(),
  version: Version,
});
export type CloneTableResponse = Static<typeof CloneTableResponse>;
