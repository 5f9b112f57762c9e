// The console in a real browser: headless Chromium loads the page from a running server and
// its DOM is checked after the scripts ran. Skipped, visibly, where Chromium is not installed.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { quiverVersion } from "../../src/server/version.js";
import { apiKey, startAuthServer } from "../auth/auth-helpers.js";
import { arrowStream } from "../helpers/arrow.js";
import { expectJson, startTestServer } from "../helpers/test-server.js";
import { HeadlessPage, chromiumPath } from "./headless-page.js";

const run = promisify(execFile);

/** The page's DOM once its scripts settled. Asynchronous, so this process's server keeps answering. */
async function renderedDom(url: string): Promise<string> {
  const profile = mkdtempSync(path.join(os.tmpdir(), "quiver-chromium-"));
  try {
    const { stdout } = await run(
      chromiumPath,
      ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", `--user-data-dir=${profile}`, "--virtual-time-budget=5000", "--dump-dom", url],
      { timeout: 60_000, maxBuffer: 8 << 20 },
    );
    return stdout;
  } finally {
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

const skip = existsSync(chromiumPath) ? false : `Chromium is not installed at ${chromiumPath}`;

test("Console in headless Chromium → the namespace tree lists the root's namespaces and tables; the header shows the version", { skip }, async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/alpha/create", {}));
  await expectJson(await server.post("/v1/namespace/beta/create", {}));
  await expectJson(await server.upload("/v1/table/docs/create", arrowStream({ id: Int32Array.from([1, 2, 3]) })));
  const dom = await renderedDom(`${server.url}/console`);
  assert.match(dom, /<a href="#\/ns\/alpha">alpha<\/a>/);
  assert.match(dom, /<a href="#\/ns\/beta">beta<\/a>/);
  assert.match(dom, /href="#\/table\/docs"/);
  assert.ok(dom.includes(`Quiver ${quiverVersion}`), "the header shows /health's version");
  assert.doesNotMatch(dom, /role="alert"/);
});

test("Console in headless Chromium on a table's rows tab → the rows QueryTable answered, decoded in the page", { skip }, async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/shop/create", {}));
  await expectJson(await server.upload("/v1/table/shop%24items/create", arrowStream({ sku: Int32Array.from([7, 8, 9]), label: ["pen", "ink", "nib"] })));
  const dom = await renderedDom(`${server.url}/console#/table/shop/items?tab=rows`);
  assert.match(dom, /First 3 of 3 rows/);
  for (const label of ["pen", "ink", "nib"]) assert.match(dom, new RegExp(`<td>${label}</td>`));
  assert.match(dom, /<td>8<\/td>/);
});

test("Console in headless Chromium against an auth-required server without a key → the tree shows code 16", { skip }, async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const dom = await renderedDom(`${server.url}/console`);
  assert.match(dom, /code 16 \(Unauthenticated\)/);
  assert.ok(dom.includes(`Quiver ${quiverVersion}`), "/health needs no key");
});

test("Console in headless Chromium: an API key entered in the connection form → the tree lists namespaces; the key stays in sessionStorage", { skip }, async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const admin = await apiKey(server, null, "admin");
  await expectJson(await server.post("/v1/namespace/secured/create", {}, { "x-api-key": admin }));
  const page = await HeadlessPage.open(`${server.url}/console`);
  t.after(() => page.close());
  await page.waitFor(`document.querySelector("#tree [role=alert]")?.textContent.includes("code 16")`, "the 401 in the tree");
  assert.equal(await page.evaluate(`document.querySelector("details.connection").open`), true, "a 401 opens the connection settings");
  await page.evaluate(`(() => {
    document.getElementById("api-key").value = ${JSON.stringify(admin)};
    document.getElementById("connection-form").requestSubmit();
  })()`);
  await page.waitFor(`document.querySelector('#tree a[href="#/ns/secured"]')`, "the namespace in the tree");
  assert.equal(await page.evaluate(`sessionStorage.getItem("quiver.console.apiKey")`), admin);
  assert.equal(await page.evaluate(`localStorage.length`), 0);
  assert.doesNotMatch(await page.evaluate<string>(`location.href`), new RegExp(admin));
});

test("Console in headless Chromium: the create form makes a child namespace; dropping a non-empty one shows code 3 and keeps it", { skip }, async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/parent/create", {}));
  const page = await HeadlessPage.open(`${server.url}/console#/ns/parent`);
  t.after(() => page.close());
  await page.waitFor(`document.getElementById("new-namespace-name")`, "the create form");
  await page.evaluate(`(() => {
    document.getElementById("new-namespace-name").value = "kid";
    document.getElementById("new-namespace-properties").value = "owner=ops";
    document.querySelector("#new-namespace-name").form.requestSubmit();
  })()`);
  await page.waitFor(`location.hash === "#/ns/parent/kid" && document.querySelector("main h2")?.textContent === "Namespace parent.kid"`, "the new namespace's page");
  assert.deepEqual(await expectJson(await server.post("/v1/namespace/parent%24kid/describe", {})), { properties: { owner: "ops" } });

  await page.evaluate(`location.hash = "#/ns/parent"`);
  await page.waitFor(`document.querySelector("main h2")?.textContent === "Namespace parent" && document.querySelector("button.danger")`, "the parent's page");
  await page.evaluate(`window.confirm = () => true; document.querySelector("button.danger").click()`);
  const message = await page.waitFor<string>(`document.querySelector("main [role=alert]")?.textContent`, "the drop's error");
  assert.match(message, /code 3 \(NamespaceNotEmpty\)/);
  assert.deepEqual(await expectJson(await server.get("/v1/namespace/parent/list")), { namespaces: ["kid"] });
});

test("Console in headless Chromium: arrow keys move between a table's tabs and load the chosen panel", { skip }, async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.upload("/v1/table/items/create", arrowStream({ n: Int32Array.from([1, 2]) })));
  const page = await HeadlessPage.open(`${server.url}/console#/table/items`);
  t.after(() => page.close());
  await page.waitFor(`document.querySelector("#panel-overview table")`, "the overview");
  await page.evaluate(`document.getElementById("tab-overview").focus()`);
  await page.evaluate(`document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }))`);
  assert.equal(await page.evaluate(`document.activeElement.id`), "tab-versions");
  assert.equal(await page.evaluate(`document.getElementById("panel-overview").hidden`), true);
  await page.waitFor(`document.querySelector("#panel-versions caption")?.textContent === "Versions"`, "the versions panel");
  assert.match(await page.evaluate<string>(`location.hash`), /\?tab=versions$/);
});
