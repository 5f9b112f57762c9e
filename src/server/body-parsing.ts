/**
 * @module How request bodies are read (spec/clients.md §6): JSON leniently (empty and `null`
 * bodies are "no body"), everything else, including Arrow uploads without a content type, as the
 * raw stream so that large uploads are never buffered by the framework.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Readable } from "node:stream";
import { invalidInput } from "../model/catalog-error.js";

/** Largest JSON body accepted; Arrow bodies are streamed and have no such limit. */
export const jsonBodyLimit = 64 * 1024 * 1024;

export function parseJsonText(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed === "null") return undefined;
  try {
    return JSON.parse(trimmed);
  } catch (error) {
    throw invalidInput(`request body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * A JSON body that did not parse, refused once parsing is over: Fastify answers a parser's own
 * error with `Connection: close`, dropping a keep-alive connection whose body was read whole.
 */
class UnparsableJson {
  constructor(readonly error: Error) {}
}

export function registerBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser(["application/json", "text/plain"]);
  // Read as bytes: read as a string, a body that is not UTF-8 miscounts against its Content-Length.
  app.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit: jsonBodyLimit }, (_request, body, done) => {
    try {
      done(null, parseJsonText((body as Buffer).toString("utf8")));
    } catch (error) {
      done(null, new UnparsableJson(error as Error));
    }
  });
  app.addHook("preValidation", async (request) => {
    if (request.body instanceof UnparsableJson) throw request.body.error;
  });
  // Arrow streams (with or without a content type) and anything else: hand over the stream.
  app.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
}

export function isStream(body: unknown): body is Readable {
  return typeof body === "object" && body !== null && typeof (body as Readable).pipe === "function";
}

/**
 * Reads a streamed body whole, refusing it with `tooLarge()` past `limit` bytes. The stream is
 * left open when refused, so the rest of the body can still be drained and the keep-alive
 * connection kept (`for await` alone would destroy it and wedge the connection).
 */
export async function readStreamUpTo(body: Readable, limit: number, tooLarge: () => Error): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A JSON route's body: a streamed body (sent without content type) is read and parsed here. */
export async function jsonBodyOf(request: FastifyRequest): Promise<unknown> {
  const body = request.body;
  if (!isStream(body)) return body;
  const bytes = await readStreamUpTo(body, jsonBodyLimit, () => invalidInput(`JSON body is larger than ${jsonBodyLimit} bytes`));
  return parseJsonText(bytes.toString("utf8"));
}

/** preValidation hook of JSON routes: JSON sent without a content type arrives as a stream. */
export async function readJsonBody(request: FastifyRequest): Promise<void> {
  request.body = (await jsonBodyOf(request)) ?? {};
}
