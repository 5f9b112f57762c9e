/**
 * @module The managed deployment's extended API (service description: Extended API): `GET /v1/tables` and
 * `POST /v1/tables/{table_name}` with an Arrow stream body, used by its connection check.
 */
import type { FastifyInstance } from "fastify";
import * as M from "../../model/index.js";
import { defineOperation } from "../route-kit.js";
import type { ServerServices } from "../services.js";
import { arrowBody, createTableRequestOf } from "./table-routes.js";
import { parsePathId } from "../identifiers.js";
import type { Static } from "@sinclair/typebox";

const tag = "Extended";
type CreateTableQuery = Static<typeof M.CreateTableQuery>;

export function extendedRoutes(app: FastifyInstance, services: ServerServices): void {
  defineOperation<unknown, M.ListQuery>(
    app,
    services,
    {
      operationId: "ListTablesExtended",
      summary: "List every table of the database (managed-deployment API)",
      tag,
      methods: ["GET"],
      url: "/v1/tables",
      body: { kind: "none" },
      querystring: M.ListQuery,
      response: { kind: "json", schema: M.ListTablesResponse },
      access: "read",
    },
    ({ catalog, delimiter, query, call }) => catalog.listAllTables({ ...query, delimiter }, call),
  );

  defineOperation<unknown, CreateTableQuery>(
    app,
    services,
    {
      operationId: "CreateTableExtended",
      summary: "Create a table from an Arrow IPC stream (managed-deployment API)",
      tag,
      methods: ["POST"],
      url: "/v1/tables/:table_name",
      body: { kind: "arrow" },
      querystring: M.CreateTableQuery,
      response: { kind: "json", schema: M.CreateTableResponse },
      access: "write",
    },
    ({ catalog, delimiter, query, request, call }) => {
      const id = parsePathId((request.params as { table_name: string }).table_name, delimiter);
      return catalog.createTable(createTableRequestOf(id, query), arrowBody(request.body), call);
    },
  );
}
