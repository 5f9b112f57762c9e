/**
 * @module Row write routes (spec/endpoints.md §5.2–5.5): insert and merge_insert take an
 * Arrow IPC stream with their parameters in the query string; update and delete take JSON.
 */
import type { FastifyInstance } from "fastify";
import * as M from "../../model/index.js";
import { defineOperation } from "../route-kit.js";
import type { ServerServices } from "../services.js";
import { arrowBody } from "./table-routes.js";

const tag = "Data";

export function dataRoutes(app: FastifyInstance, services: ServerServices): void {
  defineOperation<unknown, M.InsertIntoTableQuery>(
    app,
    services,
    {
      operationId: "InsertIntoTable",
      summary: "Append (or overwrite with) the rows of an Arrow IPC stream",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/insert",
      body: { kind: "arrow" },
      querystring: M.InsertIntoTableQuery,
      response: { kind: "json", schema: M.InsertIntoTableResponse },
      access: "write",
    },
    ({ catalog, id, query, request, call }) => catalog.insertIntoTable({ id, mode: query.mode, branch: query.branch }, arrowBody(request.body), call),
  );

  defineOperation<unknown, M.MergeInsertIntoTableQuery>(
    app,
    services,
    {
      operationId: "MergeInsertIntoTable",
      summary: "Upsert the rows of an Arrow IPC stream, matched on the `on` columns",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/merge_insert",
      body: { kind: "arrow" },
      querystring: M.MergeInsertIntoTableQuery,
      response: { kind: "json", schema: M.MergeInsertIntoTableResponse },
      access: "write",
    },
    ({ catalog, id, query, request, call }) => {
      const { delimiter: _delimiter, ...parameters } = query;
      return catalog.mergeInsertIntoTable({ ...parameters, id }, arrowBody(request.body), call);
    },
  );

  defineOperation<M.UpdateTableRequest>(
    app,
    services,
    {
      operationId: "UpdateTable",
      summary: "Set columns to SQL expressions on the rows matching a predicate",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/update",
      body: { kind: "json", schema: M.UpdateTableRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.UpdateTableResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.updateTable({ ...body, id }, call),
  );

  defineOperation<M.DeleteFromTableRequest>(
    app,
    services,
    {
      operationId: "DeleteFromTable",
      summary: "Delete the rows matching a predicate",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/delete",
      body: { kind: "json", schema: M.DeleteFromTableRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.DeleteFromTableResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.deleteFromTable({ ...body, id }, call),
  );
}
