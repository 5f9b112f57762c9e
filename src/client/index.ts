/**
 * @module `quiver/client`: the TypeScript client of the Lance Namespace API, with the `dir`
 * (in-process over a local folder) and `rest` (over HTTP) implementations.
 *
 * ```ts
 * import { connect } from "quiver/client";
 * const ns = await connect("rest", { uri: "http://localhost:2333" });
 * await ns.createNamespace({ id: ["sales"] });
 * ```
 */
export { connect, implementations, type ConnectProperties } from "./connect.js";
export { NamespaceError, isNamespaceError, type NamespaceErrorOptions } from "./namespace-error.js";
export type { Namespace, TableHandle, OpenTableInput, OperationMethods, TableMethods } from "./namespace-client.js";
export type { ArrowInput } from "./arrow-io.js";
export type { ImplName } from "./transport.js";
export type { RequestOf, ResultOf, TableNameInput } from "./operation-types.js";
export { operations, type OperationName, type Operations } from "./operations.js";
export { ErrorCode, type ErrorCodeName, type ErrorCodeValue } from "../model/error-codes.js";
export type * from "../model/index.js";
