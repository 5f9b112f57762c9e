/**
 * @module Object identifiers on the wire (spec/endpoints.md §0.2–0.3): the path `id` split on
 * the `delimiter` query parameter, and the body `id` that must agree with it. The router matches
 * path parameters of any length a request head can carry, so an overlong one reaches this check
 * (400, code 13) instead of matching no route.
 */
import type { FastifyInstance } from "fastify";
import { maxIdentifierLength } from "../catalog/identifiers.js";
import { invalidInput } from "../model/catalog-error.js";

export const defaultDelimiter = "$";

/** The `delimiter` a request's query (or the catalog request made of it) names; `$` when none or empty. */
export function delimiterOf(fields: Record<string, unknown>): string {
  return typeof fields.delimiter === "string" && fields.delimiter !== "" ? fields.delimiter : defaultDelimiter;
}

/** Splits a (percent-decoded) path id. The delimiter alone, or nothing, is the root `[]`. */
export function parsePathId(raw: string | undefined, delimiter: string = defaultDelimiter): string[] {
  if (delimiter.length === 0) throw invalidInput("delimiter must not be empty");
  if (raw === undefined || raw === "" || raw === delimiter) return [];
  return raw.split(delimiter).filter((part) => part.length > 0);
}

/** The body's `id`, when present, must equal the path's (root `$` equals `[]`). */
export function reconcileBodyId(pathId: string[], bodyId: unknown): string[] {
  if (bodyId === undefined || bodyId === null) return pathId;
  if (!Array.isArray(bodyId) || !bodyId.every((part) => typeof part === "string")) {
    throw invalidInput("body id must be an array of strings");
  }
  const same = bodyId.length === pathId.length && bodyId.every((part, i) => part === pathId[i]);
  if (!same) throw invalidInput(`body id ${JSON.stringify(bodyId)} does not match the path id ${JSON.stringify(pathId)}`);
  return pathId;
}

/** Longest path parameter the router matches; Node refuses request heads past 16 KiB anyway. */
export const routerParamLimit = 16 * 1024;

/**
 * Refuses any path parameter longer than an identifier may be, on every route, before its body
 * is read and after the caller is authenticated (which runs on the request's head).
 */
export function registerIdentifierBounds(app: FastifyInstance): void {
  app.addHook("preParsing", async (request) => {
    for (const [name, value] of Object.entries((request.params ?? {}) as Record<string, unknown>)) {
      if (typeof value === "string" && value.length > maxIdentifierLength) {
        throw invalidInput(`path parameter '${name}' is ${value.length} characters long; at most ${maxIdentifierLength} are allowed`);
      }
    }
  });
}
