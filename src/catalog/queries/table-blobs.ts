/**
 * @module The LanceDB Cloud client's blob reads and LSM getters (spec/clients.md §2.3):
 * FetchTableBlobs, GetTableBlobBytes, GetTableLsmWriteSpec, GetTableLsmStats.
 */
import { type BlobBytes, type FetchedBlobs, describeLsmWriteSpec } from "../../engine/engine.js";
import type {
  FetchTableBlobsRequest,
  GetTableBlobBytesRequest,
  GetTableLsmStatsRequest,
  GetTableLsmStatsResponse,
  GetTableLsmWriteSpecRequest,
  GetTableLsmWriteSpecResponse,
} from "../../model/blobs.js";
import { CatalogError, invalidInput } from "../../model/catalog-error.js";
import type { CatalogScope, WithId } from "../catalog-scope.js";
import { tableLabel } from "../identifiers.js";
import { refOf } from "../table-refs.js";
import { readingTable } from "./table-reads.js";

/**
 * FetchTableBlobs: the blobs of `column` at `row_ids`, one row per id in order (nulls and
 * duplicates kept), as an Arrow IPC stream produced batch by batch. An unknown column is 12; a
 * column that holds no blobs, or an id not in the version read, is 13. Throws 1, 4, 11, 12, 13, 22.
 */
export function fetchTableBlobs(scope: CatalogScope, request: WithId<FetchTableBlobsRequest>): Promise<FetchedBlobs> {
  return readingTable(scope, request, refOf(request), (location, at) => scope.engine.blobs.fetch(location, at, request.column, request.row_ids));
}

/**
 * GetTableBlobBytes: the blob of `column` at `row_id`, opened for ranged reads (its size known,
 * no byte read yet); `blob` is null for a null blob. Throws 1, 4, 11, 12, 13, 22.
 */
export function getTableBlobBytes(scope: CatalogScope, request: WithId<GetTableBlobBytesRequest>): Promise<BlobBytes> {
  if (!/^\d{1,16}$/.test(request.row_id) || !Number.isSafeInteger(Number(request.row_id))) {
    throw invalidInput(`row id '${request.row_id}' is not a row id: give the decimal _rowid a query with row ids answers`);
  }
  return readingTable(scope, request, refOf(request), (location, at) => scope.engine.blobs.open(location, at, request.column, Number(request.row_id)));
}

/** GetTableLsmWriteSpec: the LSM write spec another writer installed on the newest version of main, null when none. Throws 1, 4, 19. */
export function getTableLsmWriteSpec(scope: CatalogScope, request: WithId<GetTableLsmWriteSpecRequest>): Promise<GetTableLsmWriteSpecResponse> {
  return readingTable(scope, request, {}, async (location, at) => {
    const spec = await scope.engine.lsm.writeSpec(location, at);
    if (!spec) return { lsm_write_spec: null };
    const sharding = { mode: spec.mode, ...(spec.column === undefined ? {} : { column: spec.column }), ...(spec.numBuckets === undefined ? {} : { num_buckets: spec.numBuckets }) };
    return { lsm_write_spec: { sharding, maintained_indexes: spec.maintainedIndexes, writer_config_defaults: spec.writerConfigDefaults } };
  });
}

/**
 * GetTableLsmStats: null for a table with no LSM write spec. The statistics of a table with one are
 * the live state of the writer that installed it (its memtables, its WAL positions), which this
 * server does not hold: refused with 406. Throws 0, 1, 4, 19.
 */
export function getTableLsmStats(scope: CatalogScope, request: WithId<GetTableLsmStatsRequest>): Promise<GetTableLsmStatsResponse> {
  return readingTable(scope, request, {}, async (location, at) => {
    const spec = await scope.engine.lsm.writeSpec(location, at);
    if (!spec) return { lsm_stats: null };
    throw CatalogError.of(
      "Unsupported",
      `${tableLabel(request.id)} has an LSM write spec (${describeLsmWriteSpec(spec)}); its statistics are held by the writer that installed it, and LSM tables are a LanceDB Enterprise feature this server does not serve`,
    );
  });
}
