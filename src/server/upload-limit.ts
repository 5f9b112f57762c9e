/**
 * @module The size limit of Arrow uploads (`--max-upload-size`). An upload is held whole while it
 * is re-framed for the engine, so the limit bounds the memory one request can take. A body whose
 * declared `Content-Length` passes the limit is refused before any of it is read; a streamed one
 * as soon as its count passes the limit. Either way the engine has not written anything yet (it
 * reads the whole upload before it writes), so no version is created; the unread rest of the body
 * is handled by unread-body.ts (drained when small, else `Connection: close`).
 */
import type { FastifyRequest } from "fastify";
import { CatalogError } from "../model/catalog-error.js";

export const defaultMaxUploadBytes = 2 ** 30;

/** A size as people write it: `1 GiB`, `64 MiB`, `1500 bytes`. */
export function describeSize(bytes: number): string {
  for (const [unit, size] of [["GiB", 2 ** 30], ["MiB", 2 ** 20], ["KiB", 2 ** 10]] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** Code 13 (the client's mistake), answered 413 so that proxies and people read "too large". */
export function uploadTooLarge(limit: number): CatalogError {
  return CatalogError.of("InvalidInput", `the upload is larger than this server's limit of ${describeSize(limit)} (--max-upload-size); send the rows in several requests`, {
    status: 413,
  });
}

const overflows = new WeakMap<FastifyRequest, CatalogError>();

/** Throws 413 when the request declares a body longer than `limit` (run before the body is read). */
export function refuseDeclaredOversize(request: FastifyRequest, limit: number): void {
  const declared = Number(request.headers["content-length"] ?? 0);
  if (declared > limit) throw uploadTooLarge(limit);
}

/**
 * The upload, counted as it is read: the read that would pass `limit` fails instead, and the
 * request remembers why (see `uploadErrorOr`).
 */
export function limitedUpload(request: FastifyRequest, upload: AsyncIterable<Uint8Array> | Uint8Array, limit: number): AsyncIterable<Uint8Array> | Uint8Array {
  const refuse = (): never => {
    const error = uploadTooLarge(limit);
    overflows.set(request, error);
    throw error;
  };
  if (upload instanceof Uint8Array) return upload.byteLength > limit ? refuse() : upload;
  return (async function* counted() {
    let size = 0;
    for await (const chunk of upload) {
      size += chunk.byteLength;
      if (size > limit) refuse();
      yield chunk;
    }
  })();
}

/**
 * What a call that read an upload failed with: the size refusal when the upload passed the
 * limit, since a reader may have wrapped it in an error of its own ("the stream is corrupt").
 */
export function uploadErrorOr(request: FastifyRequest, error: unknown): unknown {
  return overflows.get(request) ?? error;
}
