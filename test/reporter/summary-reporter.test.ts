// The summary `npm test` ends with, from a real `node --test` run of a file with failing, skipped
// and todo tests.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { batchFileText } from "../batch-file.js";

const run = promisify(execFile);
// The reporter as compiled (dist/test/reporter/), whether this file runs compiled or bundled.
const reporter = fileURLToPath(new URL("../../test/reporter/summary-reporter.js", import.meta.url));

const sample = `import assert from "node:assert/strict";
import { describe, test } from "node:test";
test("adds", () => {});
test("compares numbers", () => {
  assert.equal(1 + 1, 3, "one plus one is three");
});
test("needs a network", { skip: "offline" }, () => {});
test("reads gzip", { todo: "not yet" }, () => {});
describe("a suite", () => {
  describe("inner", () => {
    test("throws", () => {
      throw new TypeError("boom");
    });
  });
});
test("parent", async (t) => {
  await t.test("child", () => assert.deepEqual({ a: 1 }, { a: 2 }));
});
`;

/**
 * Runs `node --test` with the summary reporter alone on the file `entry` of a folder holding
 * `files` (each made from the folder's path); its output, exit code and the summary file it wrote
 * (as `npm test` asks it to, to print failed passes again at the end).
 */
async function summaryOf(files: Record<string, (folder: string) => string>, entry: string): Promise<{ output: string; exitCode: number; summaryFile: string }> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "quiver-reporter-"));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
      writeFileSync(path.join(folder, name), text(folder));
    }
    // Without the parent run's context variable, the child is a run of its own with its own reporter.
    const { NODE_TEST_CONTEXT: _, ...inherited } = process.env;
    const summaryPath = path.join(folder, "summary.txt");
    const env = { ...inherited, QUIVER_TEST_SUMMARY_FILE: summaryPath };
    const args = ["--test", `--test-reporter=${reporter}`, "--test-reporter-destination=stdout", entry];
    try {
      const { stdout } = await run(process.execPath, args, { cwd: folder, env });
      return { output: stdout, exitCode: 0, summaryFile: readFileSync(summaryPath, "utf8") };
    } catch (error) {
      const failed = error as { stdout: string; code: number };
      return { output: failed.stdout, exitCode: failed.code, summaryFile: readFileSync(summaryPath, "utf8") };
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const summaryOfSample = () => summaryOf({ "sample.test.mjs": () => sample }, "sample.test.mjs");

test("Summary reporter on a run with failures → failures first with file:line, names and messages, then skipped, todo and the runner's totals", async () => {
  const { output, exitCode, summaryFile } = await summaryOfSample();
  assert.equal(exitCode, 1, "a failing run still fails");
  assert.equal(summaryFile, output, "the summary file holds what was printed");
  assert.equal(
    output.replace(/duration \d+\.\d s/, "duration <s>").replace(/sample\.test\.mjs \d+\.\d s/, "sample.test.mjs <s>"),
    [
      "",
      "Failed:",
      "  ✖ sample.test.mjs:5 › compares numbers",
      "      one plus one is three",
      "",
      "      2 !== 3",
      "  ✖ sample.test.mjs:12 › a suite › inner › throws",
      "      TypeError: boom",
      "  ✖ sample.test.mjs:17 › parent › child",
      "      Expected values to be strictly deep-equal:",
      "      + actual - expected",
      "",
      "        {",
      "      +   a: 1",
      "      -   a: 2",
      "        }",
      "",
      "Skipped:",
      "  - sample.test.mjs › needs a network",
      "      offline",
      "",
      "Todo:",
      "  - sample.test.mjs › reads gzip",
      "      not yet",
      "",
      "Slowest files: sample.test.mjs <s>",
      "tests 7 · suites 2 · pass 1 · fail 4 · cancelled 0 · skipped 1 · todo 1 · duration <s>",
      "",
    ].join("\n"),
  );
});

test("Summary reporter on a run as npm test makes it, the sample and a passing file in one test process of a pass → each failure names its file and the pass, the slowest files are named <pass>/<file>", async () => {
  const batch = (folder: string) =>
    batchFileText(
      "local-postgres",
      { QUIVER_TEST_STORE: "postgres" },
      ["sample.test.mjs", "passing.test.mjs"].map((name) => ({ name, url: pathToFileURL(path.join(folder, name)).href })),
      "the sample and a passing file",
    );
  const { output, exitCode } = await summaryOf(
    {
      "sample.test.mjs": () => sample,
      "passing.test.mjs": () => `import { test } from "node:test";\ntest("passes", () => {});\n`,
      "test-batches/local-postgres/batch-01.test.mjs": batch,
    },
    "test-batches/local-postgres/batch-01.test.mjs",
  );
  assert.equal(exitCode, 1, "a failing run still fails");
  const names = output.split("\n").filter((line) => /^  [✖-] /.test(line));
  assert.deepEqual(names, [
    "  ✖ sample.test.mjs:5 › local-postgres › compares numbers",
    "  ✖ sample.test.mjs:12 › local-postgres › a suite › inner › throws",
    "  ✖ sample.test.mjs:17 › local-postgres › parent › child",
    "  - sample.test.mjs › local-postgres › needs a network",
    "  - sample.test.mjs › local-postgres › reads gzip",
  ]);
  const slowest = /^Slowest files: (.*)$/m.exec(output)?.[1] ?? "";
  assert.deepEqual(slowest.split(" · ").map((entry) => entry.replace(/ \d+\.\d s$/, "")).sort(), ["local-postgres/passing.test.mjs", "local-postgres/sample.test.mjs"]);
  assert.match(output, /^tests 8 · suites 5 · pass 2 · fail \d+ · cancelled 0 · skipped 1 · todo 1 · duration \d+\.\d s$/m);
});
