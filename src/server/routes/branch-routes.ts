/**
 * @module Branch routes (spec/endpoints.md §9).
 */
import type { FastifyInstance } from "fastify";
import * as M from "../../model/index.js";
import { defineOperation } from "../route-kit.js";
import type { ServerServices } from "../services.js";

const tag = "Branch";

export function branchRoutes(app: FastifyInstance, services: ServerServices): void {
  defineOperation<unknown, M.ListTableBranchesQuery>(
    app,
    services,
    {
      operationId: "ListTableBranches",
      summary: "List a table's branches",
      tag,
      // The namespace client sends its request model as a body; paging travels in the query.
      methods: ["POST"],
      url: "/v1/table/:id/branches/list",
      body: { kind: "none" },
      querystring: M.ListTableBranchesQuery,
      response: { kind: "json", schema: M.ListTableBranchesResponse },
      access: "read",
    },
    ({ catalog, id, query, call }) => catalog.listTableBranches({ ...query, id }, call),
  );

  defineOperation<M.CreateTableBranchRequest>(
    app,
    services,
    {
      operationId: "CreateTableBranch",
      summary: "Fork a branch from a branch and version",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/branches/create",
      body: { kind: "json", schema: M.CreateTableBranchRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.CreateTableBranchResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.createTableBranch({ ...body, id }, call),
  );

  defineOperation<M.DeleteTableBranchRequest>(
    app,
    services,
    {
      operationId: "DeleteTableBranch",
      summary: "Delete a branch",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/branches/delete",
      body: { kind: "json", schema: M.DeleteTableBranchRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.DeleteTableBranchResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.deleteTableBranch({ ...body, id }, call),
  );

  defineOperation<M.DiffTableBranchRequest>(
    app,
    services,
    {
      operationId: "DiffTableBranch",
      summary: "Changes of a branch (unsupported: answers 406)",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/branches/diff",
      body: { kind: "json", schema: M.DiffTableBranchRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.DiffTableBranchResponse },
      access: "read",
    },
    ({ catalog, id, body, call }) => catalog.diffTableBranch({ ...body, id }, call),
  );

  defineOperation<M.CherryPickTableBranchRequest>(
    app,
    services,
    {
      operationId: "CherryPickTableBranch",
      summary: "Apply a branch's changes (unsupported: answers 406)",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/branches/cherry_pick",
      body: { kind: "json", schema: M.CherryPickTableBranchRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.CherryPickTableBranchResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.cherryPickTableBranch({ ...body, id }, call),
  );
}
