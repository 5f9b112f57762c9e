/**
 * @module The cache's blocks on local disk: fixed-size, aligned pieces of immutable objects, each
 * in its own file with a header naming the object (store, path, etag, size) and a checksum of its
 * bytes. A block is found by a key made of all of these, so a block of another version of an
 * object can never answer for it; a block whose bytes do not match its checksum (a torn write, a
 * bad disk) is dropped and reported missing, so the reader fetches it again. The index lives in
 * memory, is rebuilt from the files' headers at start, and evicts the least recently used blocks
 * once their bytes pass the bound.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, readFile, readdir, rename, rm, stat, unlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";

/** One version of one object, as the store described it when its first bytes were fetched. */
export interface ObjectIdentity {
  /** The store (its endpoint) the object lives on. */
  store: string;
  /** The object's path on that store: container or bucket, then the name. */
  path: string;
  /** The store's etag of this version, quotes included as the store sends them. */
  etag: string;
  size: number;
  /** Headers of the store's answer the engine reads besides the bytes (`last-modified`, ...). */
  headers: Record<string, string>;
}

/** What the cache reports as it works, for metrics. */
export interface BlockCacheObserver {
  evicted(blocks: number, bytes: number): void;
}

interface BlockHeader extends ObjectIdentity {
  block: number;
  sha256: string;
}

interface IndexEntry {
  file: string;
  bytes: number;
}

/** Files of blocks live in 256 folders by the first two hex digits of their key. */
const blocksFolder = "blocks";

function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The key of an object version: every field that tells one version from another. */
function versionKey(identity: Pick<ObjectIdentity, "store" | "path" | "etag" | "size">): string {
  return sha256(`${identity.store}\n${identity.path}\n${identity.etag}\n${identity.size}`);
}

function objectKey(store: string, objectPath: string): string {
  return `${store}\n${objectPath}`;
}

export class BlockCache {
  /** Blocks by file name, least recently used first (a Map keeps insertion order). */
  private readonly index = new Map<string, IndexEntry>();
  /** The newest known version of each object, by store and path. */
  private readonly identities = new Map<string, ObjectIdentity>();
  private totalBytes = 0;
  /**
   * The most recently read blocks' bytes, already checked against their checksum, so a hot block
   * is not read and hashed from disk again on every read; bounded, least recently used first.
   */
  private readonly hot = new Map<string, Buffer>();
  private hotBytes = 0;
  private readonly maxHotBytes: number;

  private constructor(
    readonly dir: string,
    readonly maxBytes: number,
    readonly blockSize: number,
    private readonly observer: BlockCacheObserver,
  ) {
    this.maxHotBytes = Math.min(64 * 1024 * 1024, Math.floor(maxBytes / 4));
  }

  private keepHot(file: string, payload: Buffer): void {
    if (payload.length > this.maxHotBytes) return;
    this.forgetHot(file);
    this.hot.set(file, payload);
    this.hotBytes += payload.length;
    for (const [other, bytes] of this.hot) {
      if (this.hotBytes <= this.maxHotBytes) break;
      this.hot.delete(other);
      this.hotBytes -= bytes.length;
    }
  }

  private forgetHot(file: string): void {
    const bytes = this.hot.get(file);
    if (!bytes) return;
    this.hot.delete(file);
    this.hotBytes -= bytes.length;
  }

  /** Opens (creating) the cache in `dir` and rebuilds its index from the blocks found there. */
  static async open(dir: string, maxBytes: number, blockSize: number, observer: BlockCacheObserver): Promise<BlockCache> {
    const cache = new BlockCache(dir, maxBytes, blockSize, observer);
    await mkdir(path.join(dir, blocksFolder), { recursive: true });
    await cache.rebuild();
    return cache;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.totalBytes;
  }

  /** Blocks held now. */
  get blocks(): number {
    return this.index.size;
  }

  identityOf(store: string, objectPath: string): ObjectIdentity | undefined {
    return this.identities.get(objectKey(store, objectPath));
  }

  /** Records `identity` as the object's current version. */
  remember(identity: ObjectIdentity): void {
    this.identities.set(objectKey(identity.store, identity.path), identity);
  }

  /** Forgets the object's version: its next read learns it from the store again. Its blocks age out. */
  forget(store: string, objectPath: string): void {
    this.identities.delete(objectKey(store, objectPath));
  }

  /**
   * The folder and name stem of each known object version's blocks: hashing the identity on every
   * block read was a measurable part of a warm read served from memory.
   */
  private readonly stems = new WeakMap<ObjectIdentity, string>();

  private fileOf(identity: ObjectIdentity, block: number): string {
    let stem = this.stems.get(identity);
    if (stem === undefined) {
      const key = versionKey(identity);
      stem = path.join(this.dir, blocksFolder, key.slice(0, 2), key);
      this.stems.set(identity, stem);
    }
    return `${stem}-${block}`;
  }

  /**
   * The bytes of block `block` of `identity` when they are in memory (checked when they came from
   * disk or the store), else undefined: a warm read answers without waiting for anything.
   */
  readHot(identity: ObjectIdentity, block: number): Buffer | undefined {
    return this.hotBlock(this.fileOf(identity, block));
  }

  private hotBlock(file: string): Buffer | undefined {
    const hot = this.hot.get(file);
    const entry = hot && this.index.get(file);
    if (!hot || !entry) return undefined;
    this.markUsed(file, entry, hot);
    return hot;
  }

  /** Moves a block to the most recently used end of the index, and keeps its checked bytes in memory. */
  private markUsed(file: string, entry: IndexEntry, payload: Buffer): void {
    this.index.delete(file);
    this.index.set(file, entry);
    this.keepHot(file, payload);
  }

  /** The bytes of block `block` of `identity`, or undefined when absent or corrupt (a corrupt file is removed). */
  async read(identity: ObjectIdentity, block: number): Promise<Buffer | undefined> {
    const file = this.fileOf(identity, block);
    const hot = this.hotBlock(file);
    if (hot) return hot;
    const entry = this.index.get(file);
    if (!entry) return undefined;
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      this.drop(file);
      return undefined;
    }
    const parsed = parseBlockFile(bytes);
    if (!parsed || parsed.header.etag !== identity.etag || parsed.header.size !== identity.size || parsed.header.block !== block || sha256(parsed.payload) !== parsed.header.sha256) {
      this.drop(file);
      await unlink(file).catch(() => undefined);
      return undefined;
    }
    this.markUsed(file, entry, parsed.payload);
    // The file's time keeps the order across restarts; a failure only loses recency.
    const now = new Date();
    void utimes(file, now, now).catch(() => undefined);
    return parsed.payload;
  }

  /** Keeps `payload` as block `block` of `identity`, then evicts down to the bound. */
  async write(identity: ObjectIdentity, block: number, payload: Buffer): Promise<void> {
    const file = this.fileOf(identity, block);
    if (this.index.has(file)) return;
    const header: BlockHeader = { ...identity, block, sha256: sha256(payload) };
    const headerBytes = Buffer.from(JSON.stringify(header));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(headerBytes.length);
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside and renamed, so a crash leaves either no block or a whole one.
    const temporary = `${file}.${randomUUID()}.tmp`;
    await writeFile(temporary, Buffer.concat([length, headerBytes, payload]));
    await rename(temporary, file);
    const bytes = 4 + headerBytes.length + payload.length;
    this.index.set(file, { file, bytes });
    this.totalBytes += bytes;
    await this.evict();
  }

  private drop(file: string): void {
    this.forgetHot(file);
    const entry = this.index.get(file);
    if (!entry) return;
    this.index.delete(file);
    this.totalBytes -= entry.bytes;
  }

  private async evict(): Promise<void> {
    let blocks = 0;
    let bytes = 0;
    for (const entry of this.index.values()) {
      if (this.totalBytes <= this.maxBytes) break;
      this.drop(entry.file);
      blocks += 1;
      bytes += entry.bytes;
      await unlink(entry.file).catch(() => undefined);
    }
    if (blocks > 0) this.observer.evicted(blocks, bytes);
  }

  /** Reads every block's header, oldest first, into the index; leftovers of interrupted writes are removed. */
  private async rebuild(): Promise<void> {
    const root = path.join(this.dir, blocksFolder);
    const found: { file: string; bytes: number; mtimeMs: number; header: BlockHeader }[] = [];
    for (const folder of await readdir(root)) {
      const names = await readdir(path.join(root, folder)).catch(() => [] as string[]);
      for (const name of names) {
        const file = path.join(root, folder, name);
        if (name.endsWith(".tmp")) {
          await rm(file, { force: true });
          continue;
        }
        const header = await readHeader(file);
        if (!header) {
          await rm(file, { force: true });
          continue;
        }
        const info = await stat(file);
        found.push({ file, bytes: info.size, mtimeMs: info.mtimeMs, header });
      }
    }
    found.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const { file, bytes, header } of found) {
      this.index.set(file, { file, bytes });
      this.totalBytes += bytes;
      const { block: _block, sha256: _sum, ...identity } = header;
      this.remember(identity);
    }
    await this.evict();
  }
}

function parseBlockFile(bytes: Buffer): { header: BlockHeader; payload: Buffer } | undefined {
  if (bytes.length < 4) return undefined;
  const length = bytes.readUInt32BE(0);
  if (4 + length > bytes.length) return undefined;
  try {
    return { header: JSON.parse(bytes.subarray(4, 4 + length).toString()) as BlockHeader, payload: bytes.subarray(4 + length) };
  } catch {
    return undefined;
  }
}

async function readHeader(file: string): Promise<BlockHeader | undefined> {
  const handle = await open(file, "r").catch(() => undefined);
  if (!handle) return undefined;
  try {
    const length = Buffer.alloc(4);
    if ((await handle.read(length, 0, 4, 0)).bytesRead < 4) return undefined;
    const size = length.readUInt32BE(0);
    if (size > 64 * 1024) return undefined;
    const header = Buffer.alloc(size);
    if ((await handle.read(header, 0, size, 4)).bytesRead < size) return undefined;
    return JSON.parse(header.toString()) as BlockHeader;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
