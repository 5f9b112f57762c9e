/**
 * @module Index routes (spec/endpoints.md §7); index stats take GET too.
 */
import type { FastifyInstance } from "fastify";
import { Type } from "@sinclair/typebox";
import * as M from "../../model/index.js";
import { accepted, runsAsJob } from "../job-switch.js";
import { defineOperation } from "../route-kit.js";
import type { ServerServices } from "../services.js";

const tag = "Index";
/** Builds and drops take `wait=false` to run as a job (docs/jobs.md). */
const IndexJobQuery = Type.Object({ delimiter: Type.Optional(Type.String({ minLength: 1 })), wait: Type.Optional(Type.Boolean()) });
type WaitQuery = { wait?: boolean };

function indexNameOf(params: unknown): string {
  return (params as { index_name: string }).index_name;
}

export function indexRoutes(app: FastifyInstance, services: ServerServices): void {
  // CreateTableScalarIndex is the spec's alias of CreateTableIndex for scalar types: one handler.
  const builds = [
    { operationId: "CreateTableIndex", summary: "Build a vector, scalar or full-text index", path: "create_index", response: M.CreateTableIndexResponse },
    { operationId: "CreateTableScalarIndex", summary: "Build a scalar or full-text index", path: "create_scalar_index", response: M.CreateTableScalarIndexResponse },
  ];
  for (const build of builds) {
    defineOperation<M.CreateTableIndexRequest, WaitQuery>(
      app,
      services,
      {
        operationId: build.operationId,
        summary: build.summary,
        tag,
        methods: ["POST"],
        url: `/v1/table/:id/${build.path}`,
        body: { kind: "json", schema: M.CreateTableIndexRequest },
        querystring: IndexJobQuery,
        response: { kind: "json", schema: build.response },
        access: "write",
      },
      ({ catalog, id, body, query, request, reply, call }) =>
        runsAsJob(request, body.wait, query.wait) ? accepted(reply, catalog.createTableIndexJob({ ...body, id }, call)) : catalog.createTableIndex({ ...body, id }, call),
    );
  }

  defineOperation<M.ListTableIndicesRequest>(
    app,
    services,
    {
      operationId: "ListTableIndices",
      summary: "List the indexes of a table",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/index/list",
      body: { kind: "json", schema: M.ListTableIndicesRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.ListTableIndicesResponse },
      access: "read",
    },
    ({ catalog, id, body, call }) => catalog.listTableIndices({ ...body, id }, call),
  );

  defineOperation<M.DescribeTableIndexStatsRequest>(
    app,
    services,
    {
      operationId: "DescribeTableIndexStats",
      summary: "Statistics of one index",
      tag,
      methods: ["GET", "POST"],
      url: "/v1/table/:id/index/:index_name/stats",
      body: { kind: "json", schema: M.DescribeTableIndexStatsRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.DescribeTableIndexStatsResponse },
      access: "read",
    },
    // The path names the index and wins over the body.
    ({ catalog, id, body, request, call }) => catalog.describeTableIndexStats({ ...body, id, index_name: indexNameOf(request.params) }, call),
  );

  defineOperation<unknown, { branch?: string; wait?: boolean }>(
    app,
    services,
    {
      operationId: "DropTableIndex",
      summary: "Drop one index",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/index/:index_name/drop",
      body: { kind: "none" },
      querystring: M.BranchQuery,
      response: { kind: "json", schema: M.DropTableIndexResponse },
      access: "write",
    },
    ({ catalog, id, query, request, reply, call }) => {
      const drop = { id, branch: query.branch, index_name: indexNameOf(request.params) };
      return runsAsJob(request, undefined, query.wait) ? accepted(reply, catalog.dropTableIndexJob(drop, call)) : catalog.dropTableIndex(drop, call);
    },
  );

  defineOperation<unknown, M.PrewarmQuery>(
    app,
    services,
    {
      operationId: "PrewarmTableIndex",
      summary: "Load an index into the server's index cache",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/index/:index_name/prewarm",
      body: { kind: "none" },
      querystring: M.PrewarmQuery,
      response: { kind: "json", schema: M.PrewarmTableIndexResponse },
      access: "read",
    },
    ({ catalog, id, query, request, call }) => catalog.prewarmTableIndex({ id, branch: query.branch, index_name: indexNameOf(request.params) }, call),
  );

  defineOperation<M.PrewarmTablePageCacheRequest>(
    app,
    services,
    {
      operationId: "PrewarmTablePageCache",
      summary: "Load columns' data pages into the page cache (unsupported: answers 406)",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/page_cache/prewarm",
      body: { kind: "json", schema: M.PrewarmTablePageCacheRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.PrewarmTablePageCacheResponse },
      access: "read",
    },
    ({ catalog, id, body, call }) => catalog.prewarmTablePageCache({ ...body, id }, call),
  );
}
