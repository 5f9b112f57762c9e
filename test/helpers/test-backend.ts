/**
 * Where the tests' servers keep table data: a local folder (the default), or, with
 * QUIVER_TEST_BACKEND=azure, a fresh container of one Azurite per test process (`npm test`'s,
 * named in QUIVER_TEST_AZURITE, else one of its own). `npm test` runs
 * the table-operation tests once per backend, so the same assertions hold on both; the other
 * backends of the tests' list (`storage-backends.ts`) run the storage contract and a table smoke
 * suite instead, which keeps the suite's time.
 */
import { randomUUID } from "node:crypto";
import { Storages } from "../../src/storage/storages.js";
import { type Azurite, runningAzurite, startAzurite } from "./azurite.js";
import type { StorageBackendName } from "./storage-backends.js";

export type TestBackendName = Extract<StorageBackendName, "local" | "azure">;

export const testBackend: TestBackendName = process.env.QUIVER_TEST_BACKEND === "azure" ? "azure" : "local";

export interface TestDataLocation {
  /** The server's `--data`; undefined keeps the default folder under the root. */
  data?: string;
  storageOptions?: Record<string, string>;
}

/**
 * The tests' own view of the stores their servers write, to look at table files directly: every
 * data location `testDataLocation` hands out is configured here with its options.
 */
export const testStorages = new Storages();

let azurite: Promise<Azurite> | undefined;

/**
 * The Azurite this process shares across its servers: `npm test`'s, or one started on first use.
 * Every data location is a container of its own, so processes sharing one never meet.
 */
export function sharedAzurite(): Promise<Azurite> {
  const running = process.env.QUIVER_TEST_AZURITE;
  azurite ??= running ? Promise.resolve(runningAzurite(running)) : startAzurite({ detached: true });
  return azurite;
}

/** A fresh data location on the backend under test. */
export async function testDataLocation(): Promise<TestDataLocation> {
  if (testBackend === "local") return {};
  const { storageOptions } = await sharedAzurite();
  const data = `az://t${randomUUID().replaceAll("-", "").slice(0, 24)}/data`;
  await testStorages.configure(data, storageOptions);
  return { data, storageOptions };
}

/** Whether anything is stored at or below `location` (a folder's entries, an object-store prefix's objects). */
export async function holdsObjects(location: string): Promise<boolean> {
  const storage = testStorages.for(location);
  return (await storage.head(location)) !== undefined || (await storage.list(location)).length > 0;
}

/** The names directly under `location`, sorted. */
export async function namesUnder(location: string): Promise<string[]> {
  return (await testStorages.for(location).list(location)).map((entry) => entry.name).sort();
}
