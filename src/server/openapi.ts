/**
 * @module The OpenAPI 3.1 document of the served operations, built from the same schemas that
 * validate requests.
 */
import type { TSchema } from "@sinclair/typebox";
import { sharedSchemas, JsonArrowSchema } from "../model/schema-json.js";
import { ErrorResponse } from "../model/common.js";
import { type ServedOperation, bodySchemaOf, operationIdOf } from "../model/operations/operation-entry.js";
import { openApiExamples } from "./openapi-examples.js";

type Json = Record<string, unknown>;

const contentTypes = {
  json: "application/json",
  arrowStream: "application/vnd.apache.arrow.stream",
  arrowFile: "application/vnd.apache.arrow.file",
  bytes: "application/octet-stream",
};

/** Rewrites `$ref: "Name"` into component references and lifts named (`$id`/`title`) schemas into components. */
function collect(schema: TSchema, components: Record<string, Json>): Json {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== "object") return node;
    const object = node as Json;
    if (typeof object.$ref === "string" && !object.$ref.startsWith("#")) return { $ref: `#/components/schemas/${object.$ref}` };
    const copy: Json = {};
    for (const [key, value] of Object.entries(object)) if (key !== "$id") copy[key] = visit(value);
    const name = typeof object.$id === "string" ? object.$id : typeof object.title === "string" ? object.title : undefined;
    if (name) {
      components[name] = copy;
      return { $ref: `#/components/schemas/${name}` };
    }
    return copy;
  };
  return visit(schema) as Json;
}

function parameters(def: ServedOperation, components: Record<string, Json>): Json[] {
  const list: Json[] = [...def.path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: "path",
    required: true,
    schema: { type: "string" },
    description: match[1] === "id" ? "String identifier: parts joined by the delimiter; the delimiter alone is the root namespace." : undefined,
  }));
  const query = def.querySchema ? (collect(def.querySchema, components) as { properties?: Record<string, Json> }) : undefined;
  for (const [name, schema] of Object.entries(query?.properties ?? {})) list.push({ name, in: "query", required: false, schema });
  return list;
}

function successResponse(def: ServedOperation, components: Record<string, Json>): Json {
  switch (def.response.kind) {
    case "json":
      return { description: "Success", content: { [contentTypes.json]: { schema: collect(def.response.schema, components) } } };
    case "arrow-file":
      return { description: "Arrow IPC file", content: { [contentTypes.arrowFile]: { schema: { type: "string", format: "binary" } } } };
    case "arrow-stream":
      return { description: "Arrow IPC stream", content: { [contentTypes.arrowStream]: { schema: { type: "string", format: "binary" } } } };
    case "bytes":
      return { description: "Bytes, whole (200) or the range `Range` asked for (206)", content: { [contentTypes.bytes]: { schema: { type: "string", format: "binary" } } } };
    case "integer":
      return { description: "A bare JSON integer", content: { [contentTypes.json]: { schema: { type: "integer", minimum: 0 } } } };
    case "string":
      return { description: "A JSON string", content: { [contentTypes.json]: { schema: { type: "string" } } } };
    default:
      return { description: "Success, no body" };
  }
}

/** Sets `example` on the JSON content of a request body or response. */
function withExample(holder: Json, example: unknown): void {
  const json = (holder.content as Record<string, Json> | undefined)?.[contentTypes.json];
  if (json) json.example = example;
}

export function buildOpenApiDocument(operations: readonly ServedOperation[], version: string): Json {
  const components: Record<string, Json> = {};
  for (const schema of [...sharedSchemas, JsonArrowSchema, ErrorResponse]) collect(schema, components);
  const paths: Record<string, Record<string, Json>> = {};
  for (const def of operations) {
    const examples = openApiExamples[def.operationId] ?? {};
    const success = successResponse(def, components);
    if (examples.response !== undefined) withExample(success, examples.response);
    const operation: Json = {
      summary: def.summary,
      tags: [def.tag],
      parameters: parameters(def, components),
      responses: {
        [String(def.successStatus ?? 200)]: success,
        default: { description: "Error", content: { [contentTypes.json]: { schema: { $ref: "#/components/schemas/ErrorResponse" } } } },
      },
      "x-quiver-access": def.access,
    };
    const bodySchema = bodySchemaOf(def);
    let requestBody: Json | undefined;
    if (bodySchema) {
      requestBody = { required: false, content: { [contentTypes.json]: { schema: collect(bodySchema, components) } } };
      if (examples.request !== undefined) withExample(requestBody, examples.request);
    } else if (def.body === "arrow") {
      requestBody = { required: true, content: { [contentTypes.arrowStream]: { schema: { type: "string", format: "binary" } } } };
    }
    const path = (paths[def.path] ??= {});
    for (const method of def.methods) {
      // A JSON operation that also takes GET reads no body there (spec/clients.md §6.4).
      const body = method === "GET" && def.body === "json" ? undefined : requestBody;
      path[method.toLowerCase()] = { operationId: operationIdOf(def, method), ...operation, ...(body ? { requestBody: body } : {}) };
    }
  }
  return {
    openapi: "3.1.0",
    info: { title: "Quiver", version, description: "Lance Namespace REST API and managed-deployment extensions served by Quiver." },
    components: {
      schemas: components,
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        oauth2: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "/oauth/token", scopes: {} } } },
      },
    },
    paths,
  };
}
