/**
 * @module What a caller may do with a table's objects when it opens them itself: read them, or
 * also write and delete them. Credentials vended to clients are scoped to it.
 */
export type TableAccess = "read" | "write";
