/**
 * Runs `quiver serve` as a child process, the way users start it, and waits for its ready line;
 * runs the other commands and the example programs to completion.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { whenEachFileDone } from "../batch-file.js";
import { tempRoot } from "./test-server.js";

export const cliEntry = fileURLToPath(new URL("../../src/bin/main.js", import.meta.url));
export const examplesDir = fileURLToPath(new URL("../../examples/", import.meta.url));

/** Environment additions; an `undefined` value removes the variable from the inherited environment. */
export type EnvChanges = Record<string, string | undefined>;

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything written so far, stdout and stderr interleaved. */
  output(): string;
  /** What was written to stdout so far. */
  stdout(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

function childEnv(changes: EnvChanges): NodeJS.ProcessEnv {
  // Tests keep the request log quiet unless they ask for a level.
  const env: NodeJS.ProcessEnv = { ...process.env, QUIVER_LOG_LEVEL: "warn" };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/**
 * The process groups of the servers this process started and whose relay still runs. Each `quiver
 * serve` runs in a group of its own with the server process it starts, so a kill reaches both,
 * even a server too busy to see that its relay is gone. Every group is killed when the test file's
 * tests are done, whatever happened to them (a test that gave up on a server, or never reached the
 * line that would stop it, leaves none running to hold the file open), and when the process exits.
 * A group leaves the set when its relay ends: process ids are reused, so a group id kept longer
 * could name another file's server.
 */
const serverGroups = new Set<number>();
const killGroup = (group: number) => {
  try {
    process.kill(-group, "SIGKILL");
  } catch {
    // The group has no process left.
  }
};
const killServerGroups = () => {
  for (const group of serverGroups) killGroup(group);
};
process.on("exit", killServerGroups);
whenEachFileDone(killServerGroups);

export async function spawnServe(args: string[], env: EnvChanges = {}, entry: string = cliEntry): Promise<ServeProcess> {
  // As in startTestServer: automatic maintenance only where a test asks for it.
  const child = spawn(process.execPath, [entry, "serve", ...args], { env: childEnv({ QUIVER_AUTO_MAINTENANCE: "off", ...env }), stdio: ["ignore", "pipe", "pipe"], detached: true });
  const group = child.pid as number;
  serverGroups.add(group);
  child.on("exit", (code) => {
    // A relay that ends by itself has waited for its server; one killed may have left it running.
    if (code === null) killGroup(group);
    serverGroups.delete(group);
  });
  const kill = (signal: NodeJS.Signals) => (signal === "SIGKILL" ? killGroup(group) : child.kill(signal));
  let output = "";
  let stdout = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    // A server that did not report in time is stopped: a test that gives up on it must not leave it running.
    const timer = setTimeout(() => {
      kill("SIGKILL");
      reject(new Error(`server did not start within 20 s: ${output}`));
    }, 20_000);
    const check = () => {
      const match = /Quiver listening on (https?:\/\/[^\s"]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    };
    child.stdout?.on("data", check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before it was ready: ${output}`));
    });
  });
  return {
    child,
    url,
    output: () => output,
    stdout: () => stdout,
    exited,
    stop: (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) kill(signal);
      return exited;
    },
  };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a Node program to completion (killed after `timeoutMs`). */
export function runNode(script: string, args: string[], env: EnvChanges = {}, timeoutMs = 30_000): Promise<Finished> {
  const child = spawn(process.execPath, [script, ...args], { env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs `quiver <args>` to completion. */
export function runCli(args: string[], env: EnvChanges = {}): Promise<Finished> {
  return runNode(cliEntry, args, env);
}

/**
 * `quiver serve --port 0` with `args` on a fresh temporary root, killed and its root removed when
 * the test ends.
 */
export async function spawnServeOnFreshRoot(
  t: { after(fn: () => Promise<void>): void },
  args: string[] = [],
  env: EnvChanges = {},
): Promise<ServeProcess & { root: string }> {
  const root = tempRoot();
  const server = await spawnServe(["--port", "0", "--root", root, ...args], env);
  t.after(async () => {
    await server.stop("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  });
  return { ...server, root };
}
