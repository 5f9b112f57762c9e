/**
 * Starts s3rver (the npm package, in this process, on a free port, over a temporary folder): an
 * S3 endpoint for tests. It serves objects, listings, ranges and batch deletes faithfully, but it
 * ignores `If-None-Match` on writes and does not verify SigV4 signatures.
 */
import type { IncomingHttpHeaders, IncomingMessage, Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

/** The credentials s3rver's built-in account accepts. */
export const s3rverKey = "S3RVER";

/** A request s3rver received, as the client sent it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/bucket/db/t.lance?x-id=PutObject`. */
  url: string;
  headers: IncomingHttpHeaders;
}

export interface S3rver {
  /** The service endpoint, e.g. `http://127.0.0.1:41234`. */
  endpoint: string;
  /** A bucket created for the test. */
  bucket: string;
  /** Lance's storage options for this endpoint, path style. */
  storageOptions: Record<string, string>;
  /** Every request received so far, oldest first. */
  requests: RecordedRequest[];
  /** Creates another bucket. */
  createBucket(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** The part of s3rver's API the tests use; the package ships no types. */
interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  httpServer: Server;
  store: { putBucket(name: string): Promise<unknown> };
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

const S3rverServer = createRequire(import.meta.url)("s3rver") as S3rverConstructor;

export async function startS3rver(bucket = "quiver-test"): Promise<S3rver> {
  const directory = mkdtempSync(path.join(tmpdir(), "quiver-s3rver-"));
  const instance = new S3rverServer({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await instance.run();
  const requests: RecordedRequest[] = [];
  instance.httpServer.on("request", (request: IncomingMessage) => {
    requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    storageOptions: {
      aws_access_key_id: s3rverKey,
      aws_secret_access_key: s3rverKey,
      aws_region: "us-east-1",
      aws_endpoint: endpoint,
      allow_http: "true",
      aws_virtual_hosted_style_request: "false",
    },
    requests,
    createBucket: async (name) => {
      await instance.store.putBucket(name);
    },
    stop: async () => {
      // The clients' idle keep-alive sockets would hold the server, and so the test process, open.
      instance.httpServer.closeAllConnections();
      await instance.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
