/**
 * @module What differs between metadata-store dialects, as capabilities and hooks rather than
 * `if (postgres)` at call sites.
 */

export interface DialectAdapter {
  readonly name: "sqlite" | "postgres";
  /** Whether the driver reports this error as a unique-key violation. */
  isUniqueViolation(error: unknown): boolean;
  /** Whether the error means "busy, try again" (SQLITE_BUSY, serialization failure...). */
  isTransient(error: unknown): boolean;
}
