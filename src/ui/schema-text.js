/**
 * A field's JsonArrowDataType as the one line the console shows it in: the schema table, the
 * comparison of two versions.
 */

/** `fixed_size_list<float32>[128]`, `struct<…>`: a JsonArrowDataType as one line. */
export function typeText(type) {
  const children = type.fields ?? [];
  switch (type.type) {
    case "list":
    case "large_list":
      return `${type.type}<${children[0] ? typeText(children[0].type) : "?"}>`;
    case "fixed_size_list":
      return `fixed_size_list<${children[0] ? typeText(children[0].type) : "?"}>[${type.length}]`;
    case "struct":
      return "struct";
    case "fixed_size_binary":
      return `fixed_size_binary[${type.length}]`;
    default:
      return type.length === undefined ? type.type : `${type.type}(${type.length})`;
  }
}
