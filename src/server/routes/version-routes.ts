/**
 * @module Version routes (spec/endpoints.md §4): list, create, describe, delete, and the two
 * atomic multi-table commits.
 */
import type { FastifyInstance } from "fastify";
import * as M from "../../model/index.js";
import { defineOperation } from "../route-kit.js";
import type { ServerServices } from "../services.js";

const tag = "Table";

export function versionRoutes(app: FastifyInstance, services: ServerServices): void {
  defineOperation<unknown, M.ListTableVersionsQuery>(
    app,
    services,
    {
      operationId: "ListTableVersions",
      summary: "List the versions of a table's branch",
      tag,
      // POST with body `null` (lance 12) or GET (older clients); parameters in the query.
      methods: ["POST", "GET"],
      url: "/v1/table/:id/version/list",
      body: { kind: "none" },
      querystring: M.ListTableVersionsQuery,
      response: { kind: "json", schema: M.ListTableVersionsResponse },
      access: "read",
    },
    ({ catalog, id, query, call }) => catalog.listTableVersions({ ...query, id }, call),
  );

  defineOperation<M.CreateTableVersionRequest>(
    app,
    services,
    {
      operationId: "CreateTableVersion",
      summary: "Commit a version from a staged manifest (put-if-not-exists)",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/version/create",
      body: { kind: "json", schema: M.CreateTableVersionRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.CreateTableVersionResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.createTableVersion({ ...body, id }, call),
  );

  defineOperation<M.DescribeTableVersionRequest>(
    app,
    services,
    {
      operationId: "DescribeTableVersion",
      summary: "Describe one version of a table (the latest by default)",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/version/describe",
      body: { kind: "json", schema: M.DescribeTableVersionRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.DescribeTableVersionResponse },
      access: "read",
    },
    ({ catalog, id, body, call }) => catalog.describeTableVersion({ ...body, id }, call),
  );

  defineOperation<M.BatchDeleteTableVersionsRequest>(
    app,
    services,
    {
      operationId: "BatchDeleteTableVersions",
      summary: "Delete version records and manifests by range (never data files)",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/version/delete",
      body: { kind: "json", schema: M.BatchDeleteTableVersionsRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.BatchDeleteTableVersionsResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.batchDeleteTableVersions({ ...body, id }, call),
  );

  defineOperation<M.BatchCreateTableVersionsRequest>(
    app,
    services,
    {
      operationId: "BatchCreateTableVersions",
      summary: "Create versions of several tables atomically",
      tag,
      methods: ["POST"],
      url: "/v1/table/version/batch-create",
      body: { kind: "json", schema: M.BatchCreateTableVersionsRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.BatchCreateTableVersionsResponse },
      access: "write",
    },
    ({ catalog, body, call }) => catalog.batchCreateTableVersions(body, call),
  );

  defineOperation<M.BatchCommitTablesRequest>(
    app,
    services,
    {
      operationId: "BatchCommitTables",
      summary: "Apply declare / create-version / delete-versions / deregister operations atomically",
      tag,
      methods: ["POST"],
      url: "/v1/table/batch-commit",
      body: { kind: "json", schema: M.BatchCommitTablesRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.BatchCommitTablesResponse },
      access: "write",
    },
    ({ catalog, body, call }) => catalog.batchCommitTables(body, call),
  );
}
