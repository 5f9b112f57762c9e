/**
 * @module Namespace routes (spec/endpoints.md §2).
 */
import type { FastifyInstance } from "fastify";
import * as M from "../../model/index.js";
import { defineOperation } from "../route-kit.js";
import type { ServerServices } from "../services.js";

const tag = "Namespace";

export function namespaceRoutes(app: FastifyInstance, services: ServerServices): void {
  defineOperation<M.CreateNamespaceRequest, M.ListQuery>(
    app,
    services,
    {
      operationId: "CreateNamespace",
      summary: "Create a namespace",
      tag,
      methods: ["POST"],
      url: "/v1/namespace/:id/create",
      body: { kind: "json", schema: M.CreateNamespaceRequest },
      response: { kind: "json", schema: M.CreateNamespaceResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.createNamespace({ ...body, id }, call),
  );

  defineOperation<unknown, M.ListQuery>(
    app,
    services,
    {
      operationId: "ListNamespaces",
      summary: "List the child namespaces of a namespace",
      tag,
      methods: ["GET"],
      url: "/v1/namespace/:id/list",
      // With the delimiter ".", URL libraries drop the root id "." (spec/clients.md §2.2).
      aliases: ["/v1/namespace/list"],
      body: { kind: "none" },
      querystring: M.ListQuery,
      response: { kind: "json", schema: M.ListNamespacesResponse },
      access: "read",
    },
    ({ catalog, id, delimiter, query, call }) => {
      // `/v1/namespace/table/list?delimiter=.` is the root's table listing with its "." dropped.
      if (delimiter === "." && id.length === 1 && id[0] === "table") return catalog.listTables({ ...query, id: [] }, call);
      return catalog.listNamespaces({ ...query, id }, call);
    },
  );

  defineOperation<M.DescribeNamespaceRequest>(
    app,
    services,
    {
      operationId: "DescribeNamespace",
      summary: "Describe a namespace",
      tag,
      methods: ["POST"],
      url: "/v1/namespace/:id/describe",
      body: { kind: "json", schema: M.DescribeNamespaceRequest },
      response: { kind: "json", schema: M.DescribeNamespaceResponse },
      access: "read",
    },
    ({ catalog, id, body, call }) => catalog.describeNamespace({ ...body, id }, call),
  );

  defineOperation<M.DropNamespaceRequest>(
    app,
    services,
    {
      operationId: "DropNamespace",
      summary: "Drop a namespace",
      tag,
      methods: ["POST"],
      url: "/v1/namespace/:id/drop",
      body: { kind: "json", schema: M.DropNamespaceRequest },
      response: { kind: "json", schema: M.DropNamespaceResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.dropNamespace({ ...body, id }, call),
  );

  defineOperation<M.NamespaceExistsRequest>(
    app,
    services,
    {
      operationId: "NamespaceExists",
      summary: "Check whether a namespace exists (200 yes, 404 no)",
      tag,
      methods: ["POST"],
      url: "/v1/namespace/:id/exists",
      body: { kind: "json", schema: M.NamespaceExistsRequest },
      response: { kind: "empty" },
      access: "read",
    },
    ({ catalog, id, body, call }) => catalog.namespaceExists({ ...body, id }, call),
  );

  defineOperation<unknown, M.ListQuery>(
    app,
    services,
    {
      operationId: "ListTables",
      summary: "List the tables directly in a namespace",
      tag,
      methods: ["GET"],
      url: "/v1/namespace/:id/table/list",
      body: { kind: "none" },
      querystring: M.ListQuery,
      response: { kind: "json", schema: M.ListTablesResponse },
      access: "read",
    },
    ({ catalog, id, query, call }) => catalog.listTables({ ...query, id }, call),
  );
}
