/**
 * One bash shell that commands are pasted into in turn, as into a terminal: variables, the
 * working folder and background jobs (`%1`) carry from one command to the next. The shell leads
 * a process group of its own, so everything it starts can be listed and ended together.
 *
 * Its output goes to a file, as a terminal's would go to a device: a pipe shared by every process
 * the shell starts can be left non-blocking by one of them (Node does that to its stdout), and a
 * later `curl` then fails with a write error.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** What one command printed (stdout and stderr together) and its exit status. */
export interface Ran {
  output: string;
  status: number;
}

const doneMark = "__doc_test_done__";

export class ShellSession {
  private readonly child: ChildProcess;
  private readonly log: string;
  /** How much of the output file earlier commands accounted for. */
  private read = 0;
  private count = 0;

  /** Starts `bash` in `cwd` with `env`; `scratch` is a folder for the pasted commands' files. */
  constructor(
    cwd: string,
    env: NodeJS.ProcessEnv,
    private readonly scratch: string,
  ) {
    this.log = path.join(scratch, "output.log");
    const out = openSync(this.log, "w");
    this.child = spawn("bash", ["--noprofile", "--norc"], { cwd, env, detached: true, stdio: ["pipe", out, out] });
    closeSync(out);
    // Stricter than a terminal in one way only: a failure inside a pipeline is not hidden by its last command.
    this.child.stdin?.write("set -o pipefail\n");
  }

  /** The shell's process group: the shell and everything it started that did not leave the group. */
  get group(): number {
    return this.child.pid as number;
  }

  /** Runs one command as if pasted at the prompt; rejects when it has not finished within `timeoutMs`. */
  async run(command: string, timeoutMs: number): Promise<Ran> {
    const file = path.join(this.scratch, `command-${++this.count}.sh`);
    writeFileSync(file, command + "\n");
    this.child.stdin?.write(`source ${JSON.stringify(file)} </dev/null; printf '\\n${doneMark} %s\\n' $?\n`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const written = readFileSync(this.log);
      const since = written.subarray(this.read).toString();
      const match = new RegExp(`\\n${doneMark} (\\d+)\\n`).exec(since);
      if (match) {
        this.read += Buffer.byteLength(since.slice(0, match.index + match[0].length));
        return { output: since.slice(0, match.index), status: Number(match[1]) };
      }
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`command did not finish within ${timeoutMs} ms:\n${command}\n--- output so far:\n${since}`);
      }
      // Most commands finish in well under a second: a short poll keeps the run from waiting on itself.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Ids of the processes still in the shell's group, the shell itself left out. */
  members(): number[] {
    const listing = execFileSync("ps", ["-e", "-o", "pid=,pgid="], { encoding: "utf8" });
    return listing
      .split("\n")
      .map((line) => line.trim().split(/\s+/).map(Number))
      .filter(([pid, pgid]) => pgid === this.group && pid !== this.group)
      .map(([pid]) => pid as number);
  }

  /** Ends the whole group at once (SIGKILL), whatever state it is in. */
  kill(): void {
    try {
      process.kill(-this.group, "SIGKILL");
    } catch {
      // The group is already gone.
    }
  }
}
