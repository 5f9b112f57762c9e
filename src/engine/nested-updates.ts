/**
 * @module Updates of nested struct fields. Lance's update takes top-level columns only, so
 * `["meta.x", "meta.x + 1"]` becomes an update of `meta` to a struct rebuilt with
 * `named_struct(...)`: changed fields take their expression, the others keep their value.
 */
import { type DataType, type Field, Type } from "apache-arrow-21";
import { schemaOfIpcFile } from "./arrow-ipc.js";
import type { Engine } from "./engine.js";
import { EngineError } from "./engine-errors.js";
import { formatFieldPath, parseFieldPath, sqlReference } from "./field-paths.js";
import type { NativeTable } from "./lance-native.js";

/** Changes below one struct: a field either takes an expression or has changes below it. */
type Changes = Map<string, string | Changes>;

/** Top-level `[column, expression]` pairs equivalent to `updates`. */
export async function rewriteNestedUpdates(engine: Engine, table: NativeTable, updates: [string, string][]): Promise<[string, string][]> {
  const parsed = updates.map(([path, expression]) => ({ segments: parseFieldPath(path), expression }));
  if (parsed.every((u) => u.segments.length === 1)) return parsed.map((u) => [u.segments[0] as string, u.expression]);

  const schema = schemaOfIpcFile(await engine.call(() => table.schema()));
  const topLevel = new Map<string, string | Changes>();
  for (const { segments, expression } of parsed) addChange(topLevel, segments, expression, []);
  const result: [string, string][] = [];
  for (const [name, change] of topLevel) {
    if (typeof change === "string") {
      result.push([name, change]);
      continue;
    }
    const field = schema.fields.find((f) => f.name === name);
    if (!field) throw new EngineError("column-not-found", `field ${formatFieldPath([name])} not found`);
    result.push([name, rebuildStruct(field, [name], change)]);
  }
  return result;
}

function addChange(changes: Changes, segments: string[], expression: string, parents: string[]): void {
  const [head, ...rest] = segments as [string, ...string[]];
  const existing = changes.get(head);
  const path = formatFieldPath([...parents, head]);
  if (rest.length === 0) {
    if (existing !== undefined) throw new EngineError("invalid-input", `field ${path} is updated twice`);
    changes.set(head, expression);
    return;
  }
  if (typeof existing === "string") throw new EngineError("invalid-input", `field ${path} is updated both whole and in part`);
  const below = existing ?? new Map();
  changes.set(head, below);
  addChange(below, rest, expression, [...parents, head]);
}

function rebuildStruct(field: Field, path: string[], changes: Changes): string {
  if (field.type.typeId !== Type.Struct) throw new EngineError("invalid-input", `field ${formatFieldPath(path)} is not a struct`);
  const children = (field.type as DataType).children;
  for (const name of changes.keys()) {
    if (!children.some((child) => child.name === name)) throw new EngineError("column-not-found", `field ${formatFieldPath([...path, name])} not found`);
  }
  const parts = children.map((child) => {
    const change = changes.get(child.name);
    const value =
      change === undefined ? sqlReference([...path, child.name]) : typeof change === "string" ? `(${change})` : rebuildStruct(child, [...path, child.name], change);
    return `'${child.name.replace(/'/g, "''")}', ${value}`;
  });
  return `named_struct(${parts.join(", ")})`;
}
