// The console in a real browser: headless Chromium loads the page from a running server, a person's
// clicks and keys drive it, and its DOM is checked. Every test also finds no failed request, no
// HTTP error beyond the ones it expects, and no uncaught exception or console error in the page.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { quiverVersion } from "../../src/server/version.js";
import { addDatabase, apiKey, startAuthServer } from "../auth/auth-helpers.js";
import { arrowStream } from "../helpers/arrow.js";
import { expectJson, startTestServer } from "../helpers/test-server.js";
import { ConsolePage, type HttpError, assertClean, launchChromium, openConsole } from "./headless-page.js";

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser?.close());

const options = { timeout: 30_000 };

test("Console in headless Chromium → the namespace tree lists the root's namespaces and tables; the header shows the version", options, async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/alpha/create", {}));
  await expectJson(await server.post("/v1/namespace/beta/create", {}));
  await expectJson(await server.upload("/v1/table/docs/create", arrowStream({ id: Int32Array.from([1, 2, 3]) })));
  const consolePage = await openConsole(browser, t, `${server.url}/console`);
  const { page } = consolePage;
  const tree = page.locator("#tree");
  await tree.locator("a.table-link").waitFor();
  assert.deepEqual(await tree.locator("a").evaluateAll((links) => links.map((link) => [link.textContent, link.getAttribute("href")])), [
    ["Root namespace", "#/ns/"],
    ["alpha", "#/ns/alpha"],
    ["beta", "#/ns/beta"],
    ["▦docs", "#/table/docs"],
  ]);
  await page.getByText(`Quiver ${quiverVersion}`).waitFor();
  await page.locator("main h2", { hasText: "Root namespace" }).waitFor();
  assert.equal(await page.locator("[role=alert]").count(), 0);
  assertClean(consolePage);
});

test("Console in headless Chromium on a server with managed versioning → the header says so, read from /v1/capabilities", options, async (t) => {
  const server = await startTestServer({ managedVersioning: true });
  t.after(() => server.close());
  const consolePage = await openConsole(browser, t, `${server.url}/console`);
  const { page } = consolePage;
  const header = page.locator("#server-version", { hasText: `Quiver ${quiverVersion} · managed versioning` });
  await header.waitFor();
  assert.match((await header.getAttribute("title")) ?? "", /database default: managed versioning on; credential vending scoped; .*multipart writes on; \d+ operations/);
  assertClean(consolePage);
});

test("Console in headless Chromium on a table's data tab → the rows QueryTable answered, decoded in the page by apache-arrow", options, async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/shop/create", {}));
  await expectJson(await server.upload("/v1/table/shop%24items/create", arrowStream({ sku: Int32Array.from([7, 8, 9]), label: ["pen", "ink", "nib"] })));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/shop/items?tab=data`);
  const { page } = consolePage;
  const preview = page.locator("#panel-data table");
  await preview.waitFor();
  assert.equal(await preview.locator("caption").textContent(), "Rows 1–3 of 3");
  assert.deepEqual(await preview.locator("tbody tr").evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent))), [
    ["1", "7", "pen"],
    ["2", "8", "ink"],
    ["3", "9", "nib"],
  ]);
  assertClean(consolePage);
});

test("Console in headless Chromium against an auth-required server without a key → one prompt for the key (code 16 calls), no error box per refused call", options, async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const consolePage = await openConsole(browser, t, `${server.url}/console`);
  const { page } = consolePage;
  await page.locator("#auth-prompt[role=alert]", { hasText: "This server needs an API key." }).waitFor();
  await page.getByText(`Quiver ${quiverVersion}`).waitFor();
  // Every refused call has answered: the tree's listing and the root page's four reads.
  await page.locator("#tree .needs-key").waitFor();
  await page.locator("main .needs-key").nth(3).waitFor();
  assert.equal(await page.locator("[role=alert]").count(), 1, "one prompt, no red box per refused call");
  assert.equal(await page.locator(".error").count(), 0);
  assert.equal(await page.locator("details.connection").getAttribute("open"), "", "the prompt opens the connection settings");
  assertClean(consolePage, [
    { method: "GET", path: "/v1/namespace/%24/list?limit=100", status: 401 },
    // The root's page: its properties, child namespaces and tables.
    ...unauthorizedRootPage(),
  ]);
});

test("Console in headless Chromium: an API key entered in the connection form → the tree lists namespaces; the key stays in sessionStorage", options, async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const admin = await apiKey(server, null, "admin");
  await expectJson(await server.post("/v1/namespace/secured/create", {}, { "x-api-key": admin }));
  const consolePage = await openConsole(browser, t, `${server.url}/console`);
  const { page } = consolePage;
  await page.locator("#auth-prompt[role=alert]").waitFor();
  assert.equal(await page.locator("details.connection").getAttribute("open"), "", "a 401 opens the connection settings");
  await page.getByLabel("API key").fill(admin);
  await page.getByRole("button", { name: "Save" }).click();
  await page.locator('#tree a[href="#/ns/secured"]').waitFor();
  assert.equal(await page.locator("#auth-prompt").isHidden(), true, "the prompt goes once a key is saved");
  assert.equal(await page.locator("#connection-summary").textContent(), "database default, API key set");
  assert.equal(await page.locator("details.connection").getAttribute("open"), null, "saving closes the connection settings");
  assert.equal(await page.evaluate(() => sessionStorage.getItem("quiver.console.apiKey")), admin);
  assert.equal(await page.evaluate(() => localStorage.length), 0);
  assert.doesNotMatch(page.url(), new RegExp(admin));
  assertClean(consolePage, [{ method: "GET", path: "/v1/namespace/%24/list?limit=100", status: 401 }, ...unauthorizedRootPage()]);
});

test("Console in headless Chromium: the create form makes a child namespace; dropping a non-empty one shows code 3 and keeps it", options, async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/parent/create", {}));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/ns/parent`);
  const { page } = consolePage;
  await page.getByLabel("Name", { exact: true }).fill("kid");
  await page.getByRole("textbox", { name: /^Properties/ }).fill("owner=ops");
  await page.getByRole("button", { name: "Create namespace" }).click();
  await page.locator("main h2", { hasText: "Namespace parent.kid" }).waitFor();
  assert.equal(new URL(page.url()).hash, "#/ns/parent/kid");
  assert.deepEqual(await expectJson(await server.post("/v1/namespace/parent%24kid/describe", {})), { properties: { owner: "ops" } });

  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "parent" }).click();
  await page.locator("main h2", { hasText: /^Namespace parent$/ }).waitFor();
  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Drop namespace" }).click();
  const message = await page.locator("main [role=alert]").textContent();
  assert.match(message ?? "", /code 3 \(NamespaceNotEmpty\)/);
  assert.deepEqual(await expectJson(await server.get("/v1/namespace/parent/list")), { namespaces: ["kid"] });
  assertClean(consolePage, [{ method: "POST", path: "/v1/namespace/parent/drop", status: 409 }]);
});

test("Console in headless Chromium: arrow keys move between a table's tabs and load the chosen panel", options, async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.upload("/v1/table/items/create", arrowStream({ n: Int32Array.from([1, 2]) })));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/items`);
  const { page } = consolePage;
  await page.locator("#panel-overview table").first().waitFor();
  await page.getByRole("tab", { name: "Overview" }).focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.locator(":focus").getAttribute("id"), "tab-data");
  assert.equal(await page.locator("#panel-overview").isHidden(), true);
  await page.locator("#panel-data caption", { hasText: "Rows 1–2 of 2" }).waitFor();
  assert.match(new URL(page.url()).hash, /\?tab=data$/);
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.locator(":focus").getAttribute("id"), "tab-versions");
  await page.locator("#panel-versions caption", { hasText: "Versions" }).waitFor();
  await page.keyboard.press("End");
  assert.equal(await page.locator(":focus").getAttribute("id"), "tab-manage");
  assertClean(consolePage);
});

test("Console in headless Chromium, admin page with a deployment admin key → a database created, a read key made for another shown once and working, then chosen as the connection", options, async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const admin = await apiKey(server, null, "admin");
  await addDatabase(server, "sales");
  const opened = await ConsolePage.open(browser, `${server.url}/console#/admin`, { "quiver.console.apiKey": admin });
  t.after(() => opened.close());
  const { page } = opened;
  await page.locator("main tbody tr", { hasText: "sales" }).waitFor();
  await page.getByLabel("New database name").fill("ops");
  await page.getByRole("button", { name: "Create database" }).click();
  await page.locator("main tbody tr", { hasText: "ops" }).first().waitFor();
  assert.deepEqual((await expectJson(await server.get("/v1/admin/databases", { "x-api-key": admin }))).databases.map((d: { name: string }) => d.name).sort(), ["default", "ops", "sales"]);

  await page.getByRole("button", { name: "API keys of sales" }).click();
  await page.locator("main h3", { hasText: "API keys of database sales" }).waitFor();
  await page.getByLabel("Role").selectOption("read");
  await page.getByLabel("Description").fill("dashboard");
  await page.getByRole("button", { name: "Create API key" }).click();
  const secret = (await page.locator(".new-key code").textContent()) ?? "";
  await page.locator("main tbody tr", { hasText: "dashboard" }).waitFor();
  assert.equal(await expectJson(await server.get("/v1/namespace/%24/list", { "x-api-key": secret, "x-svc-database": "sales" })).then((body) => Array.isArray(body.namespaces)), true);
  assert.equal((await server.get("/v1/namespace/%24/list", { "x-api-key": secret, "x-svc-database": "ops" })).status, 403);

  // Shown once: leaving the page and coming back shows the key in the list, never its secret.
  await page.getByRole("link", { name: "Jobs" }).click();
  await page.getByRole("link", { name: "Admin" }).click();
  await page.locator("main tbody tr", { hasText: "sales" }).waitFor();
  assert.equal(await page.locator(".new-key").count(), 0);
  assert.equal(await page.getByText(secret).count(), 0);

  await page.getByText("Connection:").click();
  await page.locator("#database-names option[value=sales]").waitFor({ state: "attached" });
  await page.getByLabel("Database", { exact: true }).fill("sales");
  await page.getByRole("button", { name: "Save" }).click();
  assert.equal(await page.locator("#connection-summary").textContent(), "database sales, API key set");
  assert.equal(await page.locator("details.connection").getAttribute("open"), null);
  assertClean(opened);
});

/** The root namespace's page on a server that wants a key: each of its four calls is refused. */
function unauthorizedRootPage(): HttpError[] {
  return [
    { method: "POST", path: "/v1/namespace/%24/describe", status: 401 },
    { method: "GET", path: "/v1/namespace/%24/list?limit=100", status: 401 },
    { method: "GET", path: "/v1/namespace/%24/table/list?limit=100", status: 401 },
    { method: "GET", path: "/v1/namespace/%24/tables_needing_maintenance?limit=20", status: 401 },
  ];
}

test("Console in headless Chromium, admin page → the database's audit log, filtered to denied calls, shows only the refused write", options, async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  const admin = await apiKey(server, null, "admin");
  const reader = await apiKey(server, "default", "read");
  await expectJson(await server.post("/v1/namespace/audited/create", {}, { "x-api-key": admin }));
  assert.equal((await server.post("/v1/namespace/refused/create", {}, { "x-api-key": reader })).status, 403);
  const opened = await ConsolePage.open(browser, `${server.url}/console#/admin`, { "quiver.console.apiKey": admin });
  t.after(() => opened.close());
  const { page } = opened;
  const audit = page.getByRole("table", { name: "Audit log of database default", exact: true });
  await audit.locator("tbody tr", { hasText: "CreateNamespace" }).first().waitFor();
  await page.getByLabel("Outcome").selectOption("denied");
  const rows = await audit.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [tr.children[2]?.textContent, tr.children[3]?.textContent, tr.children[4]?.textContent]));
  assert.deepEqual(rows, [["CreateNamespace", "refused", "denied · 403 · code 15"]]);
  await page.getByLabel("Outcome").selectOption("");
  await page.getByLabel("What").fill("audited");
  assert.deepEqual(await audit.locator("tbody tr td:nth-child(4)").allTextContents(), ["audited"]);
  assertClean(opened);
});
