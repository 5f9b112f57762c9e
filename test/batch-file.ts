/**
 * @module The files `npm test`'s test processes run (test/run-suites.ts): each sets its pass's
 * settings, then imports test files one after another, each inside a suite named after its path,
 * within a suite named after the pass. The runner names a test by the file that declares it, so
 * these suites are what tell a failure's pass, and what the summary's slowest files are named by
 * (test/reporter/summary-reporter.ts).
 */
import path from "node:path";
import { after } from "node:test";

/** The folder, beside the test bundles, that holds these files (`test-batches/<pass>/`). */
export const batchFolderName = "test-batches";

/** Whether `file` is one of these files. */
export function isBatchFile(file: string | undefined): boolean {
  return file?.split(path.sep).includes(batchFolderName) ?? false;
}

/** Where shared helpers keep what must run each time a test file's tests are done (`whenEachFileDone`). */
const fileDoneKey = "quiver.test.fileDone";

/**
 * Runs `hook` when the tests of the file that loads the caller end, and in a batch when those of
 * each of its files end: a module's own top-level `after` belongs to the file that first loaded
 * it, and a batch loads it once for all its files. Outside the test runner (a benchmark importing
 * a helper) it does nothing.
 */
export function whenEachFileDone(hook: () => void): void {
  if (!process.env.NODE_TEST_CONTEXT) return;
  after(hook);
  const hooks = ((globalThis as Record<symbol, (() => void)[]>)[Symbol.for(fileDoneKey)] ??= []);
  hooks.push(hook);
}

/** A test file a batch imports: its name (its path among the test files) and its URL. */
export interface BatchMember {
  name: string;
  url: string;
}

/** How long a batch's process may run on after its tests before it fails. */
const exitGraceSeconds = 30;

/** The text of a batch file: `heading` as its first comment, `env` set before any test file loads. */
export function batchFileText(pass: string, env: Record<string, string>, members: BatchMember[], heading: string): string {
  return (
    `// ${heading} (written by test/run-suites.ts).\n` +
    `import { after, describe } from "node:test";\n` +
    Object.entries(env)
      .map(([name, value]) => `process.env.${name} = ${JSON.stringify(value)};\n`)
      .join("") +
    `describe(${JSON.stringify(pass)}, () => {\n` +
    members
      .map(
        (member) =>
          `  describe(${JSON.stringify(member.name)}, async () => {\n    await import(${JSON.stringify(member.url)});\n` +
          `    after(() => { for (const hook of globalThis[Symbol.for(${JSON.stringify(fileDoneKey)})] ?? []) hook(); });\n  });\n`,
      )
      .join("") +
    // A process still running something of its tests after them (a server a failed test left)
    // fails, naming what runs, instead of holding the run.
    `  after(() => {\n    setTimeout(() => {\n      console.error(\`still running ${exitGraceSeconds} s after its tests: \${process.getActiveResourcesInfo().join(", ")}\`);\n      process.exit(1);\n    }, ${exitGraceSeconds * 1000}).unref();\n  });\n` +
    `});\n`
  );
}
