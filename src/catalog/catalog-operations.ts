/**
 * @module The catalog's operations as types, derived from the operation table
 * (`model/operations/`): what each operation takes and answers. The `Catalog` facade and the map
 * of area functions behind it are both checked against these types, so a request field the
 * schema lacks, an answer that does not fit the response schema, or an operation without a
 * function fails to compile.
 */
import type { Static, TObject, TProperties, TSchema } from "@sinclair/typebox";
import type { BlobBytes, FetchedBlobs, QueryResult } from "../engine/engine.js";
import type { OperationName, Operations } from "../model/operations/index.js";
import type { CatalogScope } from "./catalog-scope.js";

/** Arrow IPC stream bytes, whole or as they arrive. */
export type ArrowStreamBody = AsyncIterable<Uint8Array> | Uint8Array;

/**
 * Entries the server answers by calling another operation (a managed deployment's route for
 * ListAllTables, CreateTable and DescribeJob): they have no function of their own.
 */
type ServedThroughAnother = "listTablesExtended" | "createTableExtended" | "getJob";

/** Every operation the catalog carries out, by the operation table's name. */
export type CatalogOperationName = Exclude<OperationName, ServedThroughAnother>;

/** What the server adds to a request besides its fields: who dropped a table, kept with the drop. */
interface RequestExtras {
  dropTable: { dropped_by?: string };
}

type PathFieldsOf<E> = E extends { pathFields: infer P extends TProperties } ? Static<TObject<P>> : unknown;
/** Operations without a path id join the identifiers they answer with the request's delimiter. */
type AddressOf<E> = E extends { target: "none" } ? { delimiter?: string } : { id: string[] };
type ExtrasOf<N> = N extends keyof RequestExtras ? RequestExtras[N] : unknown;

/** The request an operation takes: its request model, addressed (`id` or delimiter), with its path fields. */
export type RequestOf<N extends CatalogOperationName> = Static<Operations[N]["request"]> & AddressOf<Operations[N]> & PathFieldsOf<Operations[N]> & ExtrasOf<N>;

type AnswerOfShape<R> = R extends { kind: "json"; schema: infer S extends TSchema }
  ? Static<S>
  : R extends { kind: "arrow-file" }
    ? QueryResult
    : R extends { kind: "arrow-stream" }
      ? Uint8Array | FetchedBlobs
      : R extends { kind: "bytes" }
        ? BlobBytes
      : R extends { kind: "integer" }
        ? number
        : R extends { kind: "string" }
          ? string
          : void;

/** What an operation answers: its response model, or the value its wire shape is made from. */
export type AnswerOf<N extends CatalogOperationName> = AnswerOfShape<Operations[N]["response"]>;

/** The upload an operation with an Arrow body takes after its request. */
type UploadOf<N extends CatalogOperationName> = Operations[N] extends { body: "arrow" } ? [upload: ArrowStreamBody] : [];

/** The `Catalog` method of each operation. */
export type CatalogOperations = {
  [N in CatalogOperationName]: (request: RequestOf<N>, ...upload: UploadOf<N>) => Promise<AnswerOf<N>>;
};

/** The area function of each operation: the method's work, given the database it runs against. */
export type OperationFunctions = {
  [N in CatalogOperationName]: (scope: CatalogScope, request: RequestOf<N>, ...upload: UploadOf<N>) => Promise<AnswerOf<N>>;
};
