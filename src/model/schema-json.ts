/**
 * @module JSON form of an Arrow schema with Lance's type names (spec/endpoints.md §12.1,
 * spec/clients.md §2.5).
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { StringMap } from "./common.js";

export interface JsonArrowDataType {
  type: string;
  fields?: JsonArrowField[];
  length?: number;
}
export interface JsonArrowField {
  name: string;
  type: JsonArrowDataType;
  nullable: boolean;
  metadata?: Record<string, string>;
}
export interface JsonArrowSchema {
  fields: JsonArrowField[];
  metadata?: Record<string, string>;
}

const FieldRef = Type.Unsafe<JsonArrowField>(Type.Ref("JsonArrowField"));

export const JsonArrowDataType: TSchema = Type.Object(
  {
    type: Type.String(),
    fields: Type.Optional(Type.Array(FieldRef)),
    length: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { $id: "JsonArrowDataType" },
);

export const JsonArrowField: TSchema = Type.Object(
  {
    name: Type.String(),
    type: Type.Unsafe<JsonArrowDataType>(Type.Ref("JsonArrowDataType")),
    nullable: Type.Boolean(),
    metadata: Type.Optional(StringMap),
  },
  { $id: "JsonArrowField" },
);

export const JsonArrowSchema = Type.Object(
  {
    fields: Type.Array(FieldRef),
    metadata: Type.Optional(StringMap),
  },
  { $id: "JsonArrowSchema" },
);
export type JsonArrowSchemaStatic = Static<typeof JsonArrowSchema>;

/** Schemas that others reference by `$ref`; registered once with the server. */
export const sharedSchemas: TSchema[] = [JsonArrowDataType, JsonArrowField];
