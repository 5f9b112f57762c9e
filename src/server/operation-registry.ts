/**
 * @module The list of operations the server exposes, kept as data so that routing and the
 * OpenAPI document come from the same definitions.
 */
import type { TSchema } from "@sinclair/typebox";

export type Access = "read" | "write" | "admin";

export type { ResponseShape } from "../model/wire-shapes.js";
import type { ResponseShape } from "../model/wire-shapes.js";

export type BodyShape = { kind: "json"; schema: TSchema } | { kind: "arrow" } | { kind: "none" };

export interface OperationDef {
  /** The spec's operation name, also the OpenAPI operationId. */
  operationId: string;
  summary: string;
  tag: string;
  methods: ("GET" | "POST")[];
  /** Fastify path, e.g. `/v1/table/:id/describe`. */
  url: string;
  /** Further paths served by the same handler, left out of the OpenAPI document. */
  aliases?: string[];
  body: BodyShape;
  querystring?: TSchema;
  response: ResponseShape;
  successStatus?: number;
  /** The least role that may call it. */
  access: Access;
}

export class OperationRegistry {
  private readonly operations: OperationDef[] = [];

  add(def: OperationDef): void {
    this.operations.push(def);
  }

  all(): readonly OperationDef[] {
    return this.operations;
  }
}
