/**
 * @module The method types derived from the operation table (`model/operations/`). Request and
 * response types come from the entries' TypeBox models, so the client never restates a wire
 * shape.
 */
import type { Static, TObject, TProperties, TSchema } from "@sinclair/typebox";
import type { Table } from "apache-arrow";
import type { OperationEntry } from "../model/operations/operation-entry.js";
import type { ArrowInput } from "./arrow-io.js";

export type { OperationEntry };

/** A table named by its namespace and name (service description: "Client methods that accept a namespace input"). */
export interface TableNameInput {
  /** Namespace path; default the root. */
  namespace?: string[];
  name: string;
  id?: never;
}

type IdInput<E extends OperationEntry> = E["target"] extends "table"
  ? E["namespaceInput"] extends true
    ? { id: string[] } | TableNameInput
    : { id: string[] }
  : E["target"] extends "namespace"
    ? { /** Namespace path; default the root `[]`. */ id?: string[] }
    : unknown;

/** The request model with the fields the path carries made required. */
type ModelOf<E extends OperationEntry> = E["pathFields"] extends infer P extends TProperties
  ? Omit<Static<E["request"]>, keyof P> & Static<TObject<P>>
  : Static<E["request"]>;

/** What a method takes: the request model with its `id` in the form the entry allows. */
export type RequestOf<E extends OperationEntry> = Omit<ModelOf<E>, "id"> & IdInput<E>;

/** What a method resolves with. */
export type ResultOf<E extends OperationEntry> = E["response"] extends { kind: "json"; schema: infer S extends TSchema }
  ? Static<S>
  : E["response"] extends { kind: "arrow-file" }
    ? Table
    : E["response"] extends { kind: "integer" }
      ? number
      : E["response"] extends { kind: "string" }
        ? string
        : void;

type ArgsOf<E extends OperationEntry, Request> = E["body"] extends "arrow"
  ? [request: Request, data: ArrowInput]
  : {} extends Request
    ? [request?: Request]
    : [request: Request];

export type OperationMethod<E extends OperationEntry> = (...args: ArgsOf<E, RequestOf<E>>) => Promise<ResultOf<E>>;

/** A table operation bound to an opened table: the request without its identifier. */
export type BoundTableMethod<E extends OperationEntry> = (...args: ArgsOf<E, Omit<ModelOf<E>, "id">>) => Promise<ResultOf<E>>;
