/**
 * @module Reading source rows and writing view rows for materialized views, through the native
 * binding. Source rows are addressed by Lance row id (`_rowid`, a row address: fragment << 32 |
 * offset); every view row carries the id of the source row it came from in `__source_row_id`,
 * which is what incremental refresh diffs. Data stays columnar: query results pass through as
 * IPC buffers, and only chunkers decode values (the text or list they split).
 */
import { Buffer } from "node:buffer";
import {
  DataType,
  Field,
  Int32,
  RecordBatch,
  RecordBatchFileWriter,
  Schema,
  Struct,
  Type,
  Uint64,
  Utf8,
  type Vector,
  makeData,
  tableFromIPC,
  vectorFromArray,
} from "apache-arrow-21";
import { type ChunkerSpec, splitCharacters, splitWords } from "./chunkers.js";
import type { Engine, TableRef } from "./engine.js";
import { EngineError } from "./engine-errors.js";
import type { NativeTable } from "./lance-native.js";
import { schemaOnlyIpcFile } from "./arrow-ipc.js";
import { distinct, rangePredicates, sortedIds } from "./row-id-sets.js";

export { diffSortedIds } from "./row-id-sets.js";

/** The view column holding each row's source row id. */
export const sourceRowIdColumn = "__source_row_id";
const chunkInputAlias = "__quiver_chunk_input";
const scanBatchRows = 8192;

/** What a view computes from its source: the parsed definition, in engine terms. */
export interface ViewQuerySpec {
  /** `[output column, SQL expression]` pairs, in view column order. */
  projections: [string, string][];
  filter: string | null;
  chunker: ChunkerSpec | null;
}

/**
 * A shared cap on rows written (output_limit). A source row's pieces are taken all or none, so
 * no source row is ever half in the view (it would then count as present and never complete).
 */
export interface RowBudget {
  /** Takes `rows` from the budget if that many are left; false (and nothing taken) otherwise. */
  take(rows: number): boolean;
  remaining(): number;
}

export interface WriteRangeOptions {
  sourceLocation: string;
  sourceVersion: number;
  viewLocation: string;
  viewSchema: Schema;
  spec: ViewQuerySpec;
  /** Inclusive source row-id range of this work item. */
  from: bigint;
  to: bigint;
  /** Rows per append (and so per output fragment, at most). */
  maxRowsPerFragment: number;
  /** Appends allowed in flight while the next rows are read and expanded. */
  writeConcurrency: number;
  budget?: RowBudget;
  /** Checked between batches; throwing from it stops the work item. */
  checkpoint?: () => void;
}

export class ViewIO {
  constructor(private readonly engine: Engine) {}

  /** The view table's schema for `spec` over the source: every column nullable, ids last. */
  async viewSchema(sourceLocation: string, ref: TableRef, spec: ViewQuerySpec): Promise<Schema> {
    const source = await this.engine.openTable(sourceLocation, ref);
    const query = source.query();
    query.select(selectList(spec));
    const scanned = tableFromIPC(await this.engine.call(() => query.outputSchema())).schema;
    const byName = new Map(scanned.fields.map((f) => [f.name, f]));
    const fields: Field[] = spec.projections.map(([alias]) => (byName.get(alias) as Field).clone({ nullable: true }));
    if (spec.chunker) fields.push(...chunkerFields(spec.chunker, (byName.get(chunkInputAlias) as Field).type));
    fields.push(new Field(sourceRowIdColumn, new Uint64(), true));
    return new Schema(fields);
  }

  /** Creates the (empty) view table; returns its first version. */
  createViewTable(location: string, schema: Schema): Promise<number> {
    return this.engine.createTable(location, { file: schemaOnlyIpcFile(schema), schema, numRows: 0, numBatches: 0 }, "create");
  }

  async schemaOf(location: string, ref: TableRef = {}): Promise<Schema> {
    const table = await this.engine.openTable(location, ref);
    return tableFromIPC(await this.engine.call(() => table.schema())).schema;
  }

  async version(location: string): Promise<number> {
    const table = await this.engine.openTable(location);
    return this.engine.call(() => table.version());
  }

  async countRows(location: string): Promise<number> {
    const table = await this.engine.openTable(location);
    return this.engine.call(() => table.countRows(null));
  }

  /** Row ids of the source rows at `version` that pass `filter`, ascending. */
  async sourceRowIds(location: string, version: number, filter: string | null): Promise<BigUint64Array> {
    const table = await this.engine.openTable(location, { version });
    return sortedIds(await this.readIds(table, "_rowid", filter));
  }

  /** Distinct source row ids present in the view, ascending. */
  async viewSourceIds(location: string, range?: [bigint, bigint]): Promise<BigUint64Array> {
    const table = await this.engine.openTable(location);
    const filter = range ? `${sourceRowIdColumn} >= ${range[0]} AND ${sourceRowIdColumn} <= ${range[1]}` : null;
    return distinct(sortedIds(await this.readIds(table, sourceRowIdColumn, filter)));
  }

  /** Deletes every view row that came from one of `ids` (ascending). Returns rows deleted. */
  async deleteBySourceIds(location: string, ids: BigUint64Array): Promise<number> {
    if (ids.length === 0) return 0;
    const table = await this.engine.openTable(location);
    let deleted = 0;
    // Consecutive ids collapse into ranges, so deleting a whole replaced fragment is one term.
    for (const predicate of rangePredicates(ids, sourceRowIdColumn, 400)) {
      deleted += (await this.engine.call(() => table.delete(predicate))).numDeletedRows;
    }
    return deleted;
  }

  /** Deletes every row of the view (a full rebuild starts from here). */
  async clear(location: string): Promise<void> {
    const table = await this.engine.openTable(location);
    await this.engine.call(() => table.delete("true"));
  }

  /** Makes `version` the newest version of the view again (cancel and failure undo). */
  restore(location: string, version: number): Promise<number> {
    return this.engine.restoreTable(location, version);
  }

  /**
   * Writes the view rows of the source rows with ids in [from, to] that pass the filter and
   * are not in the view yet. Idempotent: a work item interrupted after some appends writes
   * only what is missing when it runs again. Returns the rows written.
   */
  async writeRange(options: WriteRangeOptions): Promise<number> {
    const { spec, from, to } = options;
    const present = await this.viewSourceIds(options.viewLocation, [from, to]);
    const conditions = [`_rowid >= ${from} AND _rowid <= ${to}`];
    if (spec.filter) conditions.push(`(${spec.filter})`);
    // Few rows already present: let Lance skip them. Many: skip them here, by id.
    const skipHere = present.length > 2000 ? new Set(present) : null;
    if (present.length > 0 && !skipHere) conditions.push(`_rowid NOT IN (${Array.from(present).join(", ")})`);

    const source = await this.engine.openTable(options.sourceLocation, { version: options.sourceVersion });
    const query = source.query();
    query.select(selectList(spec));
    query.onlyIf(conditions.join(" AND "));
    const batches = await this.engine.call(() => query.execute(scanBatchRows));

    const writer = new ViewAppender(this.engine, await this.engine.openTable(options.viewLocation), options);
    for (;;) {
      options.checkpoint?.();
      const buffer = await this.engine.call(() => batches.next());
      if (!buffer) break;
      for (let batch of recordBatchesOf(buffer)) {
        if (skipHere) batch = withoutIds(batch, skipHere);
        if (spec.chunker) batch = expand(batch, spec.chunker, options.viewSchema, options.budget);
        await writer.push(batch);
      }
      if (options.budget && options.budget.remaining() === 0) break;
    }
    return writer.finish();
  }

  private async readIds(table: NativeTable, column: string, filter: string | null): Promise<BigUint64Array[]> {
    const query = table.query();
    query.select([["id", column]]);
    if (filter) query.onlyIf(filter);
    const batches = await this.engine.call(() => query.execute(65536));
    const parts: BigUint64Array[] = [];
    for (;;) {
      const buffer = await this.engine.call(() => batches.next());
      if (!buffer) return parts;
      const ids = tableFromIPC(buffer).getChild("id");
      if (ids) for (const data of ids.data) parts.push((data.values as BigUint64Array).subarray(0, data.length));
    }
  }
}

/** Buffers view rows into appends of at most `maxRowsPerFragment` rows, a few in flight. */
class ViewAppender {
  private pending: RecordBatch[] = [];
  private pendingRows = 0;
  private written = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown;

  constructor(
    private readonly engine: Engine,
    private readonly view: NativeTable,
    private readonly options: WriteRangeOptions,
  ) {}

  async push(rows: RecordBatch): Promise<void> {
    const sourceIds = rows.getChild(sourceRowIdColumn);
    let offset = 0;
    while (offset < rows.numRows) {
      let take = Math.min(rows.numRows - offset, this.options.maxRowsPerFragment - this.pendingRows);
      // All rows of one source row go into one append (a fragment may run a little over its
      // cap): a retried item counts a source row as written once any of its rows is, so a source
      // row split across appends could lose the rest of its rows after a crash.
      if (sourceIds) {
        while (offset + take < rows.numRows && sourceIds.get(offset + take) === sourceIds.get(offset + take - 1)) take += 1;
      }
      this.pending.push(offset === 0 && take === rows.numRows ? rows : rows.slice(offset, offset + take));
      this.pendingRows += take;
      offset += take;
      if (this.pendingRows >= this.options.maxRowsPerFragment) await this.flush();
    }
  }

  async finish(): Promise<number> {
    await this.flush();
    await Promise.all(this.inFlight);
    if (this.failure) throw this.failure;
    return this.written;
  }

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.pendingRows === 0) return;
    const file = ipcFileOf(this.options.viewSchema, this.pending);
    const rows = this.pendingRows;
    this.pending = [];
    this.pendingRows = 0;
    const append = this.engine
      .call(() => this.view.add(file, "append"))
      .then(
        () => void (this.written += rows),
        (error: unknown) => void (this.failure ??= error),
      );
    this.inFlight.add(append);
    void append.finally(() => this.inFlight.delete(append));
    while (this.inFlight.size >= Math.max(1, this.options.writeConcurrency)) await Promise.race(this.inFlight);
  }
}

function selectList(spec: ViewQuerySpec): [string, string][] {
  const list: [string, string][] = [...spec.projections];
  if (spec.chunker) list.push([chunkInputAlias, spec.chunker.column]);
  list.push([sourceRowIdColumn, "_rowid"]);
  return list;
}

function chunkerFields(chunker: ChunkerSpec, declaredType: DataType): Field[] {
  const inputType = DataType.isDictionary(declaredType) ? declaredType.dictionary : declaredType;
  let pieceType: DataType;
  if (chunker.chunker === "explode_list") {
    if (!DataType.isList(inputType) && !DataType.isFixedSizeList(inputType)) {
      throw new EngineError("invalid-input", `chunker explode_list needs a list column; '${chunker.column}' is ${inputType}`);
    }
    pieceType = (inputType.children[0] as Field).type;
  } else {
    if (!DataType.isUtf8(inputType) && !DataType.isLargeUtf8(inputType)) {
      throw new EngineError("invalid-input", `chunker ${chunker.chunker} needs a string column; '${chunker.column}' is ${inputType}`);
    }
    pieceType = new Utf8();
  }
  const fields = [new Field(chunker.outputColumn, pieceType, true)];
  if (chunker.indexColumn) fields.push(new Field(chunker.indexColumn, new Int32(), true));
  return fields;
}

function recordBatchesOf(buffer: Uint8Array): RecordBatch[] {
  return tableFromIPC(buffer).batches;
}

/** One source batch → its view rows: pieces of the input column plus gathered projections. */
function expand(batch: RecordBatch, chunker: ChunkerSpec, viewSchema: Schema, budget: RowBudget | undefined): RecordBatch {
  const input = batch.getChild(chunkInputAlias) as Vector;
  const origin: number[] = [];
  const pieces: unknown[] = [];
  const ordinals: number[] = [];
  for (let row = 0; row < batch.numRows; row += 1) {
    const value = input.get(row);
    if (value === null || value === undefined) continue;
    const parts: unknown[] =
      chunker.chunker === "split_characters"
        ? splitCharacters(String(value), chunker.size as number, chunker.overlap as number)
        : chunker.chunker === "split_words"
          ? splitWords(String(value), chunker.size as number, chunker.overlap as number)
          : Array.from(value as Iterable<unknown>, plain);
    if (budget && !budget.take(parts.length)) continue;
    for (let i = 0; i < parts.length; i += 1) {
      origin.push(row);
      pieces.push(parts[i]);
      ordinals.push(i);
    }
  }
  const children = viewSchema.fields.map((field) => {
    if (field.name === chunker.outputColumn) return vectorFromArray(pieces, field.type).data[0];
    if (field.name === chunker.indexColumn) return makeData({ type: new Int32(), length: ordinals.length, data: Int32Array.from(ordinals) });
    return gather(batch.getChild(field.name) as Vector, origin, field.type);
  });
  return batchOf(viewSchema, children, origin.length);
}

/** The rows of `batch` whose source id is not in `skip`. */
function withoutIds(batch: RecordBatch, skip: Set<bigint>): RecordBatch {
  const ids = batch.getChild(sourceRowIdColumn) as Vector;
  const keep: number[] = [];
  for (let row = 0; row < batch.numRows; row += 1) if (!skip.has(ids.get(row) as bigint)) keep.push(row);
  if (keep.length === batch.numRows) return batch;
  const children = batch.schema.fields.map((field) => gather(batch.getChild(field.name) as Vector, keep, field.type));
  return batchOf(batch.schema, children, keep.length);
}

/** Column values at `rows`, columnar for plain numbers, through a builder for the rest. */
function gather(vector: Vector, rows: readonly number[], type: DataType) {
  const data = vector.data.length === 1 ? vector.data[0] : undefined;
  if (data && data.nullCount === 0 && (DataType.isInt(type) || DataType.isFloat(type)) && data.values && data.stride === 1) {
    const source = data.values as unknown as { constructor: new (n: number) => Record<number, unknown>; [i: number]: unknown };
    const target = new source.constructor(rows.length);
    for (let i = 0; i < rows.length; i += 1) target[i] = source[rows[i] as number];
    return makeData({ type, length: rows.length, data: target } as never) as ReturnType<typeof makeData>;
  }
  return vectorFromArray(rows.map((row) => plain(vector.get(row))), type).data[0];
}

/** Nested Arrow values (list elements, struct rows) as plain JS, which builders accept. */
function plain(value: unknown): unknown {
  if (value === null || value === undefined || typeof value !== "object") return value;
  if (ArrayBuffer.isView(value)) return value;
  if (typeof (value as Vector).toArray === "function" && "type" in (value as object)) return Array.from(value as Iterable<unknown>, plain);
  if (typeof (value as { toJSON?: () => unknown }).toJSON === "function") {
    const json = (value as { toJSON: () => Record<string, unknown> }).toJSON();
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

function batchOf(schema: Schema, children: ReturnType<typeof makeData>[], length: number): RecordBatch {
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }));
}

/** Batches under the view's schema (same columns; nullability taken from the view). */
function ipcFileOf(schema: Schema, batches: RecordBatch[]): Buffer {
  const writer = new RecordBatchFileWriter();
  writer.reset(undefined, schema);
  for (const batch of batches) writer.write(batchOf(schema, batch.data.children as ReturnType<typeof makeData>[], batch.numRows));
  writer.finish();
  return Buffer.from(writer.toUint8Array(true));
}

/** A type check the catalog uses to compare a client's output_schema with the computed one. */
export function sameTypeFamily(a: DataType, b: DataType): boolean {
  const family = (type: DataType): number => {
    if (DataType.isDictionary(type)) return family(type.dictionary);
    if (type.typeId === Type.LargeUtf8) return Type.Utf8;
    if (type.typeId === Type.LargeBinary) return Type.Binary;
    return type.typeId;
  };
  return family(a) === family(b);
}

/**
 * Decodes a client's Arrow schema: an IPC stream or file holding the schema, or a bare
 * encapsulated schema message (pyarrow's `Schema.serialize()`), which lacks the end marker.
 */
export function decodeIpcSchema(bytes: Uint8Array): Schema {
  const endOfStream = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
  for (const candidate of [bytes, Buffer.concat([bytes, endOfStream])]) {
    try {
      const schema = tableFromIPC(candidate).schema;
      if (schema.fields.length > 0) return schema;
    } catch {
      // try the next framing
    }
  }
  throw new EngineError("invalid-input", "output_schema is not a base64-encoded Arrow IPC schema");
}
