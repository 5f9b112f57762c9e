/**
 * @module The memory budget of uploads in flight (`--upload-memory`). An Arrow upload is held
 * whole while it is re-framed for the engine, and completing a multipart write holds its parts
 * once, so the server counts the bytes uploads hold as they arrive. A request whose next bytes would pass the budget is refused
 * with 503 code 17 and `Retry-After` (the clients retry), instead of the process growing until
 * the system kills it. A request that alone passes the budget could never be admitted: it is
 * refused as too large (413, code 13).
 */
import { totalmem } from "node:os";
import type { FastifyRequest } from "fastify";
import { CatalogError } from "../model/catalog-error.js";
import { describeSize } from "./upload-limit.js";

/**
 * The default budget: this fraction of the machine's memory. Writing an upload takes about three
 * times its bytes at the peak (docs/performance.md, "Upload memory"), so a quarter keeps the
 * uploads a full budget admits within the machine's memory.
 */
export const defaultUploadMemoryFraction = 0.25;

/**
 * What an upload is counted for per byte received. The bytes are what grows with the upload and
 * what the operator can reason about; the re-framed copy and the engine's own copies come on top
 * (docs/performance.md, "Upload memory"), which the default budget leaves room for.
 */
export const heldPerUploadedByte = 1;

export function defaultUploadMemoryBytes(): number {
  return Math.floor(totalmem() * defaultUploadMemoryFraction);
}

export class UploadMemoryBudget {
  private held = 0;

  constructor(readonly limit: number) {}

  /** Bytes held by uploads in flight now. */
  get inUse(): number {
    return this.held;
  }

  /**
   * Takes `bytes` from the budget for a request already holding `own`; throws 503 code 17 when
   * the budget cannot take them now, 413 code 13 when it never could.
   */
  take(bytes: number, own: number): void {
    if (this.held + bytes <= this.limit) {
      this.held += bytes;
      return;
    }
    if (own + bytes > this.limit) {
      throw CatalogError.of("InvalidInput", `the upload needs more memory than this server's upload budget of ${describeSize(this.limit)} (--upload-memory); send the rows in smaller requests`, {
        status: 413,
      });
    }
    throw CatalogError.of("ServiceUnavailable", `the server is holding as many uploads as its memory budget of ${describeSize(this.limit)} allows (--upload-memory); retry shortly`);
  }

  release(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}

const holdings = new WeakMap<FastifyRequest, { bytes: number }>();

/** What `request` holds of the budget, released once its answer is sent (or it fails). */
function holdingOf(request: FastifyRequest): { bytes: number } {
  let holding = holdings.get(request);
  if (!holding) {
    holding = { bytes: 0 };
    holdings.set(request, holding);
  }
  return holding;
}

/** Takes `bytes` from the budget for `request` (see `take`); released by `releaseUploadMemory`. */
export function holdUploadMemory(budget: UploadMemoryBudget, request: FastifyRequest, bytes: number): void {
  const holding = holdingOf(request);
  budget.take(bytes, holding.bytes);
  holding.bytes += bytes;
}

/** Gives back what `request` held. */
export function releaseUploadMemory(budget: UploadMemoryBudget, request: FastifyRequest): void {
  const holding = holdings.get(request);
  if (!holding) return;
  budget.release(holding.bytes);
  holding.bytes = 0;
}

const refusals = new WeakMap<FastifyRequest, unknown>();

/**
 * The upload, counted against the budget as it is read (each chunk at `heldPerUploadedByte`).
 * A refusal is remembered on the request (see `budgetErrorOr`), since a reader may wrap it.
 */
export function budgetedUpload(budget: UploadMemoryBudget, request: FastifyRequest, upload: AsyncIterable<Uint8Array> | Uint8Array): AsyncIterable<Uint8Array> | Uint8Array {
  const hold = (bytes: number) => {
    try {
      holdUploadMemory(budget, request, bytes * heldPerUploadedByte);
    } catch (error) {
      refusals.set(request, error);
      throw error;
    }
  };
  if (upload instanceof Uint8Array) {
    hold(upload.byteLength);
    return upload;
  }
  return (async function* counted() {
    for await (const chunk of upload) {
      hold(chunk.byteLength);
      yield chunk;
    }
  })();
}

/** What a call that read a budgeted upload failed with: the budget's refusal, if it was refused. */
export function budgetErrorOr(request: FastifyRequest, error: unknown): unknown {
  return refusals.get(request) ?? error;
}
