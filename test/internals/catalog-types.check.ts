/**
 * Compile-time checks of the `Catalog` types derived from the operation table: the build fails if
 * a line marked `@ts-expect-error` stops being an error. Nothing here runs.
 */
import type { Catalog } from "../../src/catalog/catalog.js";
import type { AnswerOf, CatalogOperationName, OperationFunctions, RequestOf } from "../../src/catalog/catalog-operations.js";
import type { CatalogScope, WithId } from "../../src/catalog/catalog-scope.js";
import type { DescribeTableRequest, DescribeTableResponse } from "../../src/model/index.js";

/** Every operation of the table is a `Catalog` method, and nothing the server answers through another is. */
export const everyOperationIsAMethod: Record<CatalogOperationName, true> = {} as { [N in keyof Catalog as N extends CatalogOperationName ? N : never]: true };

export async function catalogTypes(catalog: Catalog, scope: CatalogScope): Promise<void> {
  // Requests are the request model with its address; answers are the response model.
  const described: DescribeTableResponse = await catalog.describeTable({ id: ["a", "t"], version: 1 });
  const rows: number = await catalog.countTableRows({ id: ["a", "t"] });
  await catalog.dropTableIndex({ id: ["a", "t"], index_name: "i" });
  await catalog.listAllTables({ delimiter: "." });
  await catalog.dropTable({ id: ["t"], dropped_by: "alice" });
  // @ts-expect-error a field DescribeTable's request model lacks
  await catalog.describeTable({ id: ["t"], bogus: 1 });
  // @ts-expect-error a table operation needs its id
  await catalog.tableExists({});
  // @ts-expect-error DropTableIndex needs the index its path names
  await catalog.dropTableIndex({ id: ["t"] });
  // @ts-expect-error InsertIntoTable needs its Arrow upload
  await catalog.insertIntoTable({ id: ["t"] });
  // @ts-expect-error the managed deployment's route is served through ListAllTables
  await catalog.listTablesExtended({});
  void [described, rows, scope];
}

// An area function is held to its operation's models.
export const fitting: OperationFunctions["describeTable"] = async (_scope, request: WithId<DescribeTableRequest>) => ({ location: request.id.join("/") }) as AnswerOf<"describeTable">;
// @ts-expect-error an area function that needs a field the request model lacks
export const wrongField: OperationFunctions["describeTable"] = async (_scope: CatalogScope, _request: RequestOf<"describeTable"> & { bogus: string }) => ({}) as AnswerOf<"describeTable">;
// @ts-expect-error an area function answering what the response model does not allow
export const wrongAnswer: OperationFunctions["countTableRows"] = async () => "many";
// @ts-expect-error a map of area functions missing an operation
export const missing: OperationFunctions = {} as Omit<OperationFunctions, "cancelJob">;
