/**
 * @module Recognising the LanceDB Cloud client: it sends table routes with a trailing slash
 * (spec/clients.md §1), and a few of its expectations differ from the spec's.
 */
import type { FastifyRequest } from "fastify";

export function isCloudClientRequest(request: FastifyRequest): boolean {
  const path = request.url.split("?", 1)[0] as string;
  return path.length > 1 && path.endsWith("/");
}
