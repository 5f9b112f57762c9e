/**
 * A Cloud Storage endpoint for tests: the recording server answering from objects it keeps in
 * memory. It speaks the two APIs a `gs://` table is reached through: the JSON API the Cloud
 * Storage SDK uses (Quiver's own reads and writes: metadata, media downloads, listings, simple
 * multipart uploads, deletes) and the XML API Lance's object store uses (GET/HEAD/PUT/DELETE of
 * `/<bucket>/<name>`, `list-type=2` listings, copies and multipart uploads). Both honour a create
 * precondition (`ifGenerationMatch=0`, `x-goog-if-generation-match: 0`) with 412, as the service
 * does, so two racing creators get one winner. It checks no credential and keeps no versions.
 */
import { createHash, randomUUID } from "node:crypto";
import { type Answer, multipartParts, type RecordedRequest, type RecordingServer, startRecordingServer } from "./recording-server.js";

/** The bearer token the emulator's storage options carry (never checked). */
export const gcsEmulatorToken = "emulator-token";

interface StoredObject {
  bytes: Buffer;
  generation: number;
  updated: Date;
  metadata: Record<string, string>;
}

export interface GcsEmulator {
  /** The endpoint, `http://127.0.0.1:<port>`: Lance's `google_base_url`. */
  url: string;
  /** Lance's storage options for this endpoint: a static bearer token, plain HTTP allowed. */
  storageOptions: Record<string, string>;
  /** Every request received so far, oldest first. */
  requests: RecordedRequest[];
  stop(): Promise<void>;
}

let generations = Date.now() * 1000;

function md5Of(bytes: Buffer): Buffer {
  return createHash("md5").update(bytes).digest();
}

/** The XML API's ETag: the quoted hex MD5 of the content. */
function xmlETag(object: StoredObject): string {
  return `"${md5Of(object.bytes).toString("hex")}"`;
}

function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

function xml(body: string): Answer {
  return { status: 200, headers: { "content-type": "application/xml" }, body: `<?xml version="1.0" encoding="UTF-8"?>${body}` };
}

function jsonError(status: number, message: string): Answer {
  return { status, body: { error: { code: status, message } } };
}

/** A `Range` header against a size: the bytes to send, or undefined for the whole object; `unsatisfiable` past the end. */
function rangeOf(header: string | undefined, size: number): { start: number; end: number } | "unsatisfiable" | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header ?? "");
  if (!match) return undefined;
  const [, from = "", to = ""] = match;
  if (from === "") {
    if (size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - Number(to)), end: size - 1 };
  }
  if (Number(from) >= size) return "unsatisfiable";
  return { start: Number(from), end: to === "" ? size - 1 : Math.min(Number(to), size - 1) };
}

/** Answers with an object's bytes (all of them, or the requested range) and the headers of `headers`. */
function download(object: StoredObject, range: string | undefined, headers: Record<string, string>, method: string): Answer {
  const wanted = rangeOf(range, object.bytes.length);
  if (wanted === "unsatisfiable") return { status: 416, headers: { "content-range": `bytes */${object.bytes.length}` }, body: "" };
  const body = wanted ? object.bytes.subarray(wanted.start, wanted.end + 1) : object.bytes;
  const rangeHeaders: Record<string, string> = wanted ? { "content-range": `bytes ${wanted.start}-${wanted.end}/${object.bytes.length}` } : {};
  return { status: wanted ? 206 : 200, headers: { ...headers, ...rangeHeaders, "content-length": String(body.length) }, body: method === "HEAD" ? "" : body };
}

export async function startGcsEmulator(): Promise<GcsEmulator> {
  const server: RecordingServer = await startRecordingServer();
  const objects = new Map<string, StoredObject>();
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  const keyOf = (bucket: string, name: string) => `${bucket}/${name}`;

  /** Stores `bytes` under `key` unless a create precondition fails; the stored object or 412. */
  const store = (key: string, bytes: Buffer, generationMatch: string | undefined, metadata: Record<string, string> = {}): StoredObject | Answer => {
    const existing = objects.get(key);
    if (generationMatch !== undefined && String(existing?.generation ?? 0) !== generationMatch) {
      return jsonError(412, "At least one of the pre-conditions you specified did not hold.");
    }
    const object = { bytes, generation: ++generations, updated: new Date(), metadata };
    objects.set(key, object);
    return object;
  };

  /** Object names under `prefix`, split at `delimiter` into objects and common prefixes. */
  const listing = (bucket: string, prefix: string, delimiter: string | null) => {
    const items: { name: string; object: StoredObject }[] = [];
    const prefixes = new Set<string>();
    for (const [key, object] of [...objects].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (!key.startsWith(`${bucket}/`)) continue;
      const name = key.slice(bucket.length + 1);
      if (!name.startsWith(prefix)) continue;
      const cut = delimiter ? name.indexOf(delimiter, prefix.length) : -1;
      if (cut >= 0) prefixes.add(name.slice(0, cut + (delimiter?.length ?? 0)));
      else items.push({ name, object });
    }
    return { items, prefixes: [...prefixes] };
  };

  const resource = (bucket: string, name: string, object: StoredObject) => ({
    kind: "storage#object",
    bucket,
    name,
    generation: String(object.generation),
    metageneration: "1",
    size: String(object.bytes.length),
    md5Hash: md5Of(object.bytes).toString("base64"),
    etag: Buffer.from(String(object.generation)).toString("base64"),
    updated: object.updated.toISOString(),
    timeCreated: object.updated.toISOString(),
    metadata: object.metadata,
  });

  /** The JSON API: `/storage/v1/b/<bucket>/o[/<name>]` and `/upload/storage/v1/b/<bucket>/o`. */
  const jsonApi = (request: RecordedRequest): Answer | undefined => {
    const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(request.path);
    if (upload && request.method === "POST") {
      const bucket = upload[1] as string;
      const [metadataPart, content] = multipartParts(request);
      const declared = JSON.parse(metadataPart?.body.toString() ?? "{}") as { name?: string; metadata?: Record<string, string> };
      const name = request.query.get("name") ?? declared.name ?? "";
      const stored = store(keyOf(bucket, name), content?.body ?? Buffer.alloc(0), request.query.get("ifGenerationMatch") ?? undefined, declared.metadata ?? {});
      return "status" in stored ? stored : { status: 200, body: resource(bucket, name, stored) };
    }
    const list = /^\/storage\/v1\/b\/([^/]+)\/o\/?$/.exec(request.path);
    if (list && request.method === "GET") {
      const bucket = list[1] as string;
      const { items, prefixes } = listing(bucket, request.query.get("prefix") ?? "", request.query.get("delimiter"));
      return { status: 200, body: { kind: "storage#objects", items: items.map(({ name, object }) => resource(bucket, name, object)), prefixes } };
    }
    const one = /^\/storage\/v1\/b\/([^/]+)\/o\/(.+)$/.exec(request.path);
    if (!one) return undefined;
    const [, bucket = "", name = ""] = one;
    const object = objects.get(keyOf(bucket, name));
    if (request.method === "DELETE") {
      if (!object) return jsonError(404, "No such object");
      objects.delete(keyOf(bucket, name));
      return { status: 204 };
    }
    if (!object) return jsonError(404, "No such object");
    if (request.query.get("alt") === "media") {
      return download(object, request.headers.range, { "x-goog-hash": `md5=${md5Of(object.bytes).toString("base64")}`, "x-goog-generation": String(object.generation) }, request.method);
    }
    return { status: 200, body: resource(bucket, name, object) };
  };

  /** The XML API: `/<bucket>` (listings) and `/<bucket>/<name>` (objects, copies, multipart uploads). */
  const xmlApi = (request: RecordedRequest): Answer => {
    const [, bucket = "", ...rest] = request.path.split("/");
    const name = rest.join("/");
    const key = keyOf(bucket, name);
    const precondition = typeof request.headers["x-goog-if-generation-match"] === "string" ? request.headers["x-goog-if-generation-match"] : undefined;
    if (name === "" && request.method === "GET") {
      const prefix = request.query.get("prefix") ?? "";
      const { items, prefixes } = listing(bucket, prefix, request.query.get("delimiter"));
      const contents = items
        .map(({ name: item, object }) => `<Contents><Key>${escapeXml(item)}</Key><LastModified>${object.updated.toISOString()}</LastModified><ETag>${escapeXml(xmlETag(object))}</ETag><Size>${object.bytes.length}</Size></Contents>`)
        .join("");
      const common = prefixes.map((sub) => `<CommonPrefixes><Prefix>${escapeXml(sub)}</Prefix></CommonPrefixes>`).join("");
      return xml(`<ListBucketResult><Name>${escapeXml(bucket)}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${items.length}</KeyCount><IsTruncated>false</IsTruncated>${contents}${common}</ListBucketResult>`);
    }
    const written = (object: StoredObject | Answer): Answer =>
      "status" in object ? object : { status: 200, headers: { etag: xmlETag(object), "x-goog-generation": String(object.generation) } };
    if (request.method === "POST" && request.query.has("uploads")) {
      const uploadId = randomUUID();
      uploads.set(uploadId, { key, parts: new Map() });
      return xml(`<InitiateMultipartUploadResult><Bucket>${escapeXml(bucket)}</Bucket><Key>${escapeXml(name)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`);
    }
    const uploadId = request.query.get("uploadId");
    if (uploadId !== null) {
      const upload = uploads.get(uploadId);
      if (!upload) return { status: 404, body: "NoSuchUpload" };
      if (request.method === "PUT") {
        upload.parts.set(Number(request.query.get("partNumber")), request.body);
        return { status: 200, headers: { etag: `"${md5Of(request.body).toString("hex")}"` } };
      }
      uploads.delete(uploadId);
      if (request.method === "DELETE") return { status: 204 };
      const bytes = Buffer.concat([...upload.parts].sort(([a], [b]) => a - b).map(([, part]) => part));
      const stored = store(upload.key, bytes, precondition);
      if ("status" in stored) return stored;
      return { ...xml(`<CompleteMultipartUploadResult><Bucket>${escapeXml(bucket)}</Bucket><Key>${escapeXml(name)}</Key><ETag>${escapeXml(xmlETag(stored))}</ETag></CompleteMultipartUploadResult>`), headers: { "content-type": "application/xml", "x-goog-generation": String(stored.generation) } };
    }
    if (request.method === "PUT") {
      const source = request.headers["x-goog-copy-source"];
      if (typeof source === "string") {
        const from = objects.get(decodeURIComponent(source).replace(/^\//, ""));
        if (!from) return { status: 404, body: "NoSuchKey" };
        return written(store(key, from.bytes, precondition));
      }
      return written(store(key, request.body, precondition));
    }
    const object = objects.get(key);
    if (request.method === "DELETE") {
      objects.delete(key);
      return { status: 204 };
    }
    if (!object) return { status: 404, headers: { "content-type": "application/xml" }, body: request.method === "HEAD" ? "" : "<Error><Code>NoSuchKey</Code></Error>" };
    return download(object, request.headers.range, { etag: xmlETag(object), "last-modified": object.updated.toUTCString(), "x-goog-generation": String(object.generation) }, request.method);
  };

  server.answer = (request) => jsonApi(request) ?? xmlApi(request);
  return {
    url: server.url,
    storageOptions: { google_storage_token: gcsEmulatorToken, google_base_url: server.url, allow_http: "true" },
    requests: server.requests,
    stop: () => server.close(),
  };
}
