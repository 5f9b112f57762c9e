/**
 * @module Where a request comes from, as counted by the failure throttle and the aggregated audit
 * of unauthenticated attempts: the peer's IPv4 address, or the /64 network of an IPv6 one (a
 * single host usually holds a whole /64, so counting addresses would let it spread its failures).
 */
import type { FastifyRequest } from "fastify";

/** The eight groups of an IPv6 address, `::` expanded. */
function ipv6Groups(address: string): string[] {
  const [head = "", tail] = address.split("::");
  const start = head === "" ? [] : head.split(":");
  if (tail === undefined) return start;
  const end = tail === "" ? [] : tail.split(":");
  return [...start, ...Array<string>(Math.max(8 - start.length - end.length, 0)).fill("0"), ...end];
}

/** The source a request is counted under. */
export function sourceOf(request: FastifyRequest): string {
  return sourceOfAddress(request.ip ?? "");
}

/** The source a peer address is counted under. */
export function sourceOfAddress(peer: string): string {
  const address = peer.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!address.includes(":")) return address;
  const prefix = ipv6Groups(address.toLowerCase())
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""));
  return `${prefix.join(":")}::/64`;
}
