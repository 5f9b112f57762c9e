// The README, run as a newcomer runs it: the Quick start's `npm start` in a terminal of its own,
// then every other block pasted in order into one shell in the checkout. Each command must exit 0,
// no answer may be an error, every output a comment states must be printed, and the blocks must
// stop everything they start. The run happens in a fresh folder holding the checkout's build and
// packages (links to them), so `./data` and every other path the README names start empty. The
// only rewrites: the fixed ports of the README's `ports` directive move to free ones, so the run
// never meets another server, and a bare `npm install` finds the linked packages in place. (The servers' request lines are quieted with QUIVER_LOG_LEVEL=warn,
// as in the other CLI tests; no answer depends on it.)
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { type Block, checkOutput, readBlocks, scriptExpectations, shellCommands } from "./readme-blocks.js";
import { ShellSession } from "./shell-session.js";

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const readme = readBlocks(readFileSync(path.join(checkout, "README.md"), "utf8"));
/** The port `npm start` serves on when none is given. */
const defaultPort = 2333;
/** The npm on this process's PATH, which the doc test's `npm` hands every command but a bare install. */
function npmPath(): string {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, "npm");
    if (existsSync(candidate)) return candidate;
  }
  throw new Error("npm is not on PATH");
}

/** How a JavaScript block says where it is saved and how it is run. */
const saveLine = /^\/\/ Save as (\S+) in the checkout; run: (.+)$/;

/** The blocks the doc test leaves out, by reason and first command: none of them can run where the tests run. */
const expectedSkips = [
  ["skip (installs packages; runs the whole suite)", "npm install && npm test"],
  ["skip (needs Docker)", "docker build -t quiver ."],
  ["skip (needs Docker Compose)", "docker compose up -d --build"],
  ["skip (needs Kubernetes)", "kubectl create configmap quiver-config --from-file=quiver.toml=deploy/kubernetes/quiver.toml"],
  ["skip (runs the whole suite)", "npm run build"],
  ["skip (needs a second checkout)", "git worktree add ../before <commit> && ln -s \"$PWD/node_modules\" ../before/ && (cd ../before && npx tsc -p tsconfig.json)"],
];

function skipped(): string[][] {
  return readme.blocks.filter((block) => block.directive?.startsWith("skip")).map((block) => [block.directive as string, block.text.split("\n")[0]?.split(/\s+#/)[0]?.trim() ?? ""]);
}

test("README: the blocks left out of the doc test are exactly the package install, the whole suite, Docker, Compose, Kubernetes and the comparison with a second checkout", () => {
  assert.deepEqual(skipped(), expectedSkips);
  for (const block of readme.blocks) {
    assert.ok(["sh", "js", "text"].includes(block.lang), `README line ${block.line}: a block is sh, js (run) or text (shown), not '${block.lang}'`);
    if (block.lang === "js") assert.match(block.text.split("\n")[0] ?? "", saveLine, `README line ${block.line}: a script says where to save it and how to run it`);
  }
});

test("README: the outputs its comments state are read as checks, the merge-insert's 6 updated rows and the client's table names among them", () => {
  const checks = runnable().flatMap((block) => commandsOf(block).flatMap((command) => command.expected));
  for (const check of ['pair:"num_updated_rows":6', 'pair:"namespaces":["eu"]', "line:3", 'line:["lab$runs","people","sales$orders","sales$planned"]', "line:2 2"]) {
    assert.ok(checks.includes(check), `${check} among ${checks.join(" ")}`);
  }
  assert.ok(checkOutput('pair:"location":"az://lake/tables/default/tables/<uuid>.lance"', '{"location":"az://lake/tables/default/tables/0b1c.lance"}'), "<…> stands for any text");
  assert.ok(!checkOutput('pair:"num_updated_rows":3', '{"num_updated_rows":6}'), "a stated count must match");
});

test("README: every fixed port a runnable block uses is listed in its ports directive, so the doc test can move it", () => {
  for (const block of runnable()) {
    for (const match of block.text.matchAll(/(?:127\.0\.0\.1:|localhost:|--port |--blobPort |^port = |pg-data )(\d+)/gm)) {
      assert.ok(readme.ports.includes(Number(match[1])), `README line ${block.line}: port ${match[1]} is not in the ports directive`);
    }
  }
});

test("README: every block run in order on a fresh server exits 0, answers no error, prints what its comments state and leaves no process behind", { timeout: 300_000 }, async (t) => {
  // Never run what must not run here (an `npm install` would write into the checkout's packages).
  assert.deepEqual(skipped(), expectedSkips, "the README marks the blocks that cannot run here");
  assert.ok(readme.ports.includes(defaultPort), "the README's ports directive lists the default port");
  const work = mkdtempSync(path.join(os.tmpdir(), "quiver-readme-"));
  // Open to other users as a checkout is: run as root, the development PostgreSQL runs as `postgres`.
  chmodSync(work, 0o755);
  t.after(() => rmSync(work, { recursive: true, force: true }));
  // The checkout as the reader's shell sees it: the build, the packages, and the npm scripts.
  for (const entry of ["dist", "node_modules", "package.json", "scripts"]) symlinkSync(path.join(checkout, entry), path.join(work, entry));
  // `quiver` is what `npm link` would put on PATH: the built CLI.
  const bin = path.join(work, ".doc-test", "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(bin, "quiver"), `#!/bin/sh\nexec node ${JSON.stringify(path.join(checkout, "dist/src/bin/main.js"))} "$@"\n`);
  chmodSync(path.join(bin, "quiver"), 0o755);
  // `npm install` has nothing to do: the packages and the build are the checkout's, linked in (an
  // install here would write into them). Every other npm command runs as it is.
  writeFileSync(path.join(bin, "npm"), `#!/bin/sh
[ "$1" = install ] && [ $# -eq 1 ] && exit 0
exec ${JSON.stringify(npmPath())} "$@"
`);
  chmodSync(path.join(bin, "npm"), 0o755);

  const ports = new Map<number, number>();
  for (const port of readme.ports) ports.set(port, await freePort());
  const moved = (text: string) => text.replace(/\b\d{4,5}\b/g, (digits) => String(ports.get(Number(digits)) ?? digits));
  const env: NodeJS.ProcessEnv = { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, LANG: "C.UTF-8", QUIVER_LOG_LEVEL: "warn" };

  // The Quick start's server, in a terminal of its own.
  const server = readme.blocks.find((block) => block.directive === "server");
  assert.ok(server, "the Quick start has a server block");
  const serverPort = ports.get(defaultPort) as number;
  const serving = spawn("bash", ["-c", server.text], { cwd: work, env: { ...env, QUIVER_PORT: String(serverPort) }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let serverOutput = "";
  serving.stdout.on("data", (chunk) => (serverOutput += chunk));
  serving.stderr.on("data", (chunk) => (serverOutput += chunk));
  t.after(() => killGroup(serving.pid as number));
  await until(async () => (await fetch(`http://127.0.0.1:${serverPort}/livez`).catch(() => undefined))?.ok === true, 120_000, () => `npm start did not serve:\n${serverOutput}`);

  const shell = new ShellSession(work, env, path.join(work, ".doc-test"));
  t.after(() => shell.kill());
  let stuck: number | undefined;
  for (const block of runnable()) {
    if (block.directive === "server") continue;
    await t.test(`README block at line ${block.line} (${firstLine(block)}) runs as pasted`, async () => {
      assert.equal(stuck, undefined, `the shell is still busy with the block at line ${stuck}`);
      for (const command of commandsOf(block)) {
        stuck = block.line;
        const ran = await shell.run(moved(command.text), 90_000);
        stuck = undefined;
        const shown = `README line ${block.line}, command:\n${command.text}\n--- printed:\n${ran.output}`;
        assert.equal(ran.status, 0, `exits 0; ${shown}`);
        assert.doesNotMatch(ran.output, /\{"code":\d+,"error":/, `answers no error; ${shown}`);
        for (const expected of command.expected) assert.ok(checkOutput(moved(expected), ran.output), `prints ${expected}; ${shown}`);
      }
    });
  }

  const left = await shell.run("jobs -pr", 10_000);
  assert.equal(left.output.trim(), "", "the blocks stopped every background job they started");
  await until(async () => shell.members().length === 0, 20_000, () => `processes the blocks started are still running: ${shell.members().join(", ")}`);
});

/** The blocks the test runs (every sh and js block not skipped), in README order. */
function runnable(): Block[] {
  return readme.blocks.filter((block) => (block.lang === "sh" || block.lang === "js") && !block.directive?.startsWith("skip"));
}

/** The commands a reader runs for a block: a shell block's own, or a script saved and run as its first line says. */
function commandsOf(block: Block): { text: string; expected: string[] }[] {
  if (block.lang === "sh") return shellCommands(block.text);
  const [, file, run] = saveLine.exec(block.text.split("\n")[0] ?? "") as RegExpExecArray;
  const save = `cat > ${file} <<'DOC_TEST_SCRIPT'\n${block.text}\nDOC_TEST_SCRIPT`;
  return [
    { text: save, expected: [] },
    { text: run as string, expected: scriptExpectations(block.text) },
  ];
}

function firstLine(block: Block): string {
  return (block.text.split("\n").find((line) => line.trim() !== "" && !line.startsWith("#") && !line.startsWith("//")) ?? "").slice(0, 60);
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function until(check: () => Promise<boolean>, timeoutMs: number, message: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(message());
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}
