/**
 * @module `TableStorage` on a local folder. Whole-object writes go to a temporary name in the same
 * folder and are renamed (replace) or hard-linked (create-if-absent) into place, so readers never
 * see a half-written file and two creators cannot both win.
 */
import { randomUUID } from "node:crypto";
import type { BigIntStats } from "node:fs";
import { link, lstat, mkdir, open, readFile, readdir, realpath, rename, rm, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ListedEntry, ObjectInfo, TableStorage } from "../table-storage.js";
import { assertDeletableInside } from "../locations.js";

/**
 * The ETag Lance's object store (Rust `object_store` on local files) gives a file: inode,
 * modification time in microseconds and size, in hex.
 */
function localETag(stats: BigIntStats): string {
  return `${stats.ino.toString(16)}-${(stats.mtimeNs / 1000n).toString(16)}-${stats.size.toString(16)}`;
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

async function orUndefined<T>(operation: Promise<T>): Promise<T | undefined> {
  try {
    return await operation;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

export class LocalStorage implements TableStorage {
  async head(location: string): Promise<ObjectInfo | undefined> {
    // lstat: a link is not an object, so nothing a link points at passes for a table's file.
    const stats = await orUndefined(lstat(location, { bigint: true }));
    if (!stats?.isFile()) return undefined;
    return { size: Number(stats.size), eTag: localETag(stats), modifiedMillis: Number(stats.mtimeMs) };
  }

  read(location: string): Promise<Buffer | undefined> {
    return orUndefined(readFile(location));
  }

  async readTail(location: string, length: number): Promise<Buffer | undefined> {
    const handle = await orUndefined(open(location, "r"));
    if (!handle) return undefined;
    try {
      const { size } = await handle.stat();
      const tail = Buffer.alloc(Math.min(length, size));
      await handle.read(tail, 0, tail.length, size - tail.length);
      return tail;
    } finally {
      await handle.close();
    }
  }

  async readRange(location: string, offset: number, length: number): Promise<Buffer | undefined> {
    const handle = await orUndefined(open(location, "r"));
    if (!handle) return undefined;
    try {
      const bytes = Buffer.alloc(length);
      const { bytesRead } = await handle.read(bytes, 0, length, offset);
      return bytes.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async list(prefix: string): Promise<ListedEntry[]> {
    const entries = (await orUndefined(readdir(prefix, { withFileTypes: true }))) ?? [];
    // Links are neither: a table's files are never links, so one is not followed.
    return entries
      .filter((entry) => entry.isFile() || entry.isDirectory())
      .map((entry) => ({ name: entry.name, kind: entry.isDirectory() ? "prefix" : "object" }));
  }

  async put(location: string, bytes: Uint8Array): Promise<void> {
    const temporary = await this.writeTemporary(location, bytes);
    try {
      await rename(temporary, location);
    } catch (error) {
      await this.delete(temporary);
      throw error;
    }
  }

  async putIfAbsent(location: string, bytes: Uint8Array): Promise<"created" | "exists"> {
    const temporary = await this.writeTemporary(location, bytes);
    try {
      await link(temporary, location);
      return "created";
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return "exists";
      throw error;
    } finally {
      await this.delete(temporary);
    }
  }

  async copyIfAbsent(source: string, location: string): Promise<"created" | "exists" | "missing"> {
    try {
      // The same file under a second name: nothing is copied, and `link` never replaces.
      await link(source, location);
      return "created";
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return "exists";
      if (code === "ENOENT" && !(await this.head(source))) return "missing";
      // Another file system (EXDEV), links not allowed (EPERM), or the target's folder not made
      // yet (ENOENT with the source there): a copy, which makes the folder.
      if (code === "EXDEV" || code === "EPERM" || code === "ENOENT") {
        const bytes = await this.read(source);
        return bytes ? this.putIfAbsent(location, bytes) : "missing";
      }
      throw error;
    }
  }

  async delete(location: string): Promise<void> {
    await orUndefined(unlink(location));
  }

  async deletePrefix(prefix: string, scope: string): Promise<void> {
    assertDeletableInside(scope, prefix);
    // Through links too: a linked folder on the way must not carry the deletion elsewhere.
    assertDeletableInside(await this.canonical(scope), await this.canonical(prefix));
    await rm(prefix, { recursive: true, force: true });
  }

  async newestChange(prefix: string): Promise<number | undefined> {
    const own = await orUndefined(lstat(prefix));
    if (!own) return undefined;
    let newest = own.mtimeMs;
    if (!own.isDirectory()) return newest;
    for (const entry of (await orUndefined(readdir(prefix, { withFileTypes: true }))) ?? []) {
      const changed = await this.newestChange(path.join(prefix, entry.name));
      if (changed !== undefined) newest = Math.max(newest, changed);
    }
    return newest;
  }

  async preparePrefix(prefix: string): Promise<void> {
    await mkdir(prefix, { recursive: true });
  }

  async canonical(location: string): Promise<string> {
    const rest: string[] = [];
    for (let existing = path.resolve(location); ; ) {
      const real = await orUndefined(realpath(existing));
      if (real !== undefined) return path.join(real, ...rest.reverse());
      const parent = path.dirname(existing);
      if (parent === existing) return path.resolve(location);
      rest.push(path.basename(existing));
      existing = parent;
    }
  }

  /** Writes `bytes` beside `location` under a name no one else uses; the folder is created. */
  private async writeTemporary(location: string, bytes: Uint8Array): Promise<string> {
    const temporary = `${location}.${randomUUID()}.tmp`;
    try {
      try {
        await writeFile(temporary, bytes, { flag: "wx" });
      } catch (error) {
        if (!isMissing(error)) throw error;
        await mkdir(path.dirname(location), { recursive: true });
        await writeFile(temporary, bytes, { flag: "wx" });
      }
    } catch (error) {
      // A write that failed part-way (a full disk) must not leave its partial file beside the table's.
      await this.delete(temporary);
      throw error;
    }
    return temporary;
  }
}
