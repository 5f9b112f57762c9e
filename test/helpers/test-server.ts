/**
 * Starts a Quiver on port 0 over a fresh temporary root, for tests that talk to it over a real
 * socket. Close it in `t.after`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Runtime, type RuntimeConfig, startServer } from "../../src/cli/runtime.js";
import { testDataLocation } from "./test-backend.js";
import { testStoreUrl } from "./test-store.js";

export interface TestServer {
  url: string;
  root: string;
  /** Where the default database's tables live: under the root, or on the object store under test. */
  dataLocation: string;
  runtime: Runtime;
  /** POST with a JSON body (omit `body` to send none). */
  post(route: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  get(route: string, headers?: Record<string, string>): Promise<Response>;
  /** POST raw bytes (an Arrow IPC stream) with the given content type, or none. */
  upload(route: string, bytes: Uint8Array, contentType?: string | null): Promise<Response>;
  close(): Promise<void>;
}

export function tempRoot(prefix = "quiver-test-"): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Starts a server on the backend and store under test (see `testBackend`, `testStoreDialect`); a
 * config naming its own `data` or `store` keeps it.
 */
export async function startTestServer(config: Partial<RuntimeConfig> & { keepRoot?: boolean } = {}): Promise<TestServer> {
  const root = config.root ?? tempRoot();
  const data = config.data === undefined ? await testDataLocation() : {};
  const store = config.store === undefined ? await testStoreUrl(root) : config.store;
  // Automatic maintenance commits at times of its own choosing, which tests that count versions,
  // fragments or jobs cannot foresee; a test that names any of its settings gets it as the server does.
  const jobs = { ...config.jobs, autoMaintenance: config.jobs?.autoMaintenance ?? { enabled: false } };
  const runtime = await startServer({ ...data, ...config, jobs, store, root, host: "127.0.0.1", port: 0, logger: false });
  const url = runtime.url;
  return {
    url,
    root,
    dataLocation: runtime.dataLocation,
    runtime,
    post: (route, body, headers = {}) =>
      fetch(url + route, {
        method: "POST",
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    get: (route, headers = {}) => fetch(url + route, { headers }),
    upload: (route, bytes, contentType = "application/vnd.apache.arrow.stream") =>
      fetch(url + route, { method: "POST", headers: contentType ? { "content-type": contentType } : {}, body: bytes }),
    async close() {
      await runtime.close();
      if (!config.keepRoot && !config.root) rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Reads a JSON response, failing with its body when the status is not the expected one. */
export async function expectJson<T = any>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`expected HTTP ${status}, got ${response.status}: ${text}`);
  return (text === "" ? undefined : JSON.parse(text)) as T;
}

/** Asserts an ErrorResponse with the given status and spec code; returns its body. */
export async function expectError(response: Response, status: number, code: number): Promise<{ code: number; error: string }> {
  const text = await response.text();
  let body: { code: number; error: string };
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`expected a JSON error body, got HTTP ${response.status}: ${text}`);
  }
  if (response.status !== status || body.code !== code) {
    throw new Error(`expected HTTP ${status} code ${code}, got HTTP ${response.status}: ${text}`);
  }
  return body;
}

/** Asserts a committed write's answer carries a transaction id; returns the answer without it. */
export function committed<T extends { transaction_id?: string }>(answer: T): Omit<T, "transaction_id"> {
  if (typeof answer.transaction_id !== "string") throw new Error(`a committed write answers its transaction id: ${JSON.stringify(answer)}`);
  const { transaction_id: _recorded, ...rest } = answer;
  return rest;
}
