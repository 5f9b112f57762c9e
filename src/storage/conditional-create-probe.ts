/**
 * @module Whether an object store really honours conditional creates. Some S3-compatible stores
 * accept `If-None-Match: *` and ignore it; on them two concurrent commits both "succeed" and one
 * is silently lost. Creating one probe object twice tells them apart: the second create must fail.
 * Quiver refuses to write to a store that fails the probe, unless the operator accepts the risk.
 */
import { randomUUID } from "node:crypto";
import { capabilitiesOf } from "./backend-descriptors.js";
import { joinLocation, normalizeLocation } from "./locations.js";
import type { Storages } from "./storages.js";
import type { TableStorage } from "./table-storage.js";

/** The folder under a data location that holds probe objects while a probe runs. */
export const probeFolderName = "_quiver_probe";

/** True when a second create of the same object at `root` is refused, as commits require. */
export async function honoursConditionalCreates(storage: TableStorage, root: string): Promise<boolean> {
  const probe = joinLocation(root, probeFolderName, randomUUID());
  try {
    const first = await storage.putIfAbsent(probe, Buffer.from("first"));
    const second = await storage.putIfAbsent(probe, Buffer.from("second"));
    return first === "created" && second === "exists";
  } finally {
    await storage.delete(probe);
  }
}

/** Thrown for a location whose store ignores conditional creates. */
export class UnsafeObjectStore extends Error {
  constructor(readonly location: string) {
    super(
      `the object store at ${location} does not honour conditional writes (a second create of the same object succeeded), ` +
        "so concurrent commits would silently lose data; Quiver will not write there. Use a store that enforces If-None-Match, " +
        "or start Quiver with --allow-unsafe-object-store to accept that risk",
    );
    this.name = "UnsafeObjectStore";
  }
}

let probing = true;
const verified = new Set<string>();

/** Turns the probe off (the operator accepted the risk) or back on. */
export function setConditionalCreateProbe(enabled: boolean): void {
  probing = enabled;
}

/**
 * Probes the store of `location` once per location; throws `UnsafeObjectStore` when it fails. A
 * backend whose descriptor guarantees conditional creates itself (local folders) passes unprobed.
 */
export async function requireConditionalCreates(storages: Storages, location: string): Promise<void> {
  if (!probing || capabilitiesOf(location)?.conditionalCreate === "native") return;
  const normalized = normalizeLocation(location);
  if (verified.has(normalized)) return;
  if (!(await honoursConditionalCreates(storages.for(normalized), normalized))) throw new UnsafeObjectStore(normalized);
  verified.add(normalized);
}
