/**
 * @module The LanceDB client's read-freshness headers (spec/clients.md §2.1) as what the read
 * asks of the catalog: `x-lancedb-min-version` (the newest version the client wrote) and
 * `x-lancedb-min-read-version` (the newest it read) bound the version read from below;
 * `x-lancedb-min-timestamp` (RFC 3339) asks for every commit made before then. The answer names
 * the version read in `x-lancedb-version`, which the client sends back as its
 * `x-lancedb-min-read-version`. A value that does not parse is ignored, as the spec allows for hints.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ReadDemand } from "../catalog/read-demand.js";

function versionHeader(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\d{1,16}$/.test(text.trim())) return undefined;
  const version = Number(text.trim());
  return Number.isSafeInteger(version) ? version : undefined;
}

/** What the request's freshness headers ask of its read; the version read is named on `reply`. */
export function readDemandOfHeaders(http: FastifyRequest, reply: FastifyReply): ReadDemand {
  const versions = [versionHeader(http.headers["x-lancedb-min-version"]), versionHeader(http.headers["x-lancedb-min-read-version"])].filter((v): v is number => v !== undefined);
  const stamp = http.headers["x-lancedb-min-timestamp"];
  const timestamp = Date.parse(Array.isArray(stamp) ? (stamp[0] ?? "") : (stamp ?? ""));
  return {
    ...(versions.length > 0 ? { minVersion: Math.max(...versions) } : {}),
    ...(Number.isFinite(timestamp) ? { minTimestampMs: timestamp } : {}),
    onRead: (version) => {
      if (!reply.sent) reply.header("x-lancedb-version", String(version));
    },
  };
}
