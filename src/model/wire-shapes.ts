/**
 * @module How an operation's success answer travels (spec/endpoints.md §1): JSON of a model, or
 * one of the spec's non-JSON shapes. The server's routes and the client's operation table both
 * describe answers with it.
 */
import type { TSchema } from "@sinclair/typebox";

export type ResponseShape =
  | { kind: "json"; schema: TSchema }
  | { kind: "arrow-file" }
  | { kind: "arrow-stream" }
  /** Raw bytes, whole or a range (`Range` / `Content-Range`): a blob's. */
  | { kind: "bytes" }
  | { kind: "integer" }
  | { kind: "string" }
  | { kind: "empty" };
