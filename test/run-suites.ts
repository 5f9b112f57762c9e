/**
 * `npm test`: every test file on local folders, then the table-operation tests again with table
 * data on an object store (Azurite), so the same assertions hold on both backends. Each pass is one
 * `node --test` run with the TAP stream and the summary; the exit code fails if either pass did.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const testRoot = path.dirname(fileURLToPath(import.meta.url));

/** The table-operation tests: everything that creates, writes, reads or versions tables. */
const objectStoreSuites = ["server/tables.test.js", "server/namespaces.test.js", "data/", "versions/", "views/", "jobs/", "compat/"];

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

const passes = [
  { backend: "local", files: testFiles() },
  {
    backend: "azure",
    files: testFiles().filter((file) => objectStoreSuites.some((suite) => path.relative(testRoot, file).startsWith(suite))),
  },
];

let failed = false;
for (const { backend, files } of passes) {
  console.log(`# backend: ${backend} (${files.length} files)`);
  const run = spawnSync(
    process.execPath,
    [
      "--test",
      "--test-concurrency=2",
      "--test-reporter=tap",
      "--test-reporter-destination=stdout",
      `--test-reporter=${path.join(testRoot, "reporter", "summary-reporter.js")}`,
      "--test-reporter-destination=stdout",
      ...files,
    ],
    { stdio: "inherit", env: { ...process.env, QUIVER_TEST_BACKEND: backend } },
  );
  if (run.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
