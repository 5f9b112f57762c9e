/**
 * @module Multipart writes as the LanceDB client sends them (docs/data.md, "Multipart writes"):
 * CreateMultipartWrite opens an upload, each `insert?upload_id=` stages its rows as an Arrow IPC
 * file under the table's `_uploads/<upload_id>/` folder (recorded in the store, so any replica
 * may take the next part, complete or abort), CompleteMultipartWrite commits every part as one
 * Lance version, and AbortMultipartWrite, or the upload's expiry, deletes the staged files.
 *
 * Completion is a small state machine kept in the store: `open` → `completing` (with the version
 * the commit starts from) → `committed` (with the version made). A completion cut short by a
 * crash is finished by the next one: when a version after the starting one added exactly the
 * upload's rows, that commit was this upload's, and it is answered rather than made twice.
 */
import { randomUUID } from "node:crypto";
import { Buffer } from "node:buffer";
import { type DecodedUpload, ipcStreamToFile, mergeIpcFiles, schemaOfIpcFooter } from "../../engine/arrow-ipc.js";
import { joinLocation } from "../../storage/locations.js";
import type { MultipartPartRow, MultipartWriteRow } from "../../store/rows/multipart-write-rows.js";
import type { TableRow } from "../../store/schema.js";
import type {
  AbortMultipartWriteRequest,
  AbortMultipartWriteResponse,
  CompleteMultipartWriteRequest,
  CompleteMultipartWriteResponse,
  CreateMultipartWriteRequest,
  CreateMultipartWriteResponse,
  InsertIntoTableResponse,
} from "../../model/data.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import { type UploadId, isPathName, pathName } from "../../model/path-names.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { translating } from "../failures.js";
import { tableLabel } from "../identifiers.js";
import { loadTable } from "../table-lookup.js";
import { optionalBranch, refOf, refOverrides } from "../table-refs.js";
import type { ArrowStreamBody } from "../catalog-operations.js";
import { recordCommittedWrite } from "../transaction-records.js";

/** How long an upload not completed is kept; each part extends it. */
export const multipartWriteTtlMs = 24 * 60 * 60 * 1000;
/** The folder under a table's location that holds the staged parts of its uploads. */
export const uploadsFolder = "_uploads";

const lockOf = (uploadId: UploadId) => `multipart-write:${uploadId}`;
const uploadFolderOf = (location: string, uploadId: UploadId) => joinLocation(location, uploadsFolder, uploadId);

/** CreateMultipartWrite: opens an upload on the table (and branch). Throws 1, 4, 13 (a branch name not valid). */
export async function createMultipartWrite(scope: CatalogScope, request: WithId<CreateMultipartWriteRequest>): Promise<CreateMultipartWriteResponse> {
  const branch = optionalBranch(request.branch);
  const table = await loadTable(scope, request.id);
  await expireMultipartWrites(scope).catch(() => undefined);
  const now = Date.now();
  const row: MultipartWriteRow = {
    upload_id: randomUUID(),
    database: scope.database.name,
    table_id: table.id,
    branch,
    overwrite: 0,
    state: "open",
    base_version: null,
    version: null,
    num_rows: null,
    created_at: now,
    expires_at: now + multipartWriteTtlMs,
  };
  await scope.store.rows.insertMultipartWrite(row);
  return { upload_id: row.upload_id, expires_at: row.expires_at };
}

/**
 * An `insert?upload_id=` part: its rows are checked to be an Arrow IPC stream and staged as an
 * IPC file beside the table's data; nothing is committed. The same `upload_part_id` sent again
 * replaces the part. Throws 1, 4, 13, 19.
 */
export async function stageMultipartPart(
  scope: CatalogScope,
  request: { id: string[]; upload_id: string; upload_part_id?: string | null; branch?: string | null; overwrite: boolean },
  body: ArrowStreamBody,
): Promise<InsertIntoTableResponse> {
  const uploadId = requireUploadId(request.upload_id);
  const partId = pathName("upload_part_id", request.upload_part_id || randomUUID());
  const table = await loadTable(scope, request.id);
  await requireOpenUpload(scope, table, uploadId, request.branch);
  const upload = await translating(tableLabel(request.id), () => ipcStreamToFile(body));
  const object = joinLocation(uploadFolderOf(table.location, uploadId), `${partId}.arrow`);
  await scope.storages.for(object).put(object, upload.file);
  const now = Date.now();
  await scope.store.rows.putMultipartPart({ upload_id: uploadId, part_id: partId, object, num_rows: upload.numRows, bytes: upload.file.length, created_at: now });
  await scope.store.rows.updateMultipartWrite(uploadId, { expires_at: now + multipartWriteTtlMs, ...(request.overwrite ? { overwrite: 1 } : {}) });
  return { num_inserted_rows: upload.numRows };
}

/**
 * CompleteMultipartWrite: commits every staged part as one version (mode overwrite when any part
 * asked for it), then deletes the staged files. One completion at a time per upload; completing a
 * committed upload answers its version again. Throws 1, 4, 13, 19, 20, 22.
 */
export async function completeMultipartWrite(scope: CatalogScope, request: WithId<CompleteMultipartWriteRequest>): Promise<CompleteMultipartWriteResponse> {
  const uploadId = requireUploadId(request.upload_id);
  const subject = tableLabel(request.id);
  const table = await loadTable(scope, request.id);
  const ref = refOf({ branch: request.branch });
  return translating(
    subject,
    () =>
      scope.store.withLock(lockOf(uploadId), async () => {
        const write = await findUpload(scope, table, uploadId, request.branch);
        if (write.state === "committed") return { version: write.version as number, num_inserted_rows: write.num_rows ?? 0 };
        const parts = await scope.store.rows.listMultipartParts(uploadId);
        const numRows = parts.reduce((sum, part) => sum + part.num_rows, 0);
        let version = write.state === "completing" ? await findFinishedCommit(scope, table, write, numRows) : undefined;
        if (version === undefined) {
          if (parts.length === 0) throw invalidInput(`upload '${uploadId}' has no parts to commit`);
          const base = await scope.engine.describeTable(table.location, ref).then((snapshot) => snapshot.version, () => 0);
          await scope.store.rows.updateMultipartWrite(uploadId, { state: "completing", base_version: base, num_rows: numRows });
          try {
            const upload = await mergedParts(scope, parts);
            version = (await scope.engine.writes.insert(table.location, ref, upload, write.overwrite ? "overwrite" : "append")).version;
          } catch (error) {
            // A write the engine refused committed nothing: the upload is open again, so the
            // client's abort (or the expiry) can remove its parts.
            const committed = await findFinishedCommit(scope, table, { ...write, base_version: base }, numRows).catch(() => "unknown" as const);
            if (committed === undefined) await scope.store.rows.updateMultipartWrite(uploadId, { state: "open", base_version: null });
            throw error;
          }
        }
        await scope.store.rows.updateMultipartWrite(uploadId, { state: "committed", version, num_rows: numRows });
        await removeStagedParts(scope, table.location, uploadId);
        await scope.store.rows.deleteMultipartParts(uploadId);
        const transaction = await recordCommittedWrite(scope, "InsertIntoTable", request.id, version, request.branch);
        return { version, num_inserted_rows: numRows, ...transaction };
      }),
    refOverrides(subject, ref),
  );
}

/**
 * AbortMultipartWrite: deletes the staged parts and forgets the upload. Aborting an upload that
 * is unknown (already aborted or expired) is fine and deletes nothing: only an upload the store
 * records has files; one already committed is refused (19). Throws 1, 4, 13, 19.
 */
export async function abortMultipartWrite(scope: CatalogScope, request: WithId<AbortMultipartWriteRequest>): Promise<AbortMultipartWriteResponse> {
  const uploadId = requireUploadId(request.upload_id);
  const table = await loadTable(scope, request.id);
  return scope.store.withLock(lockOf(uploadId), async () => {
    const write = await scope.store.rows.findMultipartWrite(uploadId);
    if (!write) return {};
    if (write.table_id !== table.id) throw unknownUpload(uploadId);
    if (write.state === "committed") throw CatalogError.of("InvalidTableState", `upload '${uploadId}' is already committed as version ${write.version}`);
    // A completion cut short may have committed: only a completion may decide that.
    if (write.state === "completing") throw CatalogError.of("InvalidTableState", `upload '${uploadId}' is being completed; complete it again to finish`);
    await removeStagedParts(scope, table.location, uploadId);
    await scope.store.rows.deleteMultipartWrite(uploadId);
    return {};
  });
}

/** How often a serving process aborts the uploads whose time ran out. */
export const multipartExpiryIntervalMs = 10 * 60 * 1000;

/**
 * Aborts the uploads whose time ran out (their staged files deleted), and forgets committed ones
 * past their time, in every database of the store. Any replica may run it; an upload being
 * completed now is left for the next run.
 */
export async function expireMultipartWrites(scope: Pick<CatalogScope, "store" | "storages">, now = Date.now()): Promise<number> {
  const expired = await scope.store.rows.listExpiredMultipartWrites(now, 100);
  let removed = 0;
  for (const write of expired) {
    // Under the upload's lock no completion is running: one left `completing` was cut short, and
    // past its time its rows are either committed already or given up with the rest.
    // A record whose id is not of the form Quiver issues names no folder of its own.
    const uploadId = write.upload_id;
    if (!isPathName("upload_id", uploadId)) continue;
    const done = await scope.store.tryWithLock(lockOf(uploadId), async () => {
      const table = await scope.store.rows.findTableById(write.table_id);
      if (table) await removeStagedParts(scope, table.location, uploadId);
      await scope.store.rows.deleteMultipartWrite(uploadId);
      return true;
    });
    if (done) removed += 1;
  }
  return removed;
}

/** The bytes an upload's staged parts take (what completing it holds in memory); 0 when unknown. */
export async function stagedMultipartBytes(scope: CatalogScope, uploadId: string | null | undefined): Promise<number> {
  if (!uploadId) return 0;
  const parts = await scope.store.rows.listMultipartParts(uploadId);
  return parts.reduce((sum, part) => sum + part.bytes, 0);
}

/** The request's upload id, checked to be of the form Quiver issues. Throws 13. */
function requireUploadId(uploadId: string | null | undefined): UploadId {
  if (!uploadId) throw invalidInput("upload_id is required");
  return pathName("upload_id", uploadId);
}

function unknownUpload(uploadId: string): CatalogError {
  return invalidInput(`upload '${uploadId}' is not an open multipart write of this table (it was completed, aborted or has expired)`);
}

async function findUpload(scope: CatalogScope, table: TableRow, uploadId: UploadId, branch: string | null | undefined): Promise<MultipartWriteRow> {
  const write = await scope.store.rows.findMultipartWrite(uploadId);
  if (!write || write.table_id !== table.id) throw unknownUpload(uploadId);
  if ((write.branch ?? null) !== (branch || null)) throw invalidInput(`upload '${uploadId}' writes to ${write.branch ? `branch '${write.branch}'` : "main"}; send its requests with that branch`);
  return write;
}

/** Refuses unless `uploadId` is an upload of the table, on `branch`, that still takes parts. Throws 13, 19. */
async function requireOpenUpload(scope: CatalogScope, table: TableRow, uploadId: UploadId, branch: string | null | undefined): Promise<void> {
  const write = await findUpload(scope, table, uploadId, branch);
  if (write.state !== "open") throw CatalogError.of("InvalidTableState", `upload '${uploadId}' is ${write.state === "committed" ? "already committed" : "being completed"}; it takes no more parts`);
}

/**
 * The parts as one IPC file, in one buffer sized from the parts' records: each part is read,
 * copied in and let go, so the completion holds the upload about once, not twice.
 */
async function mergedParts(scope: CatalogScope, parts: MultipartPartRow[]): Promise<DecodedUpload> {
  const read = async (part: MultipartPartRow): Promise<Buffer> => {
    const bytes = await scope.storages.for(part.object).read(part.object);
    if (!bytes) throw CatalogError.of("InvalidTableState", `a staged part of this upload is missing (${part.part_id}); abort the upload and send it again`);
    return bytes;
  };
  const target = Buffer.allocUnsafe(parts.reduce((sum, part) => sum + part.bytes, 0));
  let next = 1;
  let written = 0;
  const first = await read(parts[0] as MultipartPartRow);
  for await (const chunk of mergeIpcFiles(first, async () => (next < parts.length ? read(parts[next++] as MultipartPartRow) : null))) {
    if (written + chunk.length > target.length) throw new Error("merged parts outgrew their recorded sizes");
    chunk.copy(target, written);
    written += chunk.length;
  }
  const file = target.subarray(0, written);
  // Parts keep the client's LZ4 bodies; numBatches only tells the engine the upload has rows.
  return { file, compressed: true, schema: schemaOfIpcFooter(file), numRows: parts.reduce((sum, part) => sum + part.num_rows, 0), numBatches: parts.length };
}

/**
 * The version a completion cut short made, if it got as far as Lance's commit: one version after
 * the one it started from that added exactly the upload's rows (or, overwriting, holds them).
 */
async function findFinishedCommit(scope: CatalogScope, table: TableRow, write: MultipartWriteRow, numRows: number): Promise<number | undefined> {
  if (write.base_version === null) return undefined;
  const ref = { branch: optionalBranch(write.branch) };
  const latest = await scope.engine.describeTable(table.location, ref);
  for (let version = write.base_version + 1; version <= latest.version; version++) {
    const now = await scope.engine.describeTable(table.location, { ...ref, version });
    const before = write.overwrite ? 0 : version === 1 ? 0 : (await scope.engine.describeTable(table.location, { ...ref, version: version - 1 })).numRows;
    if (now.numRows - before === numRows) return version;
  }
  return undefined;
}

async function removeStagedParts(scope: Pick<CatalogScope, "storages">, location: string, uploadId: UploadId): Promise<void> {
  const folder = uploadFolderOf(location, uploadId);
  await scope.storages.for(folder).deletePrefix(folder, location);
}
