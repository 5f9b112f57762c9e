/**
 * @module Schema evolution routes (spec/endpoints.md §3.10, §6.1–6.4).
 */
import type { FastifyInstance } from "fastify";
import * as M from "../../model/index.js";
import { defineOperation } from "../route-kit.js";
import type { ServerServices } from "../services.js";

const tag = "Table";

export function schemaRoutes(app: FastifyInstance, services: ServerServices): void {
  defineOperation<M.AlterTableAddColumnsRequest>(
    app,
    services,
    {
      operationId: "AlterTableAddColumns",
      summary: "Add columns computed from SQL expressions",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/add_columns",
      body: { kind: "json", schema: M.AlterTableAddColumnsRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.AlterTableAddColumnsResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.alterTableAddColumns({ ...body, id }, call),
  );

  defineOperation<M.AlterTableAlterColumnsRequest>(
    app,
    services,
    {
      operationId: "AlterTableAlterColumns",
      summary: "Rename columns, change their nullability or type",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/alter_columns",
      body: { kind: "json", schema: M.AlterTableAlterColumnsRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.AlterTableAlterColumnsResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.alterTableAlterColumns({ ...body, id }, call),
  );

  defineOperation<M.AlterTableDropColumnsRequest>(
    app,
    services,
    {
      operationId: "AlterTableDropColumns",
      summary: "Drop columns",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/drop_columns",
      body: { kind: "json", schema: M.AlterTableDropColumnsRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.AlterTableDropColumnsResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.alterTableDropColumns({ ...body, id }, call),
  );

  defineOperation<M.UpdateFieldMetadataRequest>(
    app,
    services,
    {
      operationId: "UpdateFieldMetadata",
      summary: "Merge or replace the metadata of fields",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/update_field_metadata",
      body: { kind: "json", schema: M.UpdateFieldMetadataRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.UpdateFieldMetadataResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.updateFieldMetadata({ ...body, id }, call),
  );

  defineOperation<Record<string, string>, { branch?: string }>(
    app,
    services,
    {
      operationId: "UpdateTableSchemaMetadata",
      summary: "Replace the table's schema metadata (bare JSON map in and out)",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/schema_metadata/update",
      body: { kind: "json", schema: M.UpdateTableSchemaMetadataBody },
      querystring: M.UpdateTableSchemaQuery,
      response: { kind: "json", schema: M.UpdateTableSchemaMetadataBody },
      access: "write",
    },
    ({ catalog, id, body, query, call }) => catalog.updateTableSchemaMetadata({ id, branch: query.branch, metadata: body }, call),
  );
}
