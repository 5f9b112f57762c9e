/**
 * Loader hooks for `loaded-modules.ts`: appends the URL of every module Node's ES module loader
 * loads (ES modules, and CommonJS modules imported from them) to a file, one a line, before the
 * module runs.
 */
import { appendFileSync } from "node:fs";

let hookLog = "";

export function initialize(data: { hookLog: string }): void {
  hookLog = data.hookLog;
}

type Load = (url: string, context: unknown) => Promise<unknown>;

export async function load(url: string, context: unknown, nextLoad: Load): Promise<unknown> {
  appendFileSync(hookLog, `${url}\n`);
  return nextLoad(url, context);
}
