/**
 * @module The request switch that runs an operation as a job instead of waiting for it
 * (docs/jobs.md): a body field `wait: false`, else a query parameter `wait=false`, else a header
 * `x-quiver-wait: false`. The header exists for clients whose bodies are fixed, such as the
 * LanceDB client, which can add headers to every request (`clientConfig.extraHeaders`).
 */
import type { FastifyReply, FastifyRequest } from "fastify";

export const waitHeader = "x-quiver-wait";

/** True when the client asked not to wait for the operation to finish. */
export function runsAsJob(request: FastifyRequest, bodyWait?: boolean | null, queryWait?: boolean): boolean {
  if (bodyWait !== undefined && bodyWait !== null) return !bodyWait;
  if (queryWait !== undefined) return !queryWait;
  const header = request.headers[waitHeader];
  const value = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
  return value === "false" || value === "0" || value === "no";
}

/** Answers 202 with the queued job's id. */
export async function accepted(reply: FastifyReply, queued: Promise<{ job_id: string }>): Promise<FastifyReply> {
  const body = await queued;
  return reply.status(202).type("application/json").send(body);
}
