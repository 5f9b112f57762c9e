/**
 * A test reporter for `node --test --test-reporter=…` that prints one summary when the run ends:
 * the failed tests first (file, test name with its parents, the assertion's message), then the
 * skipped and todo ones, then the files whose tests took longest (where a slow suite's time goes),
 * then the totals the runner reported. It writes nothing while tests run,
 * so it sits after a streaming reporter such as tap. With `QUIVER_TEST_SUMMARY_FILE` set it also
 * writes the summary to that file, for the caller to print again at the end of a longer run.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { TestEvent } from "node:test/reporters";
import { isBatchFile } from "../batch-file.js";

/** A test worth naming in the summary, with its parents' names once they finished. */
interface Listed {
  file: string | undefined;
  /** The file of the outermost name so far: its parent is declared there, or is the suite `npm test` runs that file in. */
  parentFile: string | undefined;
  names: string[];
  /** Nesting of the outermost name so far; its parent, when it finishes, is one less. */
  nesting: number;
  /** Where the test is declared, or for a failure the line in the test file that threw. */
  line: number | undefined;
  /** The failure's message, or the skip or todo reason. */
  detail: string;
}

/** The runner's closing counts, in the order they are printed. */
const totalKeys = ["tests", "suites", "pass", "fail", "cancelled", "skipped", "todo", "duration_ms"] as const;
type TotalKey = (typeof totalKeys)[number];

/** The environment variable naming a file to write the summary to as well. */
export const summaryFileVariable = "QUIVER_TEST_SUMMARY_FILE";

/** Files named in the slowest-files line. */
const slowestShown = 12;

/** Lines of a failure message shown; a long diff is cut there. */
const messageLines = 30;

export default async function* summaryReporter(source: AsyncIterable<TestEvent>): AsyncGenerator<string, void> {
  const failed: Listed[] = [];
  const skipped: Listed[] = [];
  const todo: Listed[] = [];
  const waitingForParent: Listed[] = [];
  const totals = new Map<TotalKey, number>();
  /** Seconds of each file's top-level tests, or in a batch its suite's, as `<pass>/<file>`. */
  const fileSeconds = new Map<string, number>();
  /** The suites of a batch's files, waiting for their pass's suite to name them. */
  const batched: { batch: string; file: string; seconds: number }[] = [];

  for await (const event of source) {
    if (event.type === "test:diagnostic") {
      const total = /^(\w+) ([\d.]+)$/.exec(event.data.message);
      if (event.data.nesting === 0 && total && (totalKeys as readonly string[]).includes(total[1]!)) totals.set(total[1] as TotalKey, Number(total[2]));
      continue;
    }
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const { data } = event;
    const seconds = (data.details.duration_ms ?? 0) / 1000;
    if (isBatchFile(data.file) && data.nesting === 1) batched.push({ batch: data.file as string, file: data.name, seconds });
    else if (isBatchFile(data.file) && data.nesting === 0) {
      for (const member of batched.filter((member) => member.batch === data.file)) fileSeconds.set(`${data.name}/${member.file}`, member.seconds);
    } else if (data.nesting === 0 && data.file) {
      const file = path.relative(process.cwd(), data.file);
      fileSeconds.set(file, (fileSeconds.get(file) ?? 0) + seconds);
    }
    // Subtests finish before their parent, so the ones waiting one level deeper are its own. A
    // test file's suite in a batch is its parent from another file; the entry already names the file.
    for (const child of waitingForParent) {
      if (child.nesting !== data.nesting + 1) continue;
      if (child.parentFile === data.file) child.names.unshift(data.name);
      else if (isBatchFile(data.file) && child.parentFile?.endsWith(`${path.sep}${data.name}`)) child.parentFile = data.file;
      else continue;
      child.nesting = data.nesting;
    }
    const listed = (detail: string, line = data.line): Listed => ({ file: data.file, parentFile: data.file, names: [data.name], nesting: data.nesting, line, detail });
    let entry: Listed | undefined;
    if (data.todo !== undefined && data.todo !== false) todo.push((entry = listed(reason(data.todo))));
    else if (data.skip !== undefined && data.skip !== false) skipped.push((entry = listed(reason(data.skip))));
    else if (event.type === "test:fail") {
      const error = event.data.details.error as RunnerError;
      // A parent that failed only because a subtest did adds nothing to the subtest's own entry.
      if (error.failureType !== "subtestsFailed") {
        const thrown = thrownError(error);
        failed.push((entry = listed(failureMessage(error, thrown), throwingLine(thrown, data.file) ?? data.line)));
      }
    }
    if (entry && data.nesting > 0) waitingForParent.push(entry);
  }

  let out = "\n";
  // No counts here: the runner's fail total also counts each parent of a failed subtest.
  if (failed.length > 0) out += section("Failed", "✖", failed, true);
  if (skipped.length > 0) out += section("Skipped", "-", skipped, false);
  if (todo.length > 0) out += section("Todo", "-", todo, false);
  if (fileSeconds.size > 0) out += `Slowest files: ${slowestFiles(fileSeconds)}\n`;
  out += totals.size > 0 ? `${totalKeys.filter((key) => totals.has(key)).map((key) => totalText(key, totals.get(key)!)).join(" · ")}\n` : "The runner reported no totals.\n";
  const summaryFile = process.env[summaryFileVariable];
  if (summaryFile) writeFileSync(summaryFile, out);
  yield out;
}

function slowestFiles(fileSeconds: Map<string, number>): string {
  return [...fileSeconds]
    .sort((a, b) => b[1] - a[1])
    .slice(0, slowestShown)
    .map(([file, seconds]) => `${file} ${seconds.toFixed(1)} s`)
    .join(" · ");
}

function reason(value: string | boolean): string {
  return typeof value === "string" ? value : "";
}

/** The runner's wrapper around what a test threw. */
type RunnerError = Error & { failureType?: string; cause?: unknown };

/** The assertion or exception inside the runner's wrapper. */
function thrownError(error: RunnerError): Error {
  return error.cause instanceof Object && "message" in error.cause ? (error.cause as Error) : error;
}

/** The line of the test file in the thrown error's stack, the assertion that failed. */
function throwingLine(thrown: Error, file: string | undefined): number | undefined {
  if (!file || !thrown.stack) return undefined;
  const frame = thrown.stack.split("\n").find((line) => line.includes(file));
  const line = frame && /:(\d+):\d+\)?$/.exec(frame);
  return line ? Number(line[1]) : undefined;
}

/** The thrown error's message, named unless it is an assertion, and how the runner saw it fail. */
function failureMessage(error: RunnerError, thrown: Error): string {
  const named = thrown.name && thrown.name !== "AssertionError" && thrown !== error ? `${thrown.name}: ${thrown.message}` : thrown.message;
  const kind = error.failureType && error.failureType !== "testCodeFailure" ? ` [${error.failureType}]` : "";
  const lines = `${named.trimEnd()}${kind}`.split("\n");
  return lines.length > messageLines ? [...lines.slice(0, messageLines), `… ${lines.length - messageLines} more lines`].join("\n") : lines.join("\n");
}

function section(title: string, mark: string, entries: Listed[], withLocation: boolean): string {
  let text = `${title}:\n`;
  for (const entry of entries) {
    const file = entry.file ? path.relative(process.cwd(), entry.file) : "";
    const where = withLocation && file ? `${file}${entry.line ? `:${entry.line}` : ""} › ` : file ? `${file} › ` : "";
    text += `  ${mark} ${where}${entry.names.join(" › ")}\n`;
    if (entry.detail) text += `${entry.detail.replace(/^(?=.)/gm, "      ")}\n`;
  }
  return `${text}\n`;
}

function totalText(key: TotalKey, value: number): string {
  return key === "duration_ms" ? `duration ${(value / 1000).toFixed(1)} s` : `${key} ${value}`;
}
