/**
 * @module Schema evolution: add columns from SQL (evaluated once, or kept as computed
 * columns), alter (rename, nullability, type), drop, edit field metadata and add schema metadata.
 */
import { schemaOfIpcFile, schemaOnlyIpcFile } from "./arrow-ipc.js";
import { withCommitRetry } from "./commit-retry.js";
import type { Engine, TableRef } from "./engine.js";
import { EngineError } from "./engine-errors.js";
import { formatFieldPath, parseFieldPath } from "./field-paths.js";
import type { NativeTable } from "./lance-native.js";
import type * as Native from "lancedb-native-types";
import { type Field, Schema } from "apache-arrow-21";
import { inSpan } from "../tracing/spans.js";

export interface NewColumn {
  name: string;
  /** SQL evaluated over existing rows; later rows read null. */
  expression?: string;
  /** SQL kept as a computed column: starts all-null, filled by backfill. */
  computed?: string;
}

async function writing(engine: Engine, location: string, ref: TableRef, fn: (table: NativeTable) => Promise<{ version: number }>): Promise<number> {
  return withCommitRetry(engine.commitAttempts, async () => {
    const table = await engine.openTable(location, ref);
    return (await engine.call(() => fn(table))).version;
  });
}

/**
 * Adds columns; expression columns and computed columns commit one version each kind. When the
 * second commit fails, the first is undone (a restore of the version before it), so the request
 * leaves the table's content as it found it.
 */
function addColumns(engine: Engine, location: string, ref: TableRef, columns: NewColumn[]): Promise<number> {
  return inSpan("engine.addColumns", { "quiver.table.location": location }, async () => {
    const plain = columns.filter((c) => c.expression !== undefined).map((c) => ({ name: c.name, valueSql: c.expression as string }));
    const computed = columns.filter((c) => c.computed !== undefined).map((c) => ({ name: c.name, valueSql: c.computed as string }));
    if (plain.length === 0) return writing(engine, location, ref, (table) => table.addComputedColumns(computed));
    const before = await engine.call(async () => (await engine.openTable(location, ref)).version());
    const version = await writing(engine, location, ref, (table) => table.addColumns(plain));
    if (computed.length === 0) return version;
    try {
      return await writing(engine, location, ref, (table) => table.addComputedColumns(computed));
    } catch (error) {
      await engine.restoreTable(location, before, ref.branch);
      throw error;
    }
  });
}

export interface ColumnChange {
  path: string;
  rename?: string;
  nullable?: boolean;
  /** A Lance type name (`int64`) or a JSON Arrow data type. */
  dataType?: string | Record<string, unknown>;
}

function alterColumns(engine: Engine, location: string, ref: TableRef, changes: ColumnChange[]): Promise<number> {
  return inSpan("engine.alterColumns", { "quiver.table.location": location }, async () => {
    const alterations: Native.ColumnAlteration[] = changes.map((change) => {
      const alteration: Native.ColumnAlteration = { path: change.path };
      if (change.rename != null) alteration.rename = change.rename;
      if (change.nullable != null) alteration.nullable = change.nullable;
      if (change.dataType != null) alteration.dataType = JSON.stringify(typeof change.dataType === "string" ? { type: change.dataType } : change.dataType);
      return alteration;
    });
    return writing(engine, location, ref, (table) => table.alterColumns(alterations));
  });
}

function dropColumns(engine: Engine, location: string, ref: TableRef, paths: string[]): Promise<number> {
  return inSpan("engine.dropColumns", { "quiver.table.location": location }, async () => {
    return writing(engine, location, ref, (table) => table.dropColumns(paths));
  });
}

export interface FieldMetadataChange {
  path: string;
  /** Keys to set; a null value removes the key. */
  metadata: Record<string, string | null>;
  replace?: boolean;
}

/** Edits field metadata; returns the version and each changed field's metadata afterwards. */
async function updateFieldMetadata(
  engine: Engine,
  location: string,
  ref: TableRef,
  changes: FieldMetadataChange[],
): Promise<{ version: number; fields: Record<string, Record<string, string>> }> {
  let fields: Record<string, Record<string, string>> = {};
  const version = await writing(engine, location, ref, async (table) => {
    const result = await table.updateFieldMetadata(changes.map((c) => ({ path: c.path, metadata: c.metadata, replace: c.replace ?? false })));
    const schema = schemaOfIpcFile(await table.schema());
    fields = {};
    for (const change of changes) {
      const segments = parseFieldPath(change.path);
      const field = findField(schema.fields, segments);
      if (!field) throw new EngineError("column-not-found", `field ${change.path} not found`);
      fields[formatFieldPath(segments)] = Object.fromEntries(field.metadata);
    }
    return result;
  });
  return { version, fields };
}

function findField(fields: readonly Field[], segments: string[]): Field | undefined {
  const [head, ...rest] = segments;
  const field = fields.find((f) => f.name === head);
  if (!field || rest.length === 0) return field;
  return findField(field.type.children ?? [], rest);
}

/** The schema-level metadata of the table's version in `ref`. */
async function schemaMetadata(engine: Engine, location: string, ref: TableRef): Promise<Record<string, string>> {
  const table = await engine.openTable(location, ref);
  return Object.fromEntries(schemaOfIpcFile(await engine.call(() => table.schema())).metadata);
}

/**
 * Adds schema-level metadata keys in one commit. The binding has no call that edits schema
 * metadata; adding columns from a schema with no fields merges that schema's metadata into the
 * table's, keeping the value of every key already present. Returns the version and the
 * metadata afterwards.
 */
async function addSchemaMetadataKeys(
  engine: Engine,
  location: string,
  ref: TableRef,
  metadata: Record<string, string>,
): Promise<{ version: number; metadata: Record<string, string> }> {
  const carrier = schemaOnlyIpcFile(new Schema([], new Map(Object.entries(metadata))));
  let after: Record<string, string> = {};
  const version = await writing(engine, location, ref, async (table) => {
    const result = await table.addColumnsWithSchema(carrier);
    after = Object.fromEntries(schemaOfIpcFile(await table.schema()).metadata);
    return result;
  });
  return { version, metadata: after };
}

/** Schema changes of one engine's tables: each commits one version and returns it. */
export class SchemaEvolution {
  constructor(private readonly engine: Engine) {}

  addColumns(location: string, ref: TableRef, columns: NewColumn[]): Promise<number> {
    return addColumns(this.engine, location, ref, columns);
  }

  alterColumns(location: string, ref: TableRef, changes: ColumnChange[]): Promise<number> {
    return alterColumns(this.engine, location, ref, changes);
  }

  dropColumns(location: string, ref: TableRef, paths: string[]): Promise<number> {
    return dropColumns(this.engine, location, ref, paths);
  }

  /** Sets or replaces field metadata; returns the changed fields' metadata after the commit. */
  updateFieldMetadata(location: string, ref: TableRef, changes: FieldMetadataChange[]): Promise<{ version: number; fields: Record<string, Record<string, string>> }> {
    return updateFieldMetadata(this.engine, location, ref, changes);
  }

  /** The schema-level metadata of the version `ref` names. */
  metadata(location: string, ref: TableRef): Promise<Record<string, string>> {
    return schemaMetadata(this.engine, location, ref);
  }

  /** Adds schema-level metadata keys (see `addSchemaMetadataKeys`). */
  addMetadataKeys(location: string, ref: TableRef, metadata: Record<string, string>): Promise<{ version: number; metadata: Record<string, string> }> {
    return addSchemaMetadataKeys(this.engine, location, ref, metadata);
  }
}
