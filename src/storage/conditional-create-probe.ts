/**
 * @module Whether an object store really honours conditional creates. Some S3-compatible stores
 * accept `If-None-Match: *` and ignore it; on them two concurrent commits both "succeed" and one
 * is silently lost. Creating one probe object twice tells them apart: the second create must fail.
 */
import { randomUUID } from "node:crypto";
import { joinLocation } from "./storage-for.js";
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
