/**
 * Runs `quiver serve` as a child process, the way users start it, and waits for its ready line.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const cliEntry = fileURLToPath(new URL("../../src/cli/main.js", import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function spawnServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [cliEntry, "serve", ...args], {
    env: { ...process.env, QUIVER_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 20_000);
    const check = () => {
      const match = /Quiver listening on (http:\/\/\S+)/.exec(output);
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
    stop: (signal = "SIGTERM") => {
      child.kill(signal);
      return exited;
    },
  };
}
