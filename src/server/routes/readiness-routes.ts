/**
 * @module `GET /readyz` (also `/ready`): whether this process can serve requests now, for a load
 * balancer's or Kubernetes' readiness probe (`/livez` only says the process is up). Each dependency (the metadata store,
 * the data location) is checked with a time limit; any failure, or a shutdown under way, answers
 * 503 in the spec's error shape with code 17 and `Retry-After`, naming what failed.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ErrorCode } from "../../model/error-codes.js";
import { retryAfterSeconds } from "../error-mapper.js";

/** Resolves when the dependency answers; rejects with why it does not. */
export type ReadinessCheck = () => Promise<void>;

export interface Readiness {
  checks: Record<string, ReadinessCheck>;
  /** True once the process is shutting down: the balancer should stop sending it requests. */
  draining(): boolean;
}

const checkTimeoutMs = 3_000;

async function outcomeOf(check: ReadinessCheck): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${checkTimeoutMs} ms`)), checkTimeoutMs);
  });
  try {
    await Promise.race([check(), timeout]);
    return "ok";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

export function readinessRoutes(app: FastifyInstance, readiness: Readiness): void {
  const ready = async (_request: FastifyRequest, reply: FastifyReply) => {
    const names = Object.keys(readiness.checks);
    const outcomes = await Promise.all(names.map((name) => outcomeOf(readiness.checks[name] as ReadinessCheck)));
    const checks = Object.fromEntries(names.map((name, i) => [name, outcomes[i] as string]));
    const failed = names.filter((name) => checks[name] !== "ok");
    if (readiness.draining()) failed.unshift("shutting down");
    if (failed.length === 0) return { status: "ready", checks };
    const reasons = failed.map((name) => (checks[name] ? `${name}: ${checks[name]}` : name));
    return reply.status(503).header("retry-after", String(retryAfterSeconds)).send({ code: ErrorCode.ServiceUnavailable, error: `not ready: ${reasons.join("; ")}`, status: "unavailable", checks });
  };
  app.get("/readyz", ready);
  app.get("/ready", ready);
}
