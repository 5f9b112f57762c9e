/**
 * The storage backends the storage tests loop over, one entry per backend Quiver serves, each on
 * a real endpoint the tests start: a local folder, Azurite (Azure Blob Storage), s3rver (the S3
 * API) and the GCS emulator (Cloud Storage's JSON and XML APIs). An entry starts its endpoint on
 * first use and hands out fresh, empty roots on it. QUIVER_TEST_STORAGES=local,gcs (any names)
 * narrows the list.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Azurite, startAzurite } from "./azurite.js";
import { type GcsEmulator, startGcsEmulator } from "./gcs-emulator.js";
import { type S3rver, startS3rver } from "./s3rver.js";

export type StorageBackendName = "local" | "azure" | "s3" | "gcs";

export interface FreshRoot {
  /** An empty location: a folder, or a prefix in a bucket or container of its own. */
  root: string;
  /** Lance's storage options that reach it (none for a folder). */
  storageOptions: Record<string, string>;
}

export interface StorageBackendUnderTest {
  name: StorageBackendName;
  /** The endpoint's name, for test names: `a local folder`, `Azurite`, `s3rver`, `the GCS emulator`. */
  endpoint: string;
  /**
   * Why conditional creates cannot be tested here, when the endpoint accepts them and ignores the
   * condition; a server on it must run with the conditional-create probe off. Undefined when it
   * enforces them.
   */
  ignoresConditionalCreates?: string;
  /** A fresh, empty root, the endpoint started on first use. */
  freshRoot(): Promise<FreshRoot>;
  /** Stops the endpoint and removes what it kept. */
  stop(): Promise<void>;
}

/** A bucket or container name no other test uses. */
function uniqueName(first: string): string {
  return `${first}${randomUUID().replaceAll("-", "").slice(0, 20)}`;
}

function localFolders(): StorageBackendUnderTest {
  const folders: string[] = [];
  return {
    name: "local",
    endpoint: "a local folder",
    freshRoot: async () => {
      const root = mkdtempSync(path.join(tmpdir(), "quiver-storage-"));
      folders.push(root);
      return { root, storageOptions: {} };
    },
    stop: async () => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })),
  };
}

function azurite(): StorageBackendUnderTest {
  let started: Promise<Azurite> | undefined;
  return {
    name: "azure",
    endpoint: "Azurite",
    freshRoot: async () => {
      started ??= startAzurite();
      const { storageOptions } = await started;
      // The container is created by the storage (`preparePrefix`), as a server does at start.
      return { root: `az://${uniqueName("c")}/db`, storageOptions };
    },
    stop: async () => (await started)?.stop(),
  };
}

function s3rver(): StorageBackendUnderTest {
  let started: Promise<S3rver> | undefined;
  return {
    name: "s3",
    endpoint: "s3rver",
    ignoresConditionalCreates: "s3rver stores every PutObject and ignores If-None-Match (unsafe-object-store.test.ts proves Quiver refuses such a store)",
    freshRoot: async () => {
      started ??= startS3rver();
      const server = await started;
      const bucket = uniqueName("b");
      await server.createBucket(bucket);
      return { root: `s3://${bucket}/db`, storageOptions: server.storageOptions };
    },
    stop: async () => (await started)?.stop(),
  };
}

function gcsEmulator(): StorageBackendUnderTest {
  let started: Promise<GcsEmulator> | undefined;
  return {
    name: "gcs",
    endpoint: "the GCS emulator",
    freshRoot: async () => {
      started ??= startGcsEmulator();
      // The emulator serves every bucket name.
      return { root: `gs://${uniqueName("b")}/db`, storageOptions: (await started).storageOptions };
    },
    stop: async () => (await started)?.stop(),
  };
}

/**
 * Every backend, each with an endpoint of its own (started on first use, stopped by `stop`), as
 * QUIVER_TEST_STORAGES narrows them; `names` narrows them further.
 */
export function storageBackendsUnderTest(names?: readonly StorageBackendName[]): StorageBackendUnderTest[] {
  const wanted = process.env.QUIVER_TEST_STORAGES?.split(",");
  return [localFolders(), azurite(), s3rver(), gcsEmulator()].filter((backend) => (wanted ?? [backend.name]).includes(backend.name) && (names ?? [backend.name]).includes(backend.name));
}
