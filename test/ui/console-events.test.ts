// The console's change-events page in headless Chromium: it lists the committed changes, newest
// first, and shows a new one while open (the feed's long poll), with no failed request or error.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { expectJson, startTestServer } from "../helpers/test-server.js";
import { ConsolePage, launchChromium } from "./headless-page.js";

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser?.close());

test("Console #/events in headless Chromium → the change events newest first, and a change made while the page is open appears", { timeout: 30_000 }, async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/first/create", {}));
  const consolePage = await ConsolePage.open(browser, `${server.url}/console#/events`);
  t.after(() => consolePage.close());
  const { page } = consolePage;
  const rows = page.locator("main table tbody tr");
  await page.locator("main h2", { hasText: "Change events" }).waitFor();
  await rows.nth(1).waitFor();
  assert.deepEqual(await rows.locator("td:nth-child(3)").allTextContents(), ["default/first", "default"]);
  assert.deepEqual(await rows.locator("td:nth-child(2)").allTextContents(), ["namespace.created", "database.created"]);

  await expectJson(await server.post("/v1/namespace/second/create", {}));
  await page.locator("main table tbody tr td", { hasText: "default/second" }).waitFor({ timeout: 10_000 });
  assert.equal(await rows.first().locator("td:nth-child(3)").textContent(), "default/second", "the newest on top");
  const problems = consolePage.problems();
  assert.deepEqual(problems, { failedRequests: [], httpErrors: [], pageErrors: [], consoleErrors: [] });
});
