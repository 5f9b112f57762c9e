/**
 * @module Table metadata routes (spec/endpoints.md §2.7, §3, §5.1).
 */
import type { FastifyInstance } from "fastify";
import type { Static } from "@sinclair/typebox";
import * as M from "../../model/index.js";
import { jsonMapParam } from "../query-json.js";
import { defineOperation } from "../route-kit.js";
import type { ServerServices } from "../services.js";
import type { Readable } from "node:stream";

const tag = "Table";
type CreateTableQuery = Static<typeof M.CreateTableQuery>;
type DescribeTableQuery = Static<typeof M.DescribeTableQuery>;

export function tableRoutes(app: FastifyInstance, services: ServerServices): void {
  defineOperation<unknown, M.ListQuery & { delimiter?: string }>(
    app,
    services,
    {
      operationId: "ListAllTables",
      summary: "List every table of the database by full identifier",
      tag,
      methods: ["GET"],
      url: "/v1/table",
      body: { kind: "none" },
      querystring: M.ListQuery,
      response: { kind: "json", schema: M.ListTablesResponse },
      access: "read",
    },
    ({ catalog, delimiter, query, call }) => catalog.listAllTables({ ...query, delimiter }, call),
  );

  defineOperation<M.RegisterTableRequest>(
    app,
    services,
    {
      operationId: "RegisterTable",
      summary: "Register an existing Lance table under an identifier",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/register",
      body: { kind: "json", schema: M.RegisterTableRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.RegisterTableResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.registerTable({ ...body, id }, call),
  );

  defineOperation<M.CloneTableRequest>(
    app,
    services,
    {
      operationId: "CloneTable",
      summary: "Create a table as a shallow clone of another table's version or tag",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/clone",
      body: { kind: "json", schema: M.CloneTableRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.CloneTableResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.cloneTable({ ...body, id }, call),
  );

  defineOperation<M.DescribeTableRequest, DescribeTableQuery>(
    app,
    services,
    {
      operationId: "DescribeTable",
      summary: "Describe a table: location, properties and, when it has data, version, schema and stats",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/describe",
      body: { kind: "json", schema: M.DescribeTableRequest },
      querystring: M.DescribeTableQuery,
      response: { kind: "json", schema: M.DescribeTableResponse },
      access: "read",
    },
    ({ catalog, id, body, query, call }) => {
      // In REST these switches travel as query parameters and win over the body.
      const { with_table_uri, load_detailed_metadata, check_declared } = query;
      return catalog.describeTable(
        {
          ...body,
          id,
          with_table_uri: with_table_uri ?? body.with_table_uri,
          load_detailed_metadata: load_detailed_metadata ?? body.load_detailed_metadata,
          check_declared: check_declared ?? body.check_declared,
        },
        call,
      );
    },
  );

  defineOperation<M.TableExistsRequest>(
    app,
    services,
    {
      operationId: "TableExists",
      summary: "Check whether a table exists (200 yes, 404 no)",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/exists",
      body: { kind: "json", schema: M.TableExistsRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "empty" },
      access: "read",
    },
    ({ catalog, id, body, call }) => catalog.tableExists({ ...body, id }, call),
  );

  defineOperation(
    app,
    services,
    {
      operationId: "DropTable",
      summary: "Drop a table and delete its data",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/drop",
      body: { kind: "none" },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.DropTableResponse },
      access: "write",
    },
    ({ catalog, id, call }) => catalog.dropTable({ id }, call),
  );

  defineOperation<M.DeregisterTableRequest>(
    app,
    services,
    {
      operationId: "DeregisterTable",
      summary: "Remove a table from its namespace, keeping its data",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/deregister",
      body: { kind: "json", schema: M.DeregisterTableRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.DeregisterTableResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.deregisterTable({ ...body, id }, call),
  );

  defineOperation<M.RestoreTableRequest>(
    app,
    services,
    {
      operationId: "RestoreTable",
      summary: "Make an older version the newest one",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/restore",
      body: { kind: "json", schema: M.RestoreTableRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.RestoreTableResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.restoreTable({ ...body, id }, call),
  );

  defineOperation<M.RenameTableRequest>(
    app,
    services,
    {
      operationId: "RenameTable",
      summary: "Rename a table, optionally into another namespace (metadata only)",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/rename",
      body: { kind: "json", schema: M.RenameTableRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.RenameTableResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.renameTable({ ...body, id }, call),
  );

  defineOperation<M.DeclareTableRequest>(
    app,
    services,
    {
      operationId: "DeclareTable",
      summary: "Reserve a table name and location without writing data",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/declare",
      // Older clients call the deprecated CreateEmptyTable, which now means DeclareTable.
      aliases: ["/v1/table/:id/create-empty"],
      body: { kind: "json", schema: M.DeclareTableRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.DeclareTableResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.declareTable({ ...body, id }, call),
  );

  defineOperation<unknown, CreateTableQuery>(
    app,
    services,
    {
      operationId: "CreateTable",
      summary: "Create a table from an Arrow IPC stream",
      tag: "Data",
      methods: ["POST"],
      url: "/v1/table/:id/create",
      body: { kind: "arrow" },
      querystring: M.CreateTableQuery,
      response: { kind: "json", schema: M.CreateTableResponse },
      access: "write",
    },
    ({ catalog, id, query, request, call }) => catalog.createTable(createTableRequestOf(id, query), arrowBody(request.body), call),
  );
}

/** CreateTable's parameters travel in the query string; the maps are JSON-encoded. */
export function createTableRequestOf(id: string[], query: CreateTableQuery): M.CreateTableRequest & { id: string[] } {
  return {
    id,
    mode: query.mode,
    properties: jsonMapParam(query.properties, "properties"),
    storage_options: jsonMapParam(query.storage_options, "storage_options"),
  };
}

/**
 * The raw upload as plain chunks; an absent body is an empty one, which the Arrow reader refuses
 * with 13. The request stream is wrapped, and left open when the reader stops early, because
 * destroying the request would close the socket before the response and leave nothing to drain.
 */
export function arrowBody(body: unknown): AsyncIterable<Uint8Array> | Uint8Array {
  if (body === undefined || body === null) return new Uint8Array();
  if (body instanceof Uint8Array) return body;
  if (typeof body === "object" && typeof (body as Readable).pipe === "function") return (body as Readable).iterator({ destroyOnReturn: false });
  return Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
}

