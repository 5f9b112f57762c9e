// The console as a data tool, in headless Chromium against one running server: versions that
// name their operation and mark their tags, exports (CSV, Parquet) equal to the query, hidden and
// resized columns kept per table, the row panel, number alignment, errors that go once a later
// action succeeds, a scheduled job's next run, the tree following the page, and a database home
// whose figures, growth and recent activity are the API's.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { Field, FixedSizeList, Float32, Float64, Int32, Int64, Utf8, vectorFromArray } from "apache-arrow-21";
import { parquetReadObjects } from "hyparquet";
import type { Browser } from "playwright-core";
import { arrowStream, readArrow } from "../helpers/arrow.js";
import { type TestServer, expectJson, startTestServer } from "../helpers/test-server.js";
import { assertClean, launchChromium, openConsole } from "./headless-page.js";

const options = { timeout: 60_000 };

let browser: Browser;
let server: TestServer;

/** Row i of table `shop.items`: every 7th label null, every 5th empty, so both show apart. */
const labelOf = (i: number) => (i % 7 === 3 ? null : i % 5 === 0 ? "" : `item, "${i}"`);
const ITEMS = 120;

before(async () => {
  // Drops are kept an hour, so the home view has dropped tables to offer for undrop.
  [browser, server] = await Promise.all([launchChromium(), startTestServer({ dropRetentionMs: 60 * 60 * 1000 })]);
  // history: v1 create, v2 append, v3 update, v4 restore of v2; tag "golden" on v2.
  await expectJson(await server.upload("/v1/table/history/create", arrowStream({ n: Int32Array.from([1, 2, 3]) })));
  await expectJson(await server.upload("/v1/table/history/insert", arrowStream({ n: Int32Array.from([4]) })));
  await expectJson(await server.post("/v1/table/history/update", { predicate: "n = 1", updates: [["n", "10"]] }));
  await expectJson(await server.post("/v1/table/history/tags/create", { tag: "golden", version: 2 }));
  await expectJson(await server.post("/v1/table/history/restore", { version: 2 }));

  await expectJson(await server.post("/v1/namespace/shop/create", {}));
  const ids = Array.from({ length: ITEMS }, (_, i) => i);
  await expectJson(await server.upload("/v1/table/shop%24items/create", arrowStream({
    id: vectorFromArray(ids, new Int32()),
    label: vectorFromArray(ids.map(labelOf), new Utf8()),
    vec: vectorFromArray(ids.map((i) => [i, 0.5, 0.25, 1, 2, 3, 4, 5]), new FixedSizeList(8, new Field("item", new Float32(), true))),
  })));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("ListTableVersions → each version names the Lance operation that made it: Overwrite, Append, Update, Restore (of version 2)", options, async () => {
  const { versions } = await expectJson(await server.post("/v1/table/history/version/list?descending=true"));
  assert.deepEqual(versions.map((v: { version: number; operation?: string; operation_detail?: string }) => [v.version, v.operation, v.operation_detail]), [
    [4, "Restore", "version 2"],
    [3, "Update", undefined],
    [2, "Append", undefined],
    [1, "Overwrite", undefined],
  ]);
});

test("Versions tab → each version's operation (append, update, restore), its row change, and the tagged version marked in the list and the plot", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/history?tab=versions`, true);
  const { page } = consolePage;
  const rows = page.locator("#panel-versions table tbody tr");
  await rows.first().waitFor();
  const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(0, 5).map((td) => td.textContent)));
  assert.deepEqual(cells.map(([version, , operation, count, change]) => [version, operation, count, change]), [
    ["4", "restore (version 2)", "4", "±0"],
    ["3", "update / merge insert", "4", "±0"],
    ["2tag golden", "append", "4", "+1"],
    ["1", "create / overwrite", "3", ""],
  ]);
  const plot = page.locator('svg[aria-label="Rows per version"]');
  assert.deepEqual(await plot.locator("circle.marked").evaluateAll((circles) => circles.map((c) => c.getAttribute("data-x"))), ["2"]);
  assert.equal(await plot.locator(".mark title").textContent(), "Tag golden");

  await page.getByRole("button", { name: "Compare version 1 with current" }).click();
  const comparison = page.locator(".comparison");
  await comparison.getByText("Rows then").waitFor();
  assert.deepEqual(await comparison.locator("dd").allTextContents(), ["3", "4", "+1"]);
  assert.equal(await comparison.getByText("Same schema.").count(), 1);
  assertClean(consolePage);
});

test("Data tab: Export CSV of a filtered scan spanning three pages → the file holds every matching row, nulls empty and empty strings quoted", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/shop/items?tab=data`, true);
  const { page } = consolePage;
  await page.locator("#panel-data caption", { hasText: `Rows 1–50 of ${ITEMS}` }).waitFor();
  await page.getByLabel("Filter (SQL predicate)").fill("id >= 10");
  await page.getByRole("group", { name: "Columns" }).getByLabel("vec", { exact: true }).uncheck();
  await page.getByRole("button", { name: "Run query" }).click();
  await page.locator("#panel-data caption", { hasText: `Rows 1–50 of ${ITEMS - 10}` }).waitFor();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("group", { name: "Export the result" }).getByRole("button", { name: "CSV" }).click()]);
  assert.equal(download.suggestedFilename(), "items.csv");
  const text = await readFile((await download.path()) as string, "utf8");
  const expected = ["id,label", ...Array.from({ length: ITEMS - 10 }, (_, k) => {
    const label = labelOf(k + 10);
    return `${k + 10},${label === null ? "" : `"${label.replaceAll('"', '""')}"`}`;
  })];
  assert.deepEqual(text.trimEnd().split("\r\n").sort(), expected.sort());
  assertClean(consolePage);
});

test("Data tab: Export CSV of a string column holding =HYPERLINK(…), +1, -2, @SUM(A1) → each written as text (' first, quoted); negative numbers of number columns stay numbers", options, async (t) => {
  await expectJson(await server.upload("/v1/table/shop%24formulas/create", arrowStream({
    n: vectorFromArray([-1, 2, 3, 4], new Int32()),
    price: vectorFromArray([-2.5, 1, 1, 1], new Float64()),
    label: vectorFromArray(['=HYPERLINK("http://example.invalid","open")', "+1", "-2", "@SUM(A1)"], new Utf8()),
  })));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/shop/formulas?tab=data`, true);
  const { page } = consolePage;
  await page.locator("#panel-data caption", { hasText: "Rows 1–4 of 4" }).waitFor();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("group", { name: "Export the result" }).getByRole("button", { name: "CSV" }).click()]);
  const text = await readFile((await download.path()) as string, "utf8");
  assert.deepEqual(text.trimEnd().split("\r\n").sort(), [
    "n,price,label",
    `-1,-2.5,"'=HYPERLINK(""http://example.invalid"",""open"")"`,
    `2,1,"'+1"`,
    `3,1,"'-2"`,
    `4,1,"'@SUM(A1)"`,
  ].sort());
  assertClean(consolePage);
});

test("Data tab: Export Parquet of a scan → the file, read back, holds the query's rows: int64, float64, strings, nulls, and vectors as lists of every value", options, async (t) => {
  const ids = [1, 2, 3, 4];
  await expectJson(await server.upload("/v1/table/shop%24readings/create", arrowStream({
    id: vectorFromArray(ids.map(BigInt), new Int64()),
    price: vectorFromArray([1.5, null, -2.25, 1e6], new Float64()),
    label: vectorFromArray(["a", "", null, "d, \"e\""], new Utf8()),
    vec: vectorFromArray(ids.map((i) => [i, 0.5, -0.25, 8]), new FixedSizeList(4, new Field("item", new Float32(), true))),
  })));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/shop/readings?tab=data`, true);
  const { page } = consolePage;
  await page.locator("#panel-data caption", { hasText: "Rows 1–4 of 4" }).waitFor();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("group", { name: "Export the result" }).getByRole("button", { name: "Parquet" }).click()]);
  assert.equal(download.suggestedFilename(), "readings.parquet");
  const file = await readFile((await download.path()) as string);
  const read = await parquetReadObjects({ file: file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer });

  const queried = (await readArrow(await server.post("/v1/table/shop%24readings/query", { k: 10, vector: null }))).toArray().map((row) => {
    const plain = row.toJSON();
    return { ...plain, vec: Array.from(plain.vec as Iterable<number>) };
  });
  assert.deepEqual(read, queried);
  assert.deepEqual(read[1], { id: 2n, price: null, label: "", vec: [2, 0.5, -0.25, 8] });
  assert.equal(read[2]?.label, null);
  assertClean(consolePage);
});

test("Data tab: Grid columns menu hides label → it leaves the grid and the CSV export; a dragged header edge widens id; both kept after a reload; Enter on a cell opens its row", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/shop/items?tab=data`, true);
  const { page } = consolePage;
  const grid = page.locator("#panel-data table.results");
  await grid.locator("caption", { hasText: `Rows 1–50 of ${ITEMS}` }).waitFor();
  const headerNames = () => grid.locator("thead th").evaluateAll((ths) => ths.map((th) => th.firstChild?.textContent ?? ""));
  assert.deepEqual((await headerNames()).slice(2), ["id", "label", "vec"]);

  await page.locator(".columns-menu summary").click();
  await page.getByRole("group", { name: "Shown columns" }).getByLabel("label", { exact: true }).uncheck();
  assert.deepEqual((await headerNames()).slice(2), ["id", "vec"]);
  assert.equal(await page.locator(".columns-menu summary").textContent(), "Grid columns (1 hidden)");
  await page.keyboard.press("Escape");
  assert.equal(await page.locator(".columns-menu").getAttribute("open"), null, "Escape closes the menu");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("group", { name: "Export the result" }).getByRole("button", { name: "CSV" }).click()]);
  const lines = (await readFile((await download.path()) as string, "utf8")).trimEnd().split("\r\n");
  assert.equal(lines[0], "id,vec");
  assert.equal(lines.length, ITEMS + 1);
  assert.ok(lines.includes('7,"[7,0.5,0.25,1,2,3,4,5]"'), "a row with its vector as JSON text");

  const idHeader = grid.locator("thead th", { hasText: "id" }).first();
  const before = (await idHeader.boundingBox())?.width ?? 0;
  const handle = page.getByRole("separator", { name: "Resize column id" });
  await handle.scrollIntoViewIfNeeded();
  const edge = (await handle.boundingBox())!;
  await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
  await page.mouse.down();
  await page.mouse.move(edge.x + edge.width / 2 + 120, edge.y + edge.height / 2, { steps: 4 });
  await page.mouse.up();
  const widened = (await idHeader.boundingBox())?.width ?? 0;
  assert.ok(widened >= before + 100, `${before} → ${widened} px`);

  await page.reload();
  await grid.locator("caption", { hasText: `Rows 1–50 of ${ITEMS}` }).waitFor();
  assert.deepEqual((await headerNames()).slice(2), ["id", "vec"], "the hidden column stays hidden");
  assert.ok(Math.abs(((await idHeader.boundingBox())?.width ?? 0) - widened) <= 1, "the width is kept");

  await grid.locator("tbody tr").nth(4).locator("td").nth(1).click();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.getByRole("dialog", { name: "Row 6" }).waitFor();
  assertClean(consolePage);
});

test("Data tab: Open row → a panel with every field, the vector summarised, and the row as JSON; numbers right-aligned, null apart from the empty string", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/shop/items?tab=data`, true);
  const { page } = consolePage;
  const grid = page.locator("#panel-data table.results");
  await grid.locator("caption", { hasText: "Rows 1–50" }).waitFor();
  // Cells after the row number: Similar, id, label, vec.
  const cell = (row: number, column: number) => grid.locator("tbody tr").nth(row).locator("td").nth(column);
  assert.equal(await cell(2, 1).textContent(), "2");
  assert.equal(await cell(2, 1).evaluate((td) => (globalThis as any).getComputedStyle(td).textAlign), "right");
  assert.equal(await cell(2, 2).evaluate((td) => (globalThis as any).getComputedStyle(td).textAlign), "left");
  assert.equal(await cell(3, 2).textContent(), "null");
  assert.equal(await cell(5, 2).textContent(), '""');

  // A column resized from the keyboard; arrow keys move between cells.
  const labelHeader = grid.locator("thead th", { hasText: "label" });
  const before = (await labelHeader.boundingBox())?.width ?? 0;
  await page.getByRole("separator", { name: "Resize column label" }).focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  assert.ok(((await labelHeader.boundingBox())?.width ?? 0) >= before + 40, "two steps wider");
  await page.getByRole("button", { name: "Open row 2", exact: true }).focus();
  await page.keyboard.press("ArrowDown");
  assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement.getAttribute("aria-label")), "Open row 3");

  await page.getByRole("button", { name: "Open row 3", exact: true }).click();
  const panel = page.getByRole("dialog", { name: "Row 3" });
  await panel.waitFor();
  assert.deepEqual(await panel.locator("dt").evaluateAll((dts) => dts.map((dt) => dt.firstChild?.textContent)), ["id", "label", "vec"]);
  assert.match((await panel.locator("dd").nth(2).textContent()) ?? "", /^\[2, 0\.5, 0\.25, 1, …\] \(8 values\)/);
  assert.deepEqual(JSON.parse((await panel.locator(".row-json pre").textContent()) ?? ""), { id: 2, label: 'item, "2"', vec: [2, 0.5, 0.25, 1, 2, 3, 4, 5] });
  await page.keyboard.press("Escape");
  await panel.waitFor({ state: "detached" });
  assertClean(consolePage);
});

test("Manage tab: a delete naming no column of the table (code 12), then a compaction that succeeds → the delete's error is gone; its message leaves with the next page", options, async (t) => {
  await expectJson(await server.upload("/v1/table/chores/create", arrowStream({ n: Int32Array.from([1, 2]) })));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/chores?tab=manage`, true);
  const { page } = consolePage;
  await page.getByLabel("Predicate").fill("no_such_column > 1");
  await page.getByRole("button", { name: "Delete matching rows" }).click();
  await page.locator("main [role=alert]", { hasText: "Deleting rows failed: code 12" }).waitFor();
  await page.getByRole("button", { name: "Compact" }).click();
  await page.locator("main [role=status]", { hasText: /^Done: / }).waitFor();
  assert.equal(await page.locator("main [role=alert]").count(), 0, "no stale error after a later success");

  await page.getByRole("tab", { name: "Tags" }).click();
  await page.getByLabel("Tag name").fill("kept");
  await page.getByRole("button", { name: "Create tag" }).click();
  await page.locator("#status", { hasText: "Tag kept created." }).waitFor();
  await page.getByRole("link", { name: "Jobs" }).click();
  await page.locator("main h2", { hasText: "Jobs" }).waitFor();
  assert.equal(await page.locator("#status").textContent(), "", "the status bar's message does not follow to another page");
  assertClean(consolePage, [{ method: "POST", path: "/v1/table/chores/count_rows", status: 404 }]);
});

test("Jobs page: a table on a maintenance schedule → its queued job shows the next run, in about an hour", options, async (t) => {
  await expectJson(await server.upload("/v1/table/tidy/create", arrowStream({ n: Int32Array.from([1]) })));
  const schedule = await expectJson(await server.post("/v1/table/tidy/maintenance_schedule", { interval_seconds: 3600 }));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/jobs`, true);
  const { page } = consolePage;
  const row = page.locator("main tbody tr", { has: page.locator(`code[title="${schedule.job_id}"]`) });
  await row.waitFor();
  assert.match((await row.textContent()) ?? "", /scheduled maintenance|compaction, cleanup and index optimisation every 60 min/);
  assert.match((await row.locator(".next-run").textContent()) ?? "", /^next run in 60 min · .+$/);
  assertClean(consolePage);
});

test("Table page reached by URL → the tree opens its namespace and marks the table as the current page", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/shop/items`, true);
  const { page } = consolePage;
  const link = page.locator('#tree a[aria-current="page"]');
  await link.waitFor();
  assert.equal(await link.getAttribute("href"), "#/table/shop/items");
  assertClean(consolePage);
});

test("Home → every table with the rows, size and version count GetTableStats and ListTableVersions answer, and the totals", options, async (t) => {
  const { tables } = await expectJson(await server.get("/v1/table"));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/home`, true);
  const { page } = consolePage;
  const rows = page.getByRole("region", { name: "Tables", exact: true }).locator("tbody tr");
  await rows.first().waitFor();
  const shown = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(0, 4).map((td) => td.textContent)));
  const expected = [];
  let totalRows = 0;
  for (const id of tables as string[]) {
    const stats = await expectJson(await server.post(`/v1/table/${encodeURIComponent(id)}/stats`, {}));
    const { versions } = await expectJson(await server.post(`/v1/table/${encodeURIComponent(id)}/version/list?descending=true&limit=1`));
    totalRows += stats.num_rows;
    const size = await page.evaluate(`import("/console/assets/dom.js").then((dom) => dom.formatBytes(${stats.total_bytes}))`);
    expected.push([id.split("$").join("."), stats.num_rows.toLocaleString("en-US"), size, String(versions[0].version)]);
  }
  assert.deepEqual(shown, expected);
  const facts = await page.locator("main dl.facts dd").allTextContents();
  assert.deepEqual(facts.slice(0, 2), [String(tables.length), totalRows.toLocaleString("en-US")]);
  assertClean(consolePage);
});

test("Home on a server keeping drops → a dropped table listed with when it goes; Undrop → it is a table again with its rows", options, async (t) => {
  await expectJson(await server.upload("/v1/table/scratch/create", arrowStream({ n: Int32Array.from([1, 2, 3]) })));
  await expectJson(await server.post("/v1/table/scratch/drop"));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/home`, true);
  const { page } = consolePage;
  const dropped = page.getByRole("region", { name: "Dropped tables kept for undrop" }).locator("tbody tr", { hasText: "scratch" });
  await dropped.waitFor();
  await page.getByRole("button", { name: "Undrop scratch" }).click();
  await page.locator("#status", { hasText: "Table scratch restored." }).waitFor();
  await page.getByRole("region", { name: "Tables", exact: true }).locator('a[href="#/table/scratch"]').waitFor();
  assert.equal(await expectJson(await server.post("/v1/table/scratch/count_rows", {})), 3);
  assert.deepEqual((await expectJson(await server.get("/v1/namespace/%24/dropped_tables"))).tables, []);
  assertClean(consolePage);
});

test("Home → recent activity lists an insert and an update with their table and operation; the growth line holds CountTableRows at each version", options, async (t) => {
  await expectJson(await server.upload("/v1/table/activity/create", arrowStream({ n: Int32Array.from([1, 2]) })));
  await expectJson(await server.upload("/v1/table/activity/insert", arrowStream({ n: Int32Array.from([3, 4, 5]) })));
  await expectJson(await server.post("/v1/table/activity/update", { predicate: "n > 3", updates: [["n", "n + 10"]] }));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/home`, true);
  const { page } = consolePage;
  const activity = page.getByRole("region", { name: "Recent activity" }).locator("tbody tr");
  await activity.first().waitFor();
  const newest = await activity.evaluateAll((trs) => trs.slice(0, 3).map((tr) => [...tr.children].slice(1).map((td) => td.textContent)));
  assert.deepEqual(newest, [
    ["activity", "update", "2 updated"],
    ["activity", "insert (append)", "+3 inserted"],
    ["activity", "created", "–"],
  ]);

  const { versions } = await expectJson(await server.post("/v1/table/activity/version/list?descending=true&limit=8"));
  const counts = [];
  for (const v of [...versions].reverse()) counts.push(`v${v.version} ${await expectJson(await server.post("/v1/table/activity/count_rows", { version: v.version }))}`);
  const growth = page.locator("main tbody tr", { has: page.locator('a[href="#/table/activity"]') }).locator("svg.sparkline");
  await growth.waitFor();
  assert.equal(await growth.getAttribute("aria-label"), `Rows by version of activity: ${counts.join(", ")}`);
  assert.equal(counts.length, 3);
  assertClean(consolePage);
});

test("Table overview of a table of 1,500 rows → its row count reads 1,500, as the home view writes it", options, async (t) => {
  await expectJson(await server.upload("/v1/table/tally/create", arrowStream({ n: Int32Array.from({ length: 1500 }, (_, i) => i) })));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/home`, true);
  const { page } = consolePage;
  const homeRow = page.getByRole("table", { name: "Tables", exact: true }).locator("tbody tr", { has: page.locator('a[href="#/table/tally"]') });
  await homeRow.waitFor();
  assert.equal(await homeRow.locator("td").nth(1).textContent(), "1,500");
  await homeRow.getByRole("link", { name: "tally" }).click();
  const rows = page.locator("#panel-overview dl.facts dt", { hasText: /^Rows$/ }).locator("xpath=following-sibling::dd[1]");
  await rows.waitFor();
  assert.equal(await rows.textContent(), "1,500");
  assertClean(consolePage);
});

test("Home → its tables, recent activity and dropped tables are each named by the heading above them, with no visible caption repeating it", options, async (t) => {
  await expectJson(await server.upload("/v1/table/gone/create", arrowStream({ n: Int32Array.from([1]) })));
  await expectJson(await server.post("/v1/table/gone/drop"));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/home`, true);
  const { page } = consolePage;
  for (const name of ["Tables", "Recent activity", "Dropped tables kept for undrop"]) {
    await page.getByRole("table", { name, exact: true }).locator("tbody tr").first().waitFor();
  }
  const repeats = await page.locator("main table").evaluateAll((tables) =>
    tables.flatMap((table) => {
      const heading = table.closest("section")?.querySelector("h3")?.textContent?.trim().toLowerCase();
      const caption = table.querySelector("caption");
      const shown = caption && caption.offsetWidth > 1 && caption.offsetHeight > 1 ? caption.textContent!.trim().toLowerCase() : undefined;
      return heading && shown && (shown.includes(heading) || heading.includes(shown)) ? [`${heading} / ${shown}`] : [];
    }),
  );
  assert.deepEqual(repeats, []);
  assertClean(consolePage);
});

/** A count written as digits alone (1500), not as the console writes counts (1,500); ids and sizes aside. */
const RAW_COUNT = /(?<![\w.,])1500(?![\w,])/;

test("A table of 1,500 rows → home, its namespace, overview, data pages, versions, indexes, the delete confirmation and the events page write 1,500, never 1500", options, async (t) => {
  await expectJson(await server.post("/v1/namespace/counts/create", {}));
  await expectJson(await server.upload("/v1/table/counts%24tally/create", arrowStream({ n: Int32Array.from([]) })));
  await expectJson(await server.upload("/v1/table/counts%24tally/insert", arrowStream({ n: Int32Array.from({ length: 1500 }, (_, i) => i) })));
  await expectJson(await server.post("/v1/table/counts%24tally/create_index", { column: "n", index_type: "BTREE" }));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/home`);
  const { page } = consolePage;
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const noRawCount = async (where: string) => assert.doesNotMatch(await page.locator("main").innerText(), RAW_COUNT, where);

  const homeRow = page.getByRole("table", { name: "Tables", exact: true }).locator("tbody tr", { has: page.locator('a[href="#/table/counts/tally"]') });
  await homeRow.locator("svg.sparkline").waitFor();
  assert.equal(await homeRow.locator("td").nth(1).textContent(), "1,500");
  await page.getByRole("table", { name: "Recent activity", exact: true }).getByText("+1,500 inserted").first().waitFor();
  await noRawCount("home");

  await page.goto(`${server.url}/console#/ns/counts`);
  await page.locator("main").getByRole("link", { name: "tally" }).waitFor();
  await noRawCount("namespace");

  await page.locator("main").getByRole("link", { name: "tally" }).click();
  const rows = page.locator("#panel-overview dl.facts dt", { hasText: /^Rows$/ }).locator("xpath=following-sibling::dd[1]");
  await rows.waitFor();
  assert.equal(await rows.textContent(), "1,500");
  await noRawCount("overview");

  await page.getByRole("tab", { name: "Data" }).click();
  await page.locator("#panel-data caption", { hasText: "Rows 1–50 of 1,500" }).waitFor();
  await page.getByRole("button", { name: "Last page" }).first().click();
  await page.locator("#panel-data caption", { hasText: "Rows 1,451–1,500 of 1,500" }).waitFor();
  await noRawCount("data, last page");

  await page.getByRole("tab", { name: "Versions" }).click();
  await page.locator("#panel-versions tbody tr").first().waitFor();
  // The insert's version, under the index build's.
  const versions = await page.locator("#panel-versions tbody tr").evaluateAll((trs) => trs.map((tr) => [tr.children[3]?.textContent, tr.children[4]?.textContent]));
  assert.ok(versions.some(([count, change]) => count === "1,500" && change === "+1,500"), JSON.stringify(versions));
  await noRawCount("versions");

  await page.getByRole("tab", { name: "Indexes" }).click();
  const index = page.locator("#panel-indexes tbody tr").first();
  await index.waitFor();
  assert.equal(await index.locator("td").nth(4).textContent(), "1,500");
  await noRawCount("indexes");

  await page.getByRole("tab", { name: "Manage" }).click();
  await page.locator("#delete-predicate").fill("n >= 0");
  await page.getByRole("button", { name: "Delete matching rows" }).click();
  await expectDialog(dialogs);
  assert.match(dialogs[0]!, /^Delete the 1,500 rows of counts\.tally/);
  assert.equal(await expectJson(await server.post("/v1/table/counts%24tally/count_rows", {})), 1500);

  await page.goto(`${server.url}/console#/events`);
  await page.locator("main tbody tr", { hasText: "num_inserted_rows" }).first().waitFor();
  assert.match(await page.locator("main tbody tr", { hasText: "counts$tally" }).allInnerTexts().then((texts) => texts.join("\n")), /num_inserted_rows: 1,500/);
  await noRawCount("events");
  assertClean(consolePage);
});

/** Waits until the page has asked its first confirmation. */
async function expectDialog(dialogs: string[]): Promise<void> {
  for (let waited = 0; dialogs.length === 0 && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(dialogs.length, 1);
}

test("Every view (home, a namespace, each table tab, jobs, events, admin) → no table's caption repeats the heading right before it", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/home`);
  const { page } = consolePage;
  const loaded = () =>
    page.waitForFunction(() => {
      const main = (globalThis as any).document.querySelector("main");
      return main.querySelector("h2") && !main.querySelector("[aria-busy]");
    });
  const repeats = () =>
    page.locator("main table").evaluateAll((tables) =>
      tables.flatMap((table) => {
        const words = (text: string | null | undefined) => (text ?? "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
        const caption = words(table.querySelector(":scope > caption")?.textContent);
        const document = (globalThis as any).document;
        const heading = words(document.evaluate("preceding::*[self::h1 or self::h2 or self::h3 or self::h4][1]", table, null, 9, null).singleNodeValue?.textContent);
        return caption && heading && (caption.includes(heading) || heading.includes(caption)) ? [`${heading} / ${caption}`] : [];
      }),
    );
  const views = [
    "#/home",
    "#/ns/shop",
    ...["overview", "data", "versions", "tags", "branches", "indexes"].map((tab) => `#/table/history?tab=${tab}`),
    "#/jobs",
    "#/events",
    "#/admin",
  ];
  const found: string[] = [];
  for (const view of views) {
    await page.goto(`${server.url}/console${view}`);
    await page.waitForTimeout(50);
    await loaded();
    if (view === "#/events") await page.locator("main table").first().waitFor();
    found.push(...(await repeats()).map((repeat) => `${view}: ${repeat}`));
  }
  assert.deepEqual(found, []);
  assertClean(consolePage);
});
