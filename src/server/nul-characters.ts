/**
 * @module Refuses requests whose path or query holds a NUL character (`%00`). No identifier,
 * page token or job id may contain one, and PostgreSQL cannot even compare text holding one, so
 * such a request is the client's mistake on every store: 400 code 13, before any lookup.
 */
import type { FastifyInstance } from "fastify";
import { invalidInput } from "../model/catalog-error.js";

export function registerNulCharacterCheck(app: FastifyInstance): void {
  app.addHook("onRequest", async (request) => {
    if (/%00/i.test(request.url) || request.url.includes("\u0000")) {
      throw invalidInput("the request's path or query holds a NUL character (%00), which no identifier or parameter may contain");
    }
  });
}
