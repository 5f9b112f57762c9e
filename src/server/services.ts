/**
 * @module The services routes share: catalog lookup per request, authorization, the operation
 * registry. Built once by `buildServer` and passed to every route group.
 */
import type { FastifyRequest } from "fastify";
import type { Catalog } from "../catalog/catalog.js";
import type { CatalogRegistry } from "../catalog/runtime/database-registry.js";
import type { IdempotencySettings } from "../catalog/idempotency-keys.js";
import type { OperationEntry, ServedOperation } from "../model/operations/operation-entry.js";
import type { OperationRegistry } from "./operation-registry.js";
import type { RateLimiter } from "./rate-limits.js";
import type { UploadMemoryBudget } from "./upload-memory.js";

/** A catalog operation's call: the identifier it names and its request. */
export interface CatalogCall {
  id: readonly string[];
  request: Record<string, unknown>;
}

export interface ServerServices {
  registry: CatalogRegistry;
  operations: OperationRegistry;
  /** Largest Arrow upload of one request, in bytes (see upload-limit.ts). */
  maxUploadBytes: number;
  /** The memory uploads in flight may hold together (see upload-memory.ts). */
  uploadMemory: UploadMemoryBudget;
  resolveCatalog(request: FastifyRequest): Promise<Catalog>;
  /**
   * Throws 16 or 15 when the caller may not run `operation` on `catalog`'s database, or with a
   * catalog call on the objects it names (the missing object's error when the caller may not see it).
   */
  authorize(request: FastifyRequest, catalog: Catalog, operation: ServedOperation, call?: CatalogCall): Promise<void>;
  /**
   * What follows a catalog operation that succeeded (its creator's ownership, a dropped object's
   * grants removed); answers its answer as the caller may see it (a listing filtered).
   */
  afterOperation?(request: FastifyRequest, catalog: Catalog, operation: OperationEntry, call: CatalogCall, answer: unknown): Promise<unknown>;
  /** How long a read operation may take before it answers 503 code 17; none when undefined. */
  readDeadlineMs?: number | undefined;
  /** Refuses a request over its caller's or database's rate limit with 429 code 21; none without it. */
  rateLimiter?: RateLimiter | undefined;
  /** How long `Idempotency-Key` answers are kept, and how long an in-flight claim holds. */
  idempotency: IdempotencySettings;
}
