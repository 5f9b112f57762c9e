/**
 * @module The engine: the only code that touches Lance. Tables are addressed by location (an
 * absolute directory path ending in `.lance`); the catalog decides locations.
 */
import path from "node:path";
import type { BranchName, TagName } from "../model/path-names.js";
import type { JsonArrowSchema } from "../model/schema-json.js";
import { type DecodedUpload, readingUpload, schemaOfIpcFile } from "./arrow-ipc.js";
import { defaultCommitAttempts } from "./commit-retry.js";
import { EngineError, classifyEngineError } from "./engine-errors.js";
import { type NativeConnection, type NativeSession, type NativeTable, native } from "./lance-native.js";
import { toJsonSchema } from "./lance-schema-json.js";
import { type ReadFreshness, TableHandles, lookEveryRead } from "./table-handles.js";
import { TableFiles } from "./table-files/table-files.js";
import { ComputedColumns } from "./computed-columns.js";
import { TableIndexes } from "./indexes.js";
import { TableMaintenance } from "./maintenance.js";
import { RefChanges } from "./refs-write.js";
import { SchemaEvolution } from "./schema-evolution.js";
import { TableQueries } from "./table-query.js";
import { TableWrites } from "./table-writes.js";
import { ViewIO } from "./view-io.js";
import { TableBlobs } from "./table-blobs.js";
import { TableLsm } from "./lsm-specs.js";
import { type LookQueue, idleLooks, isIdle, joinLaterLook } from "./shared-looks.js";
import type { TableCopies } from "../storage/object-cache/table-copies.js";
import { isInsideLocation, isUri, normalizeLocation } from "../storage/locations.js";
import type { StorageOptions } from "../storage/storage-options.js";
import type { Storages } from "../storage/storages.js";

export interface TableRef {
  version?: number | null | undefined;
  tag?: TagName | null | undefined;
  branch?: BranchName | null | undefined;
  /**
   * The catalog's id of the table, for reads: a kept handle opened for another table at the same
   * location (dropped, then re-created there, perhaps by another replica) is not used for it.
   */
  tableId?: string | undefined;
  /**
   * The database (tenant) the table belongs to: its tables are opened in a session of its own, so
   * Lance's index and metadata caches and the kept handles are never shared with another's.
   */
  database?: string | undefined;
  /** For reads of the newest version: what the caller knows of it (default: look every read). */
  freshness?: ReadFreshness | undefined;
}

export interface TableSnapshot {
  version: number;
  schema: JsonArrowSchema;
  metadata: Record<string, string>;
  numFragments: number;
  numRows: number;
  /** Rows deleted but still stored: physical rows (fragment lengths count them) minus live rows. */
  numDeletedRows: number;
}


export interface EngineOptions {
  /** The runtime's storage: where table files are read and written, and the options Lance opens them with. */
  storages: Storages;
  /** Attempts of a write whose commits keep conflicting, the first included (default 6). */
  commitAttempts?: number;
  /** Bytes of Lance's index cache per session (one per database and credential generation); Lance's default when absent. */
  indexCacheBytes?: number;
  /** Bytes of Lance's metadata cache per session; Lance's default when absent. */
  metadataCacheBytes?: number;
  /** Local copies of object-store tables, which queries read when one holds the version they read. */
  copies?: TableCopies | undefined;
}

/** How a read fails when the request is at fault: never a reason to doubt a local copy. */
const clientMistakeKinds = new Set(["invalid-input", "column-not-found", "schema-mismatch", "index-not-found"]);

/** Tables opened from local copies kept at once; the least recently used is let go first. */
const maxCopyHandles = 256;

/** A connection and the credential generation of the root it was opened with. */
interface PooledConnection {
  generation: number;
  connection: Promise<NativeConnection>;
}

/** A Lance session (its index and metadata caches) of one database under one credential generation. */
interface PooledSession {
  generation: number;
  session: NativeSession;
}

/**
 * The engine of one runtime, the catalog's one way to Lance and to the files beside a table:
 * tables are opened, described, created and removed here, and the rest hangs off it by concern
 * (`writes`, `query`, `indexes`, `schema`, `refs`, `computed`, `maintenance`, `views`, `files`).
 */
export class Engine {
  /** Connections whose tables look for a newer version before every call: for writes. Keyed by database and directory. */
  private readonly connections = new Map<string, PooledConnection>();
  /** Connections whose tables look only when told to: for the kept read handles. */
  private readonly readConnections = new Map<string, PooledConnection>();
  /** Lance sessions by database: connections of one database share its caches, and no other database does. */
  private readonly sessions = new Map<string, PooledSession>();
  private readonly handles = new TableHandles((location, branch, session) => this.openLatest(location, branch, session));
  private readonly sessionCaches: { indexBytes: bigint | null; metadataBytes: bigint | null };
  /** Each database's storage root, longest first: whose session a write without `ref.database` opens in. */
  private databaseRoots: { root: string; database: string }[] = [];
  private readonly copies: TableCopies | undefined;
  /** Connections to the copies' folder, by database and credential generation: each in its database's session. */
  private readonly copyConnections = new Map<string, Promise<NativeConnection>>();
  /** Tables opened from local copies, by session, folder and version. */
  private readonly copyHandles = new Map<string, { table: Promise<NativeTable>; folder: string }>();
  /** For each kept handle of the store, the copy and version it last found still the store's (`folder@version`). */
  private readonly checkedCopies = new WeakMap<NativeTable, string>();
  /** The listings of a table's versions under way for reads that look alongside, by location: the one running and the one queued. */
  private readonly storeLooks = new Map<string, LookQueue<number | undefined>>();
  /** The last snapshot described through each table handle, for as long as the handle lives. */
  private readonly snapshots = new WeakMap<NativeTable, TableSnapshot>();
  readonly commitAttempts: number;
  readonly storages: Storages;
  /** The files beside each table that Quiver reads and writes without Lance: manifests, refs, kept properties. */
  readonly files: TableFiles;
  /** Row writes: insert, merge-insert, update, delete. */
  readonly writes = new TableWrites(this);
  /** Queries, counts, plans and statistics. */
  readonly query = new TableQueries(this);
  readonly indexes = new TableIndexes(this);
  /** Column and schema-metadata changes. */
  readonly schema = new SchemaEvolution(this);
  /** Tags and branches, changed through Lance. */
  readonly refs = new RefChanges(this);
  readonly computed = new ComputedColumns(this);
  /** Compaction and cleanup of old versions. */
  readonly maintenance = new TableMaintenance(this);
  /** The reads and writes of materialized views. */
  readonly views = new ViewIO(this);
  /** The bytes of blob columns. */
  readonly blobs = new TableBlobs(this);
  /** LSM write specs other writers installed. */
  readonly lsm = new TableLsm(this);

  constructor(options: EngineOptions) {
    this.storages = options.storages;
    this.files = new TableFiles(options.storages);
    this.commitAttempts = options.commitAttempts ?? defaultCommitAttempts;
    this.copies = options.copies;
    if (this.copies) this.copies.onRemoved = (folder) => this.forgetCopy(folder);
    this.sessionCaches = {
      indexBytes: options.indexCacheBytes === undefined ? null : BigInt(options.indexCacheBytes),
      metadataBytes: options.metadataCacheBytes === undefined ? null : BigInt(options.metadataCacheBytes),
    };
  }

  /** Runs a native call and turns its failure into an EngineError. */
  async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw classifyEngineError(error);
    }
  }

  /** Whether a Lance dataset has been written at `location` (any committed version). */
  datasetExists(location: string): Promise<boolean> {
    return this.files.manifests.anyCommitted(location);
  }

  /** Writes a new dataset (mode "create") or replaces the rows of one ("overwrite"). */
  async createTable(location: string, upload: DecodedUpload, mode: "create" | "overwrite", storageOptions?: StorageOptions, database?: string): Promise<number> {
    const { dir, name } = splitLocation(location);
    this.handles.noteWrite(location);
    const connection = await this.connection(dir, database ?? this.databaseAt(location));
    const table = await this.call(() =>
      upload.numBatches === 0
        ? connection.createEmptyTable(name, upload.file, mode, [], storageOptions ?? null)
        : readingUpload(upload, (file) => connection.createTable(name, file, mode, [], storageOptions ?? null)),
    );
    return this.call(() => table.version());
  }

  /** Opens the latest version of the main branch, or the version/tag/branch in `ref`. */
  async openTable(location: string, ref: TableRef = {}, storageOptions?: StorageOptions): Promise<NativeTable> {
    if (!(await this.datasetExists(location))) throw new EngineError("dataset-not-found", `no Lance dataset at ${location}`);
    const { dir, name } = splitLocation(location);
    // Opened for the newest version, the table may be written: this process's next read looks.
    if ((ref.version === undefined || ref.version === null) && !ref.tag) this.handles.noteWrite(location);
    const connection = await this.connection(dir, ref.database ?? this.databaseAt(location));
    let table = await this.call(() => connection.openTable(name, [], storageOptions ?? null));
    if (ref.branch) {
      const branches = await this.call(() => table.branches());
      table = await this.call(() => branches.checkout(ref.branch as string, ref.version ?? null));
    } else if (ref.version !== undefined && ref.version !== null) {
      await this.call(() => table.checkout(ref.version as number));
    }
    if (ref.tag) await this.call(() => table.checkoutTag(ref.tag as string));
    return table;
  }

  /**
   * A table to read: the newest version of main or of `ref.branch`, as of this call, from a kept
   * handle; or the version or tag `ref` names, opened for this read. Not for writes. Throws
   * EngineError "dataset-not-found" while nothing is committed at `location`.
   */
  async readTable(location: string, ref: TableRef = {}): Promise<NativeTable> {
    if ((ref.version !== undefined && ref.version !== null) || ref.tag) return this.openTable(location, ref);
    const freshness = ref.freshness ?? lookEveryRead;
    const table = await this.lookingAlongside(location, ref, freshness);
    if (freshness.onRead) freshness.onRead(await this.versionOf(table));
    return table;
  }

  /**
   * The version `table` (from `readTable` or `openTable`) is at: what its kept handle knows, with
   * no call, else asked of the engine (a round trip to its threads).
   */
  versionOf(table: NativeTable): Promise<number> {
    const known = this.handles.versionOf(table);
    return known === undefined ? this.call(() => table.version()) : Promise.resolve(known);
  }

  private async lookingAlongside(location: string, ref: TableRef, freshness: ReadFreshness): Promise<NativeTable> {
    if (!freshness.lookAlongside) return this.keptTable(location, ref, freshness);
    // Others may have committed: the look at the store runs while the kept table is brought to the known version.
    const [table, newest] = await Promise.all([this.keptTable(location, ref, trustingKnown(freshness)), this.newestOnStore(location)]);
    if (newest === undefined || newest <= (await this.versionOf(table))) return table;
    void freshness.onLooked?.(newest);
    return this.keptTable(location, ref, { ...trustingKnown(freshness), knownVersion: newest });
  }

  /** The kept table of `ref` as `freshness` allows; never older than `freshness.minVersion` (else "version-not-found"). */
  private async keptTable(location: string, ref: TableRef, freshness: ReadFreshness): Promise<NativeTable> {
    const database = ref.database ?? this.databaseAt(location);
    const session = `${database}\u0000${this.storages.credentialGeneration(location)}`;
    const table = await this.call(() => this.handles.latest(location, ref.branch || null, ref.tableId, freshness, session));
    if (freshness.minVersion === undefined) return table;
    const version = await this.versionOf(table);
    if (version < freshness.minVersion) throw new EngineError("version-not-found", `version ${freshness.minVersion} is not committed yet; the newest is ${version}`);
    return table;
  }

  /**
   * The newest committed version of main on the store (one listing of `_versions/`), undefined
   * when none is; reads of one table that arrive together share their listings (`joinLaterLook`).
   */
  private newestOnStore(location: string): Promise<number | undefined> {
    let looks = this.storeLooks.get(location);
    if (!looks) {
      looks = idleLooks();
      this.storeLooks.set(location, looks);
    }
    const queue = looks;
    return joinLaterLook(queue, () => this.listNewest(location), () => {
      if (isIdle(queue) && this.storeLooks.get(location) === queue) this.storeLooks.delete(location);
    });
  }

  private async listNewest(location: string): Promise<number | undefined> {
    try {
      return (await this.files.manifests.list(location, "")).at(-1)?.version;
    } catch (error) {
      throw classifyEngineError(error);
    }
  }

  /**
   * Runs `read` (a query or a count) on the table `readTable` gives, or, when a local copy of the
   * table holds exactly the version that read is at, on that version opened from the copy (read
   * as a local folder). When the copy fails it other than the way a client's mistake fails (a bad
   * filter, an unknown column), `read` runs again on the store's table; only when it succeeds
   * there is the copy at fault, and let go.
   */
  async readOnCopyOrStore<T>(location: string, ref: TableRef, read: (table: NativeTable) => Promise<T>): Promise<{ value: T; fromCopy: boolean; version: number }> {
    const freshness = ref.freshness;
    const pinned = (ref.version !== undefined && ref.version !== null) || Boolean(ref.tag);
    const plain = freshness === undefined ? ref : { ...ref, freshness: { ...freshness, onRead: undefined } };
    const result = freshness?.lookAlongside && !pinned ? await this.readAlongsideLook(location, ref, freshness, read) : await this.readOnce(location, plain, read);
    freshness?.onRead?.(result.version);
    return result;
  }

  /**
   * Others may have committed: the look at the store runs alongside the read of the known
   * version, and the read is repeated only when the look found a newer one.
   */
  private async readAlongsideLook<T>(location: string, ref: TableRef, freshness: ReadFreshness, read: (table: NativeTable) => Promise<T>): Promise<{ value: T; fromCopy: boolean; version: number }> {
    const looking = this.newestOnStore(location);
    looking.catch(() => undefined);
    const first = await this.readOnce(location, { ...ref, freshness: trustingKnown(freshness) }, read);
    const newest = await looking;
    if (newest === undefined || newest <= first.version) return first;
    void freshness.onLooked?.(newest);
    return this.readOnce(location, { ...ref, freshness: { ...trustingKnown(freshness), knownVersion: newest } }, read);
  }

  /** `read` once, on the copy or the store (see `readOnCopyOrStore`), with the version it read. */
  private async readOnce<T>(location: string, ref: TableRef, read: (table: NativeTable) => Promise<T>): Promise<{ value: T; fromCopy: boolean; version: number }> {
    const { table, copy, version } = await this.copyOrStoreTable(location, ref);
    if (copy === undefined) {
      // Asked alongside the read, not before it: one round trip to the engine's threads less.
      const [value, at] = await Promise.all([read(table), version]);
      return { value, fromCopy: false, version: at };
    }
    try {
      return { value: await read(table), fromCopy: true, version: await version };
    } catch (error) {
      if (clientMistakeKinds.has(classifyEngineError(error).kind)) throw error;
      const value = await read(await this.readTable(location, ref));
      this.distrustCopy(copy);
      return { value, fromCopy: false, version: await version };
    }
  }

  /**
   * `readTable`'s table, or the same version from a local copy (`copy`, its folder). Only for the
   * newest version of main of an object-store table the caller names. The first time a kept
   * handle reads a version from a copy, the copy's manifest is checked against the store's (one
   * request): a table written again from scratch under the same id reuses version numbers.
   */
  private async copyOrStoreTable(location: string, ref: TableRef): Promise<{ table: NativeTable; copy?: string; version: number | Promise<number> }> {
    const table = await this.readTable(location, ref);
    const pinned = (ref.version !== undefined && ref.version !== null) || Boolean(ref.tag) || Boolean(ref.branch);
    const copies = this.copies;
    // No copy can serve: the version is only reported, and need not hold the read up.
    if (!copies || pinned || ref.tableId === undefined || !isUri(location)) return { table, version: this.versionOf(table) };
    const version = await this.versionOf(table);
    const normalized = normalizeLocation(location);
    const hit = copies.at(normalized, ref.tableId, version);
    if (hit === undefined) return { table, version };
    try {
      const checked = `${hit.folder}@${version}`;
      if (this.checkedCopies.get(table) !== checked) {
        if (!(await copies.stillTheStores(normalized, hit))) {
          this.distrustCopy(hit.folder);
          return { table, version };
        }
        this.checkedCopies.set(table, checked);
      }
      const database = ref.database ?? this.databaseAt(location);
      return { table: await this.copyAt(hit.folder, version, database, this.storages.credentialGeneration(location)), copy: hit.folder, version };
    } catch {
      // A copy that cannot be checked or opened now (the store down, too many open files) leaves
      // this read to the store, which says what is wrong if anything is.
      return { table, version };
    }
  }

  /**
   * The table in the copy at `folder` at `version`, opened in the session of `database` under
   * credential `generation`: one handle per version, never moved to another (reads told of
   * different versions at once each get their own).
   */
  private async copyAt(folder: string, version: number, database: string, generation: number): Promise<NativeTable> {
    const session = `${database}\u0000${generation}`;
    const key = `${session}\u0000${folder}\u0000${version}`;
    let kept = this.copyHandles.get(key);
    if (kept) this.copyHandles.delete(key);
    else {
      const connection = this.copyConnection(database, generation);
      const opened = connection.then(async (open) => {
        const table = await open.openTable(path.basename(folder, ".lance"), [], null);
        if ((await table.version()) !== version) await table.checkout(version);
        return table;
      });
      kept = { table: opened, folder };
      const entry = kept;
      opened.catch(() => {
        if (this.copyHandles.get(key) === entry) this.copyHandles.delete(key);
      });
      // The handles of the copy's other versions are done with once a newer one is opened.
      for (const [other, handle] of this.copyHandles) if (handle.folder === folder && other.startsWith(`${session}\u0000`)) this.copyHandles.delete(other);
    }
    // Most recently used last: the map's order is the eviction order.
    this.copyHandles.set(key, kept);
    for (const [oldest] of this.copyHandles) {
      if (this.copyHandles.size <= maxCopyHandles) break;
      this.copyHandles.delete(oldest);
    }
    return kept.table;
  }

  /** The connection to the copies' folder in the session of `database` under credential `generation`; older generations' are closed. */
  private copyConnection(database: string, generation: number): Promise<NativeConnection> {
    const session = `${database}\u0000${generation}`;
    const found = this.copyConnections.get(session);
    if (found) return found;
    for (const [other, connection] of this.copyConnections) {
      if (!other.startsWith(`${database}\u0000`)) continue;
      closeLater(connection);
      this.copyConnections.delete(other);
    }
    const connection = native().Connection.new((this.copies as TableCopies).dir, { session: this.sessionOf(database, generation) });
    this.copyConnections.set(session, connection);
    connection.catch(() => {
      if (this.copyConnections.get(session) === connection) this.copyConnections.delete(session);
    });
    return connection;
  }

  /** Lets go of the copy at `folder`, found damaged: the next read of its table starts a new one. */
  private distrustCopy(folder: string): void {
    this.forgetCopy(folder);
    this.copies?.distrust(folder);
  }

  /** Lets go of the tables opened from the copy at `folder`. */
  private forgetCopy(folder: string): void {
    for (const [key, kept] of this.copyHandles) if (kept.folder === folder) this.copyHandles.delete(key);
  }

  /** Opens the newest version of `branch` on a connection that checks for newer ones only when asked. */
  private async openLatest(location: string, branch: BranchName | null, session: string): Promise<NativeTable> {
    if (!(await this.datasetExists(location))) throw new EngineError("dataset-not-found", `no Lance dataset at ${location}`);
    const { dir, name } = splitLocation(location);
    const database = session.slice(0, session.indexOf("\u0000"));
    const connection = await this.connectionOf(this.readConnections, dir, database, {});
    const table = await connection.openTable(name, [], null);
    return branch ? (await table.branches()).checkout(branch, null) : table;
  }

  /**
   * Version, schema and basic stats of one version of a table. A version never changes, so a kept
   * handle remembers the snapshot of the version it is at: describing a table no one wrote to
   * since costs one freshness check.
   */
  async describeTable(location: string, ref: TableRef = {}): Promise<TableSnapshot> {
    const table = await this.readTable(location, ref);
    const version = await this.versionOf(table);
    const known = this.snapshots.get(table);
    if (known?.version === version) return known;
    const [schemaFile, stats] = await this.call(() => Promise.all([table.schema(), table.stats()]));
    const schema = toJsonSchema(schemaOfIpcFile(schemaFile));
    const snapshot = {
      version,
      schema,
      metadata: schema.metadata ?? {},
      numFragments: stats.fragmentStats.numFragments,
      numRows: stats.numRows,
      // The binding reports fragment lengths only as a distribution; its mean times the count is
      // the physical row total, exact up to the mean's rounding.
      numDeletedRows: Math.max(0, Math.round(stats.fragmentStats.lengths.mean * stats.fragmentStats.numFragments) - stats.numRows),
    };
    this.snapshots.set(table, snapshot);
    return snapshot;
  }

  /**
   * Writes at `location` a shallow clone of the table at `source`: a new manifest for the
   * source's `version` or `tag` (latest when neither) that reads the source's data files in
   * place. Returns the clone's version.
   */
  async shallowClone(location: string, source: string, from: { version?: number | null; tag?: TagName | null }, database?: string): Promise<number> {
    const { dir, name } = splitLocation(location);
    this.handles.noteWrite(location);
    const connection = await this.connection(dir, database ?? this.databaseAt(location));
    const table = await this.call(() => connection.cloneTable(name, source, [], from.version ?? null, from.tag ?? null, true));
    return this.call(() => table.version());
  }

  /** Makes `version` the newest version of the branch; returns the version it committed. */
  async restoreTable(location: string, version: number, branch?: BranchName | null, database?: string): Promise<number> {
    this.handles.noteWrite(location);
    const table = await this.openTable(location, { version, branch, database });
    await this.call(() => table.restore());
    return this.call(() => table.version());
  }

  /**
   * Deletes everything stored at `location`, which must lie inside `storageRoot` (the database's),
   * else nothing is deleted (`DeletionOutsideScope`).
   */
  async removeTableData(location: string, storageRoot: string): Promise<void> {
    this.handles.forget(location);
    if (isUri(location)) this.copies?.forget(normalizeLocation(location));
    await this.storages.for(location).deletePrefix(location, storageRoot);
  }

  /**
   * Says that the tables under `storageRoot` are database `database`'s: writes there open in its
   * session even where the caller names no database.
   */
  assignDatabase(database: string, storageRoot: string): void {
    const root = normalizeLocation(storageRoot);
    if (this.databaseRoots.some((entry) => entry.root === root && entry.database === database)) return;
    this.databaseRoots = [...this.databaseRoots.filter((entry) => entry.database !== database), { root, database }].sort((a, b) => b.root.length - a.root.length);
  }

  /** The database whose storage root holds `location`, or "" when none was assigned. */
  private databaseAt(location: string): string {
    const normalized = normalizeLocation(location);
    return this.databaseRoots.find(({ root }) => isInsideLocation(root, normalized))?.database ?? "";
  }

  /** The Lance sessions open now, one per database: their credential generation and what their caches hold. */
  sessionStats(): { database: string; generation: number; bytes: number; items: number }[] {
    return [...this.sessions].map(([database, { generation, session }]) => ({ database, generation, bytes: Number(session.sizeBytes()), items: session.approxNumItems() }));
  }

  close(): void {
    this.handles.clear();
    this.copyHandles.clear();
    for (const connection of this.copyConnections.values()) closeLater(connection);
    this.copyConnections.clear();
    for (const connections of [this.connections, this.readConnections]) {
      for (const { connection } of connections.values()) closeLater(connection);
      connections.clear();
    }
    this.sessions.clear();
  }

  /**
   * Consistency interval 0: clients of the namespace API and other replicas write tables
   * directly, so a write must start from their newest commit.
   */
  private connection(dir: string, database = ""): Promise<NativeConnection> {
    return this.connectionOf(this.connections, dir, database, { readConsistencyInterval: 0 });
  }

  /**
   * The connection of `database` to `dir`, opened with the options its root has now: one opened
   * with credentials since rotated is let go, with its session, and never used again.
   */
  private connectionOf(pool: Map<string, PooledConnection>, dir: string, database: string, options: { readConsistencyInterval?: number }): Promise<NativeConnection> {
    const key = `${database}\u0000${dir}`;
    const generation = this.storages.credentialGeneration(dir);
    const pooled = pool.get(key);
    if (pooled?.generation === generation) return pooled.connection;
    if (pooled) closeLater(pooled.connection);
    const connection = native().Connection.new(dir, { ...options, storageOptions: this.storages.optionsFor(dir), session: this.sessionOf(database, generation) });
    const entry = { generation, connection };
    connection.catch(() => {
      if (pool.get(key) === entry) pool.delete(key);
    });
    pool.set(key, entry);
    return connection;
  }

  /** The session of `database` under credential `generation`: a new one when the credentials changed. */
  private sessionOf(database: string, generation: number): NativeSession {
    const pooled = this.sessions.get(database);
    if (pooled?.generation === generation) return pooled.session;
    const session = new (native().Session)(this.sessionCaches.indexBytes, this.sessionCaches.metadataBytes);
    this.sessions.set(database, { generation, session });
    return session;
  }
}

/** `freshness` for a read whose caller looks at the store itself, alongside: the known version is taken as the newest. */
function trustingKnown(freshness: ReadFreshness): ReadFreshness {
  return { ...freshness, complete: true, lookAlongside: false, lookIntervalMs: 0, onLooked: undefined, onRead: undefined };
}

function closeLater(connection: Promise<NativeConnection>): void {
  void connection.then((c) => c.close()).catch(() => undefined);
}

/** A table location is `<dir>/<name>.lance` (a path or a URI); the binding opens tables by directory and name. */
export function splitLocation(location: string): { dir: string; name: string } {
  const trimmed = location.replace(/\/+$/, "");
  const slash = trimmed.lastIndexOf(isUri(trimmed) ? "/" : path.sep);
  const base = trimmed.slice(slash + 1);
  if (slash < 0 || !base.endsWith(".lance")) throw new EngineError("invalid-input", `table location must end in .lance: ${location}`);
  return { dir: isUri(trimmed) ? trimmed.slice(0, slash) : path.dirname(trimmed), name: base.slice(0, -".lance".length) };
}
export type { ReadFreshness } from "./table-handles.js";
export type { BranchRef, ManifestFile, ManifestName, ManifestNamingScheme, TableFiles, TagRef, VersionOperation } from "./table-files/table-files.js";
export type { ColumnKind } from "./computed-columns.js";
export type { IndexSpec } from "./indexes.js";
export type { MaintenanceOutcome, VersionTime } from "./maintenance.js";
export type { ColumnChange, FieldMetadataChange, NewColumn } from "./schema-evolution.js";
export type { FtsNode, FullTextSpec, QueryResult, QuerySpec } from "./table-query.js";
export type { DeleteOutcome, InsertOutcome, MergeInsertSpec, MergeOutcome, UpdateOutcome } from "./table-writes.js";
export type { RowBudget, ViewIO, ViewQuerySpec } from "./view-io.js";
export type { DecodedUpload } from "./arrow-ipc.js";
export type { BlobBytes, FetchedBlobs, OpenedBlob } from "./table-blobs.js";
export { describeLsmWriteSpec, type LsmWriteSpec } from "./lsm-specs.js";
// The engine's vocabulary that needs no engine: names and checks the catalog validates requests with.
export { type ChunkerSpec, chunkerImplementationVersion, chunkerNames, validateChunkerSpec } from "./chunkers.js";
export { parseFieldPath } from "./field-paths.js";
export { lanceCopyFormat } from "./table-copy-format.js";
export { isVersionsFolderManifest, versionsDirectory } from "./table-files/manifests.js";
export { indexTypes, specIndexType } from "./indexes.js";
export { decodeIpcSchema, diffSortedIds, sameTypeFamily, sourceRowIdColumn } from "./view-io.js";
