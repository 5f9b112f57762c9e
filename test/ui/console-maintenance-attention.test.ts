// The console's "Needs attention" list in headless Chromium: on a namespace's page, the tables of
// its tree whose maintenance is due (here many small fragments under a namespace that turned
// automatic maintenance off), each linking to its table, with what keeps it unmaintained.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { range, rowsTable, streamOf } from "../data/fixtures.js";
import { expectJson, startTestServer } from "../helpers/test-server.js";
import { assertClean, launchChromium, openConsole } from "./headless-page.js";

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser?.close());

test("Console namespace page, a table of 12 small fragments under a namespace with quiver.auto_maintenance=off → listed under Needs attention with its reason and source, linking to the table", { timeout: 60_000 }, async (t) => {
  const server = await startTestServer({ jobs: { pollMs: 20, autoMaintenance: { intervalMs: 100 } } });
  t.after(() => server.close());
  await expectJson(await server.post("/v1/namespace/archive/create", { properties: { "quiver.auto_maintenance": "off" } }));
  await expectJson(await server.post("/v1/namespace/archive$old/create", {}));
  await expectJson(await server.upload("/v1/table/archive$old$fed/create", streamOf(rowsTable([0]))));
  for (const row of range(1, 12)) await expectJson(await server.upload("/v1/table/archive$old$fed/insert", streamOf(rowsTable([row]))));
  await expectJson(await server.upload("/v1/table/archive$tidy/create", streamOf(rowsTable(range(0, 10)))));

  const consolePage = await openConsole(browser, t, `${server.url}/console#/ns/archive`);
  const { page } = consolePage;
  const table = page.getByRole("table", { name: "Needs attention" });
  const rows = table.locator("tbody tr");
  await rows.first().waitFor({ timeout: 20_000 });
  assert.equal(await rows.count(), 1, "the table needing nothing is left out");
  const cells = await rows.first().locator("td").allTextContents();
  assert.equal(cells[0], "archive.old.fed");
  assert.equal(cells[1], "12");
  assert.match(cells[2] ?? "", /compact: 12 small fragments \(threshold 8\)/);
  assert.equal(cells[3], "off (namespace:archive)");
  assert.equal(cells[4], "none");
  await page.locator("main p", { hasText: "2 tables looked at." }).waitFor();

  await rows.first().getByRole("link", { name: "archive.old.fed" }).click();
  await page.locator("main h2", { hasText: "fed" }).waitFor();
  assert.equal(new URL(page.url()).hash, "#/table/archive/old/fed");
  assertClean(consolePage);
});
