/**
 * Authorization by grants, with 10,000 grants in the store (1,000 other subjects, ten grants each):
 * - the check a request of a grant-only caller adds: what it holds (from the in-memory index) and
 *   the operation's need on the table its request names, in µs, in-process over the real store;
 *   and the index's rebuild after a change, in ms;
 * - DescribeTable requests/s through `quiver serve --auth required` (its own process, 32
 *   concurrent keep-alive connections) with a key holding only grants (USAGE on the database,
 *   SELECT on the table), against the same requests with a `read` key, which no grant is asked for.
 * With a third argument, the CLI entry (`dist/src/bin/main.js`) of another build: the same
 * requests with the `read` key through that build's server on the same root, e.g. the release
 * before grants, to compare a role's requests with what they cost there.
 * Run `npm run build && node dist/bench/authz.js [grants=10000] [requests=20000] [baselineEntry]`.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { AccessDirectory } from "../src/auth/access-directory.js";
import { createApiKey } from "../src/auth/credentials.js";
import { scopedPrincipal } from "../src/auth/principal.js";
import type { Catalog } from "../src/catalog/catalog.js";
import { openLocalRoot } from "../src/catalog/runtime/local-root.js";
import { authStoreOf } from "../src/cli/auth-store-adapter.js";
import { checkOperation } from "../src/model/authz/operation-check.js";
import { operations } from "../src/model/operations/index.js";
import { arrowStream } from "../test/helpers/arrow.js";
import { spawnServe } from "../test/helpers/cli-process.js";
import { tempRoot } from "../test/helpers/test-server.js";
import { jsonPoster, measureRequests } from "./measure.js";

const grantCount = Number(process.argv[2] ?? 10_000);
const requests = Number(process.argv[3] ?? 20_000);
const baselineArgument = process.argv[4];
const concurrency = 32;

export interface AuthzFigures {
  grants: number;
  /** µs of one grant check (index lookup and the operation's need), median of batches. */
  checkMicros: number;
  /** ms to rebuild the index after a change. */
  indexRebuildMs: number;
  describesPerSecondByGrant: number;
  describesPerSecondByRole: number;
  /** The `read` key's describes/s through the baseline build, when one was given. */
  describesPerSecondBaseline?: number;
}

export async function measureAuthz(grants = grantCount, total = requests, baselineEntry = baselineArgument): Promise<AuthzFigures> {
  const root = tempRoot("quiver-bench-authz-");
  try {
    const local = await openLocalRoot(root);
    const authStore = authStoreOf(local.store);
    let analyst: string;
    let reader: string;
    let checkMicros: number;
    let indexRebuildMs: number;
    try {
      const catalog = (await local.registry.catalogFor("default")) as Catalog;
      await catalog.createTable({ id: ["orders"] }, arrowStream({ id: Int32Array.from([1, 2, 3]) }));
      analyst = (await createApiKey(authStore, { database: "default", role: "none" })).api_key;
      reader = (await createApiKey(authStore, { database: "default", role: "read" })).api_key;
      const subject = `p:api-key:${analyst.slice(3, 19)}`;
      await local.store.transaction(async (tx) => {
        const row = (subjectText: string, object: string, privilege: string) => ({ subject: subjectText, object, privilege, granted_at: Date.now(), granted_by: "bench" });
        await tx.insertGrant(row(subject, "database:default", "USAGE"));
        await tx.insertGrant(row(subject, "table:default:public$orders", "SELECT"));
        for (let i = 0; i < grants - 2; i += 1) await tx.insertGrant(row(`p:external-token:user-${i % 1000}`, `table:default:team${i % 100}$t${i}`, "SELECT"));
      });

      const directory = new AccessDirectory(authStore);
      const principal = scopedPrincipal("api-key", `api-key:${analyst.slice(3, 19)}`, "default", "none");
      const rebuilds: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        await local.store.events.publish({ topic: "authz", key: "" });
        const started = performance.now();
        await directory.accessOf(principal);
        rebuilds.push(performance.now() - started);
      }
      indexRebuildMs = rebuilds.sort((a, b) => a - b)[2] as number;
      const entry = operations.countTableRows;
      const batch = 10_000;
      const batches: number[] = [];
      for (let round = 0; round < 7; round += 1) {
        const started = performance.now();
        for (let i = 0; i < batch; i += 1) checkOperation((await directory.accessOf(principal)).grants, entry.privilege, entry.target, "default", ["orders"]);
        batches.push(((performance.now() - started) * 1000) / batch);
      }
      checkMicros = batches.sort((a, b) => a - b)[3] as number;
      directory.close();
    } finally {
      await local.close();
    }

    const describesPerSecond = async (url: string, key: string) => {
      const post = jsonPoster(concurrency, { "x-api-key": key });
      const describe = () => post(url, "/v1/table/orders/describe", {}).then(() => undefined);
      await measureRequests(2000, concurrency, describe);
      return measureRequests(total, concurrency, describe);
    };
    /** Runs `measure` on a server of `entry` on the root, stopping it afterwards. */
    const withServer = async <T>(entry: string | undefined, measure: (url: string) => Promise<T>): Promise<T> => {
      const server = await spawnServe(["--port", "0", "--root", root, "--auth", "required"], {}, entry);
      try {
        return await measure(server.url);
      } finally {
        await server.stop();
      }
    };
    // Alternated, best of two each: the machine's load moves between runs.
    const byRole: number[] = [];
    const byGrant: number[] = [];
    const baseline: number[] = [];
    for (let round = 0; round < 2; round += 1) {
      await withServer(undefined, async (url) => {
        byRole.push(await describesPerSecond(url, reader));
        byGrant.push(await describesPerSecond(url, analyst));
      });
      if (baselineEntry) baseline.push(await baselineDescribes(baselineEntry, describesPerSecond));
    }
    return {
      grants,
      checkMicros,
      indexRebuildMs,
      describesPerSecondByGrant: Math.max(...byGrant),
      describesPerSecondByRole: Math.max(...byRole),
      ...(baseline.length > 0 ? { describesPerSecondBaseline: Math.max(...baseline) } : {}),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The `read` key's describes/s through another build's server, on a root of its own made by that
 * build's CLI (a root this build migrated may be newer than it knows).
 */
async function baselineDescribes(entry: string, describesPerSecond: (url: string, key: string) => Promise<number>): Promise<number> {
  const root = tempRoot("quiver-bench-authz-baseline-");
  try {
    const key = (role: string) => execFileSync(process.execPath, [entry, "keys", "create", "--database", "default", "--role", role, "--root", root], { encoding: "utf8" }).trim();
    const [admin, reader] = [key("admin"), key("read")];
    const server = await spawnServe(["--port", "0", "--root", root, "--auth", "required"], {}, entry);
    try {
      const created = await fetch(`${server.url}/v1/table/orders/create`, {
        method: "POST",
        headers: { "x-api-key": admin, "content-type": "application/vnd.apache.arrow.stream" },
        body: arrowStream({ id: Int32Array.from([1, 2, 3]) }),
      });
      if (!created.ok) throw new Error(`the baseline build did not create the table: ${await created.text()}`);
      return await describesPerSecond(server.url, reader);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureAuthz();
  console.log(`| figure | measured | baseline | ratio | goal |`);
  console.log(`|---|---|---|---|---|`);
  console.log(`| grant check of a request, ${figures.grants} grants | ${figures.checkMicros.toFixed(2)} µs | | | ≤ 50 µs |`);
  console.log(`| index rebuild after a change, ${figures.grants} grants | ${figures.indexRebuildMs.toFixed(1)} ms | | | |`);
  console.log(
    `| DescribeTable/s, grant-only key ÷ read key | ${figures.describesPerSecondByGrant.toFixed(0)} | ${figures.describesPerSecondByRole.toFixed(0)} | ${(figures.describesPerSecondByGrant / figures.describesPerSecondByRole).toFixed(2)} | ≥ 0.95 |`,
  );
  if (figures.describesPerSecondBaseline !== undefined) {
    const ratio = figures.describesPerSecondByRole / figures.describesPerSecondBaseline;
    console.log(`| DescribeTable/s, read key, this build ÷ the baseline build | ${figures.describesPerSecondByRole.toFixed(0)} | ${figures.describesPerSecondBaseline.toFixed(0)} | ${ratio.toFixed(2)} | ≥ 0.95 |`);
  }
}
