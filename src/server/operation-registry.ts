/**
 * @module The operations the server serves, catalog and admin alike, kept as data so that the
 * OpenAPI document lists exactly what is routed.
 */
import type { ServedOperation } from "../model/operations/operation-entry.js";

export class OperationRegistry {
  private readonly operations = new Map<string, ServedOperation>();

  /** Throws when another operation already has the same operationId. */
  add(served: ServedOperation): void {
    if (this.operations.has(served.operationId)) throw new Error(`operationId ${served.operationId} is registered twice`);
    this.operations.set(served.operationId, served);
  }

  all(): readonly ServedOperation[] {
    return [...this.operations.values()];
  }
}
