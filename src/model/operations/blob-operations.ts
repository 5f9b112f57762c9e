/**
 * @module Operation entries of the LanceDB Cloud client's blob reads and LSM getters (spec/clients.md
 * §2.3). They are the client's own routes, not the namespace spec's, so Quiver's client leaves them
 * to HTTP.
 */
import { Type } from "@sinclair/typebox";
import * as M from "../index.js";
import { json, operation } from "./operation-entry.js";

export const blobOperations = {
  /**
   * FetchTableBlobs: the whole blobs of `column` at `row_ids` (`_rowid` values), as an Arrow IPC
   * stream of one LargeBinary column named `column`, one row per id in order, nulls and duplicates
   * kept. Throws 1, 4, 11, 12, 13, 22.
   */
  fetchTableBlobs: operation({
    operationId: "FetchTableBlobs",
    summary: "Whole blobs of a blob column at row ids; answers an Arrow IPC stream",
    tag: "Data",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/fetch_blobs",
    target: "table",
    client: false,
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.FetchTableBlobsRequest,
    response: { kind: "arrow-stream" },
  }),

  /**
   * GetTableBlobBytes: the bytes of one blob, whole (200) or the single range `Range` asks for
   * (206); 204 for a null blob, 416 for an empty one or a range past its end. Throws 1, 4, 11, 12, 13, 22.
   */
  getTableBlobBytes: operation({
    operationId: "GetTableBlobBytes",
    summary: "The bytes of one blob, whole or by HTTP range",
    tag: "Data",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["GET"],
    path: "/v1/table/{id}/blob/{column}/{row_id}/bytes",
    target: "table",
    client: false,
    body: "none",
    querySchema: M.GetTableBlobBytesQuery,
    request: M.GetTableBlobBytesRequest,
    pathFields: { column: Type.String({ minLength: 1 }), row_id: Type.String({ minLength: 1 }) },
    response: { kind: "bytes" },
  }),

  /** GetTableLsmWriteSpec: the LSM write spec another writer installed, null when none. Throws 1, 4, 19. */
  getTableLsmWriteSpec: operation({
    operationId: "GetTableLsmWriteSpec",
    summary: "The table's LSM write spec, null when it has none",
    tag: "Table",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/get_lsm_write_spec",
    target: "table",
    client: false,
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.GetTableLsmWriteSpecRequest,
    response: json(M.GetTableLsmWriteSpecResponse),
  }),

  /**
   * GetTableLsmStats: null for a table with no LSM write spec; a table with one is refused (406),
   * its live state being held by the writer that installed it. Throws 0, 1, 4, 19.
   */
  getTableLsmStats: operation({
    operationId: "GetTableLsmStats",
    summary: "LSM statistics: null for a table with no LSM write spec",
    tag: "Table",
    access: "read",
    privilege: { needs: "SELECT", on: "object" },
    methods: ["POST"],
    path: "/v1/table/{id}/get_lsm_stats",
    target: "table",
    client: false,
    body: "json",
    querySchema: M.DelimiterQuery,
    request: M.GetTableLsmStatsRequest,
    response: json(M.GetTableLsmStatsResponse),
  }),
};
