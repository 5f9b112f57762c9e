/**
 * @module Arrow schema → the JSON schema with Lance's logical type names that the LanceDB
 * Cloud client parses (spec/clients.md §2.5): `float`/`double`/`string`, not `float32`/`utf8`.
 */
import { DataType, Field, Schema, Type } from "apache-arrow-21";
import type { JsonArrowDataType, JsonArrowField, JsonArrowSchema } from "../model/schema-json.js";

const timeUnits = ["s", "ms", "us", "ns"] as const;

export function toJsonSchema(schema: Schema): JsonArrowSchema {
  const json: JsonArrowSchema = { fields: schema.fields.map(toJsonField) };
  if (schema.metadata.size > 0) json.metadata = Object.fromEntries(schema.metadata);
  return json;
}

export function toJsonField(field: Field): JsonArrowField {
  const json: JsonArrowField = { name: field.name, type: toJsonType(field.type), nullable: field.nullable };
  if (field.metadata.size > 0) json.metadata = Object.fromEntries(field.metadata);
  return json;
}

/** Lance's name for a data type; unknown types are named by Arrow so nothing is hidden. */
export function toJsonType(type: DataType): JsonArrowDataType {
  const t = type as DataType & Record<string, unknown>;
  switch (type.typeId) {
    case Type.Null:
      return { type: "null" };
    case Type.Bool:
      return { type: "bool" };
    case Type.Int:
      return { type: `${t.isSigned ? "int" : "uint"}${t.bitWidth as number}` };
    case Type.Float:
      return { type: (["halffloat", "float", "double"] as const)[t.precision as number] ?? "double" };
    case Type.Utf8:
      return { type: "string" };
    case Type.LargeUtf8:
      return { type: "large_string" };
    case Type.Binary:
      return { type: "binary" };
    case Type.LargeBinary:
      return { type: "large_binary" };
    case Type.Date:
      return { type: (t.unit as number) === 0 ? "date32:day" : "date64:ms" };
    case Type.Time:
      return { type: `time${t.bitWidth as number}:${timeUnits[t.unit as number]}` };
    case Type.Timestamp:
      return { type: `timestamp:${timeUnits[t.unit as number]}:${(t.timezone as string | null) ?? "-"}` };
    case Type.Duration:
      return { type: `duration:${timeUnits[t.unit as number]}` };
    case Type.Decimal:
      return { type: `decimal:${t.bitWidth as number}:${t.precision as number}:${t.scale as number}` };
    case Type.Dictionary: {
      const value = toJsonType(t.dictionary as DataType).type;
      const key = toJsonType(t.indices as DataType).type;
      return { type: `dict:${value}:${key}:false` };
    }
    case Type.FixedSizeBinary:
      return { type: "fixed_size_binary", length: t.byteWidth as number };
    case Type.FixedSizeList:
      return { type: "fixed_size_list", fields: type.children.map(toJsonField), length: t.listSize as number };
    case Type.List:
      return { type: "list", fields: type.children.map(toJsonField) };
    case Type.Struct:
      return { type: "struct", fields: type.children.map(toJsonField) };
    case Type.Map:
      return { type: "map", fields: type.children.map(toJsonField) };
    default:
      return { type: String(type).toLowerCase() };
  }
}
