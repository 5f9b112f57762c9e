/**
 * @module Request metrics and `GET /metrics` (Prometheus text format). Each request is counted
 * under its operation id (the OpenAPI operationId of the method it used), or, for the service
 * routes, the route's template (`/health`); a request no route matched counts as `unmatched`.
 * Paths themselves never become labels: they hold table names.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Socket } from "node:net";
import { httpRequestBytes, httpRequestDuration, httpRequests, httpResponseBytes, jobs, metricsRegistry } from "../metrics/metrics.js";
import { type HttpMethod, type ServedOperation, operationIdOf } from "../model/operations/index.js";
import { JobStatuses } from "../model/job.js";

type JobStatus = (typeof JobStatuses)[number];

/** What `/metrics` reads from the store when scraped; without it the jobs gauge is absent. */
export interface MetricsSources {
  countJobsByStatus(): Promise<Partial<Record<JobStatus, number>>>;
}

/** The operation id of the request's route, its template for the service routes, or `unmatched`. */
export function operationLabel(request: FastifyRequest): string {
  const operation = (request.routeOptions.config as { operation?: ServedOperation } | undefined)?.operation;
  if (operation) return operationIdOf(operation, request.method as HttpMethod);
  return request.routeOptions.url ?? "unmatched";
}

const bytesWrittenAtStart = Symbol("bytesWrittenAtStart");

export function registerRequestMetrics(app: FastifyInstance, sources?: MetricsSources): void {
  app.addHook("onRequest", async (request) => {
    (request as FastifyRequest & { [bytesWrittenAtStart]?: number })[bytesWrittenAtStart] = request.raw.socket?.bytesWritten ?? 0;
  });
  app.addHook("onResponse", async (request, reply) => {
    const operation = operationLabel(request);
    const status = String(reply.statusCode);
    httpRequests.inc({ operation, status });
    httpRequestDuration.observe({ operation, status }, reply.elapsedTime / 1000);
    const declared = Number(request.headers["content-length"]);
    if (Number.isFinite(declared) && declared > 0) httpRequestBytes.inc({ operation }, declared);
    // Answers are not pipelined on a connection, so what the socket wrote since this request
    // arrived is this answer (status line and headers included); streamed bodies count too.
    const socket: Socket | undefined = request.raw.socket;
    const start = (request as FastifyRequest & { [bytesWrittenAtStart]?: number })[bytesWrittenAtStart] ?? 0;
    if (socket) httpResponseBytes.inc({ operation }, Math.max(0, socket.bytesWritten - start));
  });
  app.get("/metrics", async (request, reply) => {
    if (sources) {
      try {
        const counts = await sources.countJobsByStatus();
        for (const state of JobStatuses) jobs.set({ state }, counts[state] ?? 0);
      } catch (error) {
        // A store that does not answer must not hide the other metrics (they show why).
        request.log.warn({ err: error }, "the jobs gauge could not be read from the store");
      }
    }
    return reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
  });
}
