/**
 * @module `quiver serve` as two processes, so that Lance's own log lines join Quiver's log. Lance's
 * native layer writes them straight to the process's stderr, where no JavaScript can intercept
 * them; so `serve` runs the server in a child process whose stderr is a pipe, reads it line by
 * line, and writes Lance's lines as records of the log (JSON or pretty, secrets scrubbed, below
 * the log level dropped) to stdout. Anything else on that stderr is passed on unchanged.
 *
 * The child shares this process's stdout and is stopped with it: signals are passed on, its exit
 * code becomes this process's, and should this process die without a word (SIGKILL), the child
 * sees its stdin close and ends itself at once, as abruptly.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { constants as osConstants, hostname } from "node:os";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseLanceLine } from "./lance-log.js";
import { logStream, usesPretty } from "./log-output.js";
import type { ServeOptions } from "./serve-options.js";

/** Set in the child's environment; its value is the supervisor's pid, the `quiver serve` process operators see. */
export const supervisedEnv = "QUIVER_SERVE_SUPERVISOR";

const levelNumbers: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };
const forwardedSignals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** What relaying needs of the serve options; their defaults when the options do not parse (the child reports why). */
export type RelayOptions = Pick<ServeOptions, "logFormat" | "logLevel" | "secrets">;

/** Starts the server in a child process, with the same arguments. */
export function spawnServer(argv: string[]): ChildProcess {
  return spawn(process.execPath, [...process.execArgv, fileURLToPath(new URL("./main.js", import.meta.url)), "serve", ...argv], {
    env: { ...process.env, [supervisedEnv]: String(process.pid), LANCEDB_LOG_STYLE: "never" },
    stdio: ["pipe", "inherit", "pipe"],
  });
}

/**
 * Relays the child's stderr into the log and its signals, and resolves with its exit code. It
 * listens at once, before `options` are read: a child refusing its options ends in a moment, and
 * an end nobody was listening for would lose both its message and its exit code. Lines that
 * arrive before the options are held until they are known.
 */
export function relayServer(child: ChildProcess, options: Promise<RelayOptions>): Promise<number> {
  // `close`, not `exit`: it comes once the child's stderr is read to its end, so no line is lost.
  const exited = new Promise<number>((resolve) => {
    child.on("close", (code, signal) => resolve(code ?? 128 + (signal ? (osConstants.signals[signal] ?? 1) : 1)));
  });
  const held: string[] = [];
  let relay: ((line: string) => void) | undefined;
  createInterface({ input: child.stderr as NodeJS.ReadableStream, crlfDelay: Infinity }).on("line", (line) => (relay ? relay(line) : held.push(line)));
  for (const signal of forwardedSignals) process.on(signal, () => child.kill(signal));
  const relaying = options.then((settings) => {
    relay = lineRelay(child, settings);
    for (const line of held.splice(0)) relay(line);
  });
  return exited.then(async (code) => {
    await relaying;
    return code;
  });
}

/** Writes one line of the child's stderr: Lance's as a log record at or above the log level, anything else unchanged. */
function lineRelay(child: ChildProcess, options: RelayOptions): (line: string) => void {
  const log = logStream(process.stdout, { pretty: usesPretty(options.logFormat, process.stdout.isTTY === true), secrets: options.secrets });
  const least = levelNumbers[options.logLevel] ?? 30;
  const host = hostname();
  return (line) => {
    const record = parseLanceLine(line);
    if (!record) {
      log.passThrough(process.stderr, `${line}\n`);
      return;
    }
    if (record.level >= least) log.write(`${JSON.stringify({ level: record.level, time: record.time, pid: child.pid, hostname: host, source: record.source, target: record.target, msg: record.msg })}\n`);
  };
}

/** In the child: end at once when the supervisor is gone (its end of stdin closes). */
export function endWithSupervisor(): void {
  process.stdin.on("end", () => process.kill(process.pid, "SIGKILL"));
  process.stdin.on("error", () => process.kill(process.pid, "SIGKILL"));
  process.stdin.resume();
}
