/**
 * @module Narrow errors the store raises; the catalog translates them into spec codes.
 */

/** An insert or update hit a unique key: another writer got there first. */
export class UniqueViolation extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UniqueViolation";
  }
}

/** The store cannot serve now (locked, connection lost); the request may be retried. */
export class StoreUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreUnavailable";
  }
}
