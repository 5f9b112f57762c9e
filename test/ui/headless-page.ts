/**
 * Drives a page in headless Chromium over the DevTools protocol on a pipe (no WebSocket, no
 * dependency): open a URL, evaluate expressions in it, wait for a condition. For the console's
 * browser tests; callers skip when Chromium is not installed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable, Writable } from "node:stream";

export const chromiumPath = "/usr/bin/chromium";

interface Pending {
  resolve(value: any): void;
  reject(error: Error): void;
}

export class HeadlessPage {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private sessionId: string | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
  ) {
    // A browser that fails to start or dies fails every call instead of leaving it hanging.
    const failAll = (reason: string) => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(reason));
      this.pending.clear();
    };
    child.on("error", (error) => failAll(`Chromium failed: ${error.message}`));
    child.on("exit", (code) => failAll(`Chromium exited (${code})`));
    let buffered = "";
    (child.stdio[4] as Readable).on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let end: number;
      while ((end = buffered.indexOf("\0")) >= 0) {
        const message = JSON.parse(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
        if (!waiter) continue;
        this.pending.delete(message.id);
        if (message.error) waiter.reject(new Error(`${message.error.message}`));
        else waiter.resolve(message.result);
      }
    });
  }

  /** Starts Chromium and opens `url` in a fresh profile. */
  static async open(url: string): Promise<HeadlessPage> {
    const profile = mkdtempSync(path.join(os.tmpdir(), "quiver-chromium-"));
    const child = spawn(
      chromiumPath,
      ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-pipe", `--user-data-dir=${profile}`, "about:blank"],
      { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] },
    );
    const page = new HeadlessPage(child, profile);
    const { targetId } = await page.send("Target.createTarget", { url });
    page.sessionId = (await page.send("Target.attachToTarget", { targetId, flatten: true })).sessionId;
    return page;
  }

  private send(method: string, params: Record<string, unknown>): Promise<any> {
    const id = this.nextId++;
    const message = { id, method, params, ...(this.sessionId ? { sessionId: this.sessionId } : {}) };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      (this.child.stdio[3] as Writable).write(`${JSON.stringify(message)}\0`);
    });
  }

  /** The value of `expression` in the page (promises awaited). */
  async evaluate<T = unknown>(expression: string): Promise<T> {
    const answer = await this.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
    if (answer.exceptionDetails) throw new Error(`page threw: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`);
    return answer.result.value as T;
  }

  /** Polls `expression` until it is truthy; throws with `what` after `timeoutMs`. */
  async waitFor<T = unknown>(expression: string, what: string, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await this.evaluate<T>(expression).catch(() => undefined);
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Closes the browser the polite way, then removes its profile (helpers may still be exiting). */
  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.sessionId = undefined;
    const timer = setTimeout(() => this.child.kill(), 5000);
    await Promise.race([this.send("Browser.close", {}).catch(() => undefined), exited]);
    await exited;
    clearTimeout(timer);
    rmSync(this.profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}
