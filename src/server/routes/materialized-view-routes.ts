/**
 * @module Materialized-view routes (spec/endpoints.md §10): create (201) and refresh (202, also
 * at the legacy `/v1/table/{id}/refresh`).
 */
import type { FastifyInstance } from "fastify";
import * as M from "../../model/index.js";
import { defineOperation } from "../route-kit.js";
import type { ServerServices } from "../services.js";

const tag = "MaterializedView";

export function materializedViewRoutes(app: FastifyInstance, services: ServerServices): void {
  defineOperation<M.CreateMaterializedViewRequest>(
    app,
    services,
    {
      operationId: "CreateMaterializedView",
      summary: "Create a materialized view (a table kept up to date from a source table)",
      tag,
      methods: ["POST"],
      url: "/v1/materialized_view/:id/create",
      body: { kind: "json", schema: M.CreateMaterializedViewRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.CreateMaterializedViewResponse },
      successStatus: 201,
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.createMaterializedView({ ...body, id }, call),
  );

  defineOperation<M.RefreshMaterializedViewRequest>(
    app,
    services,
    {
      operationId: "RefreshMaterializedView",
      summary: "Start an asynchronous refresh job of a materialized view",
      tag,
      methods: ["POST"],
      url: "/v1/materialized_view/:id/refresh",
      aliases: ["/v1/table/:id/refresh"],
      body: { kind: "json", schema: M.RefreshMaterializedViewRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.RefreshMaterializedViewResponse },
      successStatus: 202,
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.refreshMaterializedView({ ...body, id }, call),
  );
}
