/**
 * Starts Azurite's Blob service (the npm package, in memory, on a free port; or on disk, on a
 * given port, to be stopped and started again) as a child process: a faithful Azure Blob
 * endpoint for tests, conditional creates included.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

/** Azurite's well-known development account. */
export const azuriteAccount = "devstoreaccount1";
export const azuriteKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

export interface Azurite {
  /** Blob endpoint including the account, e.g. `http://127.0.0.1:41234/devstoreaccount1`. */
  endpoint: string;
  /** Lance's storage options for this endpoint. */
  storageOptions: Record<string, string>;
  port: number;
  /** Freezes the process: connections are still accepted, and nothing is answered (a hung store). */
  pause(): void;
  /** Lets a paused Azurite run on. */
  resume(): void;
  stop(): Promise<void>;
}

const blobMain = path.join(path.dirname(createRequire(import.meta.url).resolve("azurite/package.json")), "dist/src/blob/main.js");

export interface AzuriteOptions {
  /**
   * Lets the test process exit while Azurite runs (it is killed when the process exits): for an
   * Azurite shared by every test of a file, which no single test stops.
   */
  detached?: boolean;
  /**
   * Keeps blobs in this folder instead of in memory, so an Azurite started again on it finds
   * them. Azurite writes its index at most 5 s after a change: wait that long before a stop.
   */
  location?: string;
  /** The port to listen on; default any free one. */
  port?: number;
}

/** The storage options Lance takes for an Azurite Blob endpoint. */
function storageOptionsOf(endpoint: string): Record<string, string> {
  return { azure_storage_account_name: azuriteAccount, azure_storage_account_key: azuriteKey, azure_endpoint: endpoint, allow_http: "true" };
}

/**
 * An Azurite another process started and stops (`npm test` starts one for the whole run), by its
 * Blob endpoint. Pausing or stopping it is that process's business, so those are refused here.
 */
export function runningAzurite(endpoint: string): Azurite {
  const refuse = () => {
    throw new Error(`the Azurite at ${endpoint} belongs to another process: start one of its own to pause or stop`);
  };
  return { endpoint, storageOptions: storageOptionsOf(endpoint), port: Number(new URL(endpoint).port), pause: refuse, resume: refuse, stop: async () => refuse() };
}

/**
 * Loaded into Azurite before its code. With its telemetry off, Azurite never uses the Application
 * Insights library it loads at start-up, which is two thirds of a start (about 1.8 s of CPU); it
 * finds an empty module in its place.
 */
const withoutTelemetryLibrary = `data:text/javascript,${encodeURIComponent(`
import { Module, createRequire } from "node:module";
const fromAzurite = createRequire(process.argv[1]);
const library = fromAzurite.resolve("applicationinsights");
const empty = new Module(library);
empty.filename = library;
empty.loaded = true;
fromAzurite.cache[library] = empty;
`)}`;

export async function startAzurite(options: AzuriteOptions = {}): Promise<Azurite> {
  const persistence = options.location === undefined ? ["--inMemoryPersistence"] : ["--location", options.location];
  const args = ["--import", withoutTelemetryLibrary, blobMain, "--blobHost", "127.0.0.1", "--blobPort", String(options.port ?? 0), ...persistence, "--silent", "--skipApiVersionCheck", "--disableTelemetry"];
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Azurite did not start: ${output}`)), 20_000);
    child.stdout?.on("data", (chunk) => {
      output += chunk;
      const match = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.stderr?.on("data", (chunk) => (output += chunk));
    void exited.then(() => reject(new Error(`Azurite exited: ${output}`)));
  });
  if (options.detached) {
    child.unref();
    for (const stream of [child.stdout, child.stderr]) (stream as unknown as { unref(): void } | null)?.unref();
    process.once("exit", () => child.kill("SIGKILL"));
  }
  const endpoint = `http://127.0.0.1:${port}/${azuriteAccount}`;
  return {
    endpoint,
    storageOptions: storageOptionsOf(endpoint),
    port: Number(port),
    pause: () => child.kill("SIGSTOP"),
    resume: () => child.kill("SIGCONT"),
    stop: async () => {
      // A graceful stop would wait out the clients' idle keep-alive sockets; on disk, the index
      // holds what was written up to its last save.
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** The HTTP status an Azure SDK call failed with; fails the test when the call succeeds. */
export async function statusOfFailure(operation: Promise<unknown>): Promise<number | undefined> {
  try {
    await operation;
  } catch (error) {
    return (error as { statusCode?: number }).statusCode;
  }
  throw new Error("the operation succeeded");
}
