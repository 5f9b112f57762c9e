/**
 * @module Tag routes (spec/endpoints.md §8).
 */
import type { FastifyInstance } from "fastify";
import * as M from "../../model/index.js";
import { isCloudClientRequest } from "../cloud-client.js";
import { defineOperation } from "../route-kit.js";
import type { ServerServices } from "../services.js";

const tag = "Tag";


export function tagRoutes(app: FastifyInstance, services: ServerServices): void {
  defineOperation<unknown, M.ListTableTagsQuery>(
    app,
    services,
    {
      operationId: "ListTableTags",
      summary: "List a table's tags",
      tag,
      // GET from the namespace client, bodiless POST from the Cloud client.
      methods: ["POST", "GET"],
      url: "/v1/table/:id/tags/list",
      body: { kind: "none" },
      querystring: M.ListTableTagsQuery,
      response: { kind: "json", schema: M.ListTableTagsResponse },
      access: "read",
    },
    async ({ catalog, id, query, request, call }) => {
      const listed = await catalog.listTableTags({ ...query, id }, call);
      // The Cloud client parses the bare name → contents map; the spec wraps it in `tags`.
      return isCloudClientRequest(request) ? listed.tags : listed;
    },
  );

  defineOperation<M.GetTableTagVersionRequest>(
    app,
    services,
    {
      operationId: "GetTableTagVersion",
      summary: "The version (and branch) a tag points at",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/tags/version",
      body: { kind: "json", schema: M.GetTableTagVersionRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.GetTableTagVersionResponse },
      access: "read",
    },
    ({ catalog, id, body, call }) => catalog.getTableTagVersion({ ...body, id }, call),
  );

  defineOperation<M.CreateTableTagRequest>(
    app,
    services,
    {
      operationId: "CreateTableTag",
      summary: "Create a tag pointing at a version",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/tags/create",
      body: { kind: "json", schema: M.CreateTableTagRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.CreateTableTagResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.createTableTag({ ...body, id }, call),
  );

  defineOperation<M.DeleteTableTagRequest>(
    app,
    services,
    {
      operationId: "DeleteTableTag",
      summary: "Delete a tag",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/tags/delete",
      body: { kind: "json", schema: M.DeleteTableTagRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.DeleteTableTagResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.deleteTableTag({ ...body, id }, call),
  );

  defineOperation<M.UpdateTableTagRequest>(
    app,
    services,
    {
      operationId: "UpdateTableTag",
      summary: "Re-point a tag at another version",
      tag,
      methods: ["POST"],
      url: "/v1/table/:id/tags/update",
      body: { kind: "json", schema: M.UpdateTableTagRequest },
      querystring: M.DelimiterQuery,
      response: { kind: "json", schema: M.UpdateTableTagResponse },
      access: "write",
    },
    ({ catalog, id, body, call }) => catalog.updateTableTag({ ...body, id }, call),
  );
}
