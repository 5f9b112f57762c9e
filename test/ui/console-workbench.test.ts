// The console as a data workbench, driven in headless Chromium as a person would: query, page,
// search and time-travel a table; create tables from files; build an index and follow its job;
// change rows; read the version plot. One server and one browser serve the whole file; every test
// opens its own page and finds no failed request, unexpected HTTP error or console error in it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Field, FixedSizeList, Float32, Int32, Schema, Utf8, vectorFromArray } from "apache-arrow-21";
import { parquetWriteBuffer } from "hyparquet-writer";
import type { Browser, Page } from "playwright-core";
import { arrowStream, readArrow, rowsOf } from "../helpers/arrow.js";
import { type TestServer, expectJson, startTestServer } from "../helpers/test-server.js";
import { schemaBase64 } from "../helpers/views.js";
import { assertClean, launchChromium, openConsole } from "./headless-page.js";

const ROWS = 10_000;
const options = { timeout: 60_000 };

/** Row i's vector: unique per row, so the nearest row to a point near it is known. */
const vectorOf = (i: number) => [i % 100, Math.floor(i / 100), 1, 0];

let browser: Browser;
let server: TestServer;

before(async () => {
  [browser, server] = await Promise.all([launchChromium(), startTestServer()]);
  const ids = Array.from({ length: ROWS }, (_, i) => i);
  await expectJson(await server.upload("/v1/table/points/create", arrowStream({
    id: vectorFromArray(ids, new Int32()),
    label: vectorFromArray(ids.map((i) => (i % 1000 === 7 ? `item ${i} rare zebra` : `item ${i}`)), new Utf8()),
    vec: vectorFromArray(ids.map(vectorOf), new FixedSizeList(4, new Field("item", new Float32(), true))),
  })));
  await expectJson(await server.post("/v1/table/points/create_index", { column: "label", index_type: "FTS" }));
  // history: version 1 has three rows and the tag "first"; version 2 adds two.
  await expectJson(await server.upload("/v1/table/history/create", arrowStream({ n: Int32Array.from([1, 2, 3]) })));
  await expectJson(await server.post("/v1/table/history/tags/create", { tag: "first", version: 1 }));
  await expectJson(await server.upload("/v1/table/history/insert", arrowStream({ n: Int32Array.from([4, 5]) })));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** The grid's header names and its rows' cell texts, after the row-number column. */
async function grid(page: Page): Promise<{ headers: string[]; rows: string[][] }> {
  const table = page.locator("#panel-data table.results");
  const headers = await table.locator("thead th").evaluateAll((cells) => cells.slice(1).map((cell) => cell.firstChild?.textContent ?? ""));
  const rows = await table.locator("tbody tr").evaluateAll((rows) => rows.map((row) => [...row.children].slice(1).map((cell) => cell.textContent ?? "")));
  return { headers, rows };
}

/** The texts of one column of the grid, by header name. */
async function column(page: Page, name: string): Promise<string[]> {
  const { headers, rows } = await grid(page);
  const at = headers.indexOf(name);
  assert.ok(at >= 0, `column ${name} in ${headers.join(", ")}`);
  return rows.map((row) => row[at] as string);
}

const caption = (page: Page, text: string) => page.locator("#panel-data caption", { hasText: text }).waitFor();

test("Data tab on 10,000 rows: a filter, a sort and 100 rows a page → Next and Last page through all 5,000 matches; the plan names the filter", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/points?tab=data`, true);
  const { page } = consolePage;
  await caption(page, "Rows 1–50 of 10,000");
  await page.getByLabel("Filter (SQL predicate)").fill("id >= 5000");
  await page.getByLabel("Sort by").selectOption("id");
  await page.getByLabel("Rows per page").selectOption("100");
  await page.getByRole("button", { name: "Run query" }).click();
  await caption(page, "Rows 1–100 of 5,000");
  assert.deepEqual((await column(page, "id")).slice(0, 3), ["5000", "5001", "5002"]);
  assert.equal(await page.getByText("Page 1 of 50").count(), 2, "the pager above the grid and the one below");
  const pages = page.getByRole("navigation", { name: "Pages, above the results" });

  await pages.getByRole("button", { name: "Next page" }).click();
  await caption(page, "Rows 101–200 of 5,000");
  assert.equal((await column(page, "id"))[0], "5100");
  await page.getByRole("navigation", { name: "Pages, below the results" }).getByRole("button", { name: "Last page" }).click();
  await caption(page, "Rows 4,901–5,000 of 5,000");
  const last = await column(page, "id");
  assert.deepEqual([last.length, last[0], last[99]], [100, "9900", "9999"]);
  assert.equal(await pages.getByRole("button", { name: "Next page" }).isDisabled(), true);

  await page.getByLabel("Sort order").selectOption("desc");
  await page.getByRole("button", { name: "Run query" }).click();
  await caption(page, "Rows 1–100 of 5,000");
  assert.equal((await column(page, "id"))[0], "9999");

  await page.getByRole("button", { name: "Explain plan" }).click();
  const plan = await page.locator(".plan pre").textContent();
  assert.match(plan ?? "", /LanceRead/);
  assert.match(plan ?? "", /id >= Int32\(5000\)/);
  assertClean(consolePage);
});

test("Vector search with a pasted vector → the first hit is the nearest row with its distance; Similar on a row → that row first at distance 0", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/points?tab=data`, true);
  const { page } = consolePage;
  await caption(page, "Rows 1–50 of 10,000");
  await page.getByLabel("Vector search").check();
  await page.getByLabel("Query vector").fill("[42.1, 42.2, 1, 0]");
  await page.getByLabel("Rows per page").selectOption("25");
  await page.getByRole("button", { name: "Run query" }).click();
  await caption(page, "Rows 1–25");
  const ids = await column(page, "id");
  const distances = (await column(page, "_distance")).map(Number);
  assert.equal(ids[0], "4242");
  assert.ok(Math.abs((distances[0] as number) - 0.05) < 1e-4, `distance ${distances[0]}`);
  assert.deepEqual(distances, [...distances].sort((a, b) => a - b), "nearest first");

  const second = ids[1] as string;
  await page.getByRole("button", { name: "Rows similar to row 2", exact: true }).click();
  await page.locator("#panel-data tbody tr:first-child td", { hasText: new RegExp(`^${second}$`) }).waitFor();
  assert.equal((await column(page, "_distance"))[0], "0");
  assert.equal(await page.getByLabel("Query vector").inputValue(), JSON.stringify(vectorOf(Number(second))));
  assertClean(consolePage);
});

test("Full-text search on the FTS-indexed label → only matching rows, highest score first, scores shown", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/points?tab=data`, true);
  const { page } = consolePage;
  await caption(page, "Rows 1–50 of 10,000");
  await page.getByLabel("Full-text search").check();
  await page.getByLabel("Search text").fill("zebra");
  await page.getByRole("button", { name: "Run query" }).click();
  await caption(page, "Rows 1–10");
  const labels = await column(page, "label");
  assert.deepEqual([...labels].sort(), Array.from({ length: 10 }, (_, k) => `item ${k * 1000 + 7} rare zebra`).sort());
  const scores = (await column(page, "_score")).map(Number);
  assert.ok(scores.every((score) => score > 0));
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  assertClean(consolePage);
});

test("Time travel: reading tag first → version 1's three rows; the latest version → five", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/history?tab=data`, true);
  const { page } = consolePage;
  await caption(page, "Rows 1–5 of 5");
  await page.getByLabel("Read", { exact: true }).selectOption({ label: "Tag first (version 1)" });
  await page.getByRole("button", { name: "Run query" }).click();
  await caption(page, "Rows 1–3 of 3");
  assert.deepEqual((await column(page, "n")).sort(), ["1", "2", "3"]);
  await page.getByLabel("Read", { exact: true }).selectOption({ label: "Latest version" });
  await page.getByRole("button", { name: "Run query" }).click();
  await caption(page, "Rows 1–5 of 5");
  assertClean(consolePage);
});

test("Versions tab → the rows plot has one point per version, each titled with that version's row count", options, async (t) => {
  const versions = (await expectJson(await server.post("/v1/table/history/version/list"))).versions as Array<{ version: number }>;
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/history?tab=versions`, true);
  const { page } = consolePage;
  const plot = page.locator('svg[aria-label="Rows per version"]');
  await plot.waitFor();
  const points = await plot.locator("circle").evaluateAll((circles) => circles.map((circle) => [circle.getAttribute("data-x"), circle.textContent]));
  assert.equal(points.length, versions.length);
  assert.deepEqual(points.map(([x]) => Number(x)), versions.map((v) => v.version).sort((a, b) => a - b));
  assert.match(points[0]?.[1] ?? "", /^Version 1 .*: 3 rows(; tagged first)?$/);
  assert.match(points[1]?.[1] ?? "", /^Version 2 .*: 5 rows$/);
  assertClean(consolePage);
});

test("Create a table from a CSV file → it opens on its Data tab with the file's rows, a float vector column and int64 ids", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/ns/`, true);
  const { page } = consolePage;
  const csv = 'id,fruit,embedding\n1,apple,"[0.1, 0.2]"\n2,"pear, green","[0.3, 0.4]"\n3,fig,"[0.5, 0.6]"\n';
  await page.getByLabel("File", { exact: true }).setInputFiles({ name: "fruit basket.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  assert.equal(await page.getByLabel("Table name").inputValue(), "fruit_basket");
  await page.getByRole("button", { name: "Create table" }).click();
  await caption(page, "Rows 1–3 of 3");
  assert.equal(new URL(page.url()).hash, "#/table/fruit_basket?tab=data");
  assert.deepEqual(await column(page, "fruit"), ["apple", "pear, green", "fig"]);
  assert.deepEqual(await column(page, "embedding"), ["[0.1, 0.2]", "[0.3, 0.4]", "[0.5, 0.6]"]);
  await page.locator('#tree a.table-link[href="#/table/fruit_basket"]').waitFor();
  const described = await expectJson(await server.post("/v1/table/fruit_basket/describe?load_detailed_metadata=true", {}));
  assert.deepEqual(described.schema.fields.map((f: { name: string; type: { type: string } }) => [f.name, f.type.type]), [["id", "int64"], ["fruit", "string"], ["embedding", "fixed_size_list"]]);
  assertClean(consolePage);
});

test("Create a table from a Parquet file → read in the page by hyparquet, its rows on the Data tab", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/ns/`, true);
  const { page } = consolePage;
  const parquet = parquetWriteBuffer({ columnData: [{ name: "city", data: ["Oslo", "Lima"], type: "STRING" }, { name: "people", data: [709_000, 10_000_000], type: "INT32" }] });
  await page.getByLabel("File", { exact: true }).setInputFiles({ name: "cities.parquet", mimeType: "application/octet-stream", buffer: Buffer.from(parquet) });
  await page.getByRole("button", { name: "Create table" }).click();
  await caption(page, "Rows 1–2 of 2");
  assert.deepEqual((await grid(page)).rows, [["Oslo", "709000"], ["Lima", "10000000"]]);
  assertClean(consolePage);
});

test("Indexes tab: a BTREE index on id → its job is followed to succeeded, the index is listed covering every row; the Jobs page shows the job", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/points?tab=indexes`, true);
  const { page } = consolePage;
  await page.locator("#panel-indexes caption", { hasText: "Indexes" }).waitFor();
  await page.getByLabel("Column").selectOption("id");
  assert.equal(await page.getByLabel("Index type").inputValue(), "BTREE");
  await page.getByRole("button", { name: "Create index" }).click();
  const watch = page.locator(".job-watch");
  await watch.locator(".badge", { hasText: "succeeded" }).waitFor({ timeout: 30_000 });
  const row = page.locator("#panel-indexes tbody tr", { hasText: "id_idx" });
  await row.waitFor();
  assert.deepEqual(await row.locator("td").evaluateAll((cells) => cells.slice(1, 5).map((cell) => cell.textContent)), ["id", "BTREE", "ready", "10,000"]);
  assert.equal(await page.locator('svg[aria-label^="Index coverage"] text', { hasText: "id_idx" }).count(), 1);

  const jobId = await watch.getAttribute("data-job-id");
  await page.getByRole("link", { name: "Jobs" }).click();
  const jobRow = page.locator("main tbody tr", { has: page.locator(`code[title="${jobId}"]`) });
  await jobRow.locator(".badge", { hasText: "succeeded" }).waitFor();
  assert.equal(await page.locator('svg[aria-label^="Run time"] rect.bar').count() >= 1, true);
  assertClean(consolePage);
});

test("Manage tab: rows added from a JSON lines file, then rows deleted by a predicate → the table holds what is left", options, async (t) => {
  await expectJson(await server.upload("/v1/table/ledger/create", arrowStream({ id: Int32Array.from([1]), memo: ["opening"] })));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/ledger?tab=manage`, true);
  const { page } = consolePage;
  const jsonl = '{"id": 2, "memo": "rent"}\n{"id": 3}\n{"id": 4, "memo": "food"}\n';
  await page.getByLabel("File", { exact: true }).setInputFiles({ name: "more.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(jsonl) });
  await page.getByRole("button", { name: "Add rows" }).click();
  await page.getByText("Added 3 rows; the table is at version 2.").waitFor();
  await page.getByLabel("Predicate").fill("id >= 3");
  await page.getByRole("button", { name: "Delete matching rows" }).click();
  await page.getByText("Deleted 2 rows; the table is at version 3.").waitFor();
  const rows = rowsOf(await readArrow(await server.post("/v1/table/ledger/query", { k: 10, vector: null, order_by: [{ column_name: "id" }] })));
  assert.deepEqual(rows, [{ id: 1, memo: "opening" }, { id: 2, memo: "rent" }]);
  assertClean(consolePage);
});

test("Manage tab: Compact on a table of four small appends → one fragment, every row kept; Clean up versions → the versions before the tagged one gone, the tagged one kept", options, async (t) => {
  await expectJson(await server.upload("/v1/table/appends/create", arrowStream({ id: Int32Array.from([1, 2]) })));
  for (const from of [3, 5, 7]) await expectJson(await server.upload("/v1/table/appends/insert", arrowStream({ id: Int32Array.from([from, from + 1]) })));
  await expectJson(await server.post("/v1/table/appends/tags/create", { tag: "middle", version: 3 }));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/appends?tab=manage`, true);
  const { page } = consolePage;
  await page.getByRole("button", { name: "Compact" }).click();
  await page.getByText(/^Done: 4 → 1 fragments/).waitFor();
  const described = await expectJson(await server.post("/v1/table/appends/describe", {}));
  assert.equal(described.stats.num_fragments, 1);
  const ids = rowsOf(await readArrow(await server.post("/v1/table/appends/query", { k: 100, vector: null, order_by: [{ column_name: "id" }] }))).map((row) => row.id);
  assert.deepEqual(ids, [1, 2, 3, 4, 5, 6, 7, 8]);
  await page.getByLabel("Remove versions older than (days)").fill("0");
  await page.getByRole("button", { name: "Clean up versions" }).click();
  // The tagged version bounds the cleanup: only versions older than it go.
  await page.getByText(/2 old versions removed.*tags middle kept older versions/).waitFor();
  const versions = (await expectJson(await server.post("/v1/table/appends/version/list"))).versions.map((v: { version: number }) => v.version);
  assert.deepEqual(versions.slice(0, 3), [3, 4, 5], `versions 1 and 2 removed, the tagged 3 and later kept: ${versions}`);
  assertClean(consolePage);
});

test("A query the engine refuses → the error names the operation, the code and the server's message", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/history?tab=data`, true);
  const { page } = consolePage;
  await caption(page, "Rows 1–5 of 5");
  await page.getByLabel("Filter (SQL predicate)").fill("no_such_column > 1");
  await page.getByRole("button", { name: "Run query" }).click();
  const alert = page.locator("#panel-data [role=alert]");
  await alert.waitFor();
  const text = (await alert.textContent()) ?? "";
  assert.match(text, /^Querying the table failed: code \d+ \(\w+\)/);
  assert.match(text, /no_such_column/);
  const refused = consolePage.problems().httpErrors.map((error) => `${error.method} ${error.path.split("?")[0]}`).sort();
  assert.deepEqual(refused, ["POST /v1/table/history/count_rows", "POST /v1/table/history/query"]);
});

test("Tags, branches and restore from their tabs: a tag made and deleted, a branch forked, version 1 restored → its rows are the newest again", options, async (t) => {
  await expectJson(await server.upload("/v1/table/journal/create", arrowStream({ n: Int32Array.from([1, 2]) })));
  await expectJson(await server.upload("/v1/table/journal/insert", arrowStream({ n: Int32Array.from([3]) })));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/journal?tab=tags`, true);
  const { page } = consolePage;
  await page.getByLabel("Tag name").fill("before");
  await page.locator("#new-tag-version").fill("1");
  await page.getByRole("button", { name: "Create tag" }).click();
  await page.locator("#panel-tags tbody tr", { hasText: "before" }).waitFor();
  assert.deepEqual(Object.keys((await expectJson(await server.post("/v1/table/journal/tags/list"))).tags), ["before"]);
  await page.getByRole("button", { name: "Delete tag before" }).click();
  await page.locator("#panel-tags", { hasText: "Tags: None." }).waitFor();

  await page.getByRole("tab", { name: "Branches" }).click();
  await page.getByLabel("Branch name").fill("experiment");
  await page.locator("#new-branch-version").fill("1");
  await page.getByRole("button", { name: "Create branch" }).click();
  await page.locator("#panel-branches tbody tr", { hasText: "experiment" }).waitFor();

  await page.getByRole("tab", { name: "Versions" }).click();
  await page.getByRole("button", { name: "Restore version 1" }).click();
  await page.locator("#panel-versions tbody tr:first-child td:first-child", { hasText: /^3$/ }).waitFor();
  assert.equal(await expectJson(await server.post("/v1/table/journal/count_rows", {})), 2);
  await page.getByRole("tab", { name: "Data" }).click();
  await caption(page, "Rows 1–2 of 2");
  assertClean(consolePage);
});

test("Rename and drop from the Manage tab → the page follows the new name; a drop needs the name typed, then the table is gone", options, async (t) => {
  await expectJson(await server.upload("/v1/table/scratch/create", arrowStream({ n: Int32Array.from([1]) })));
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/scratch?tab=manage`, true);
  const { page } = consolePage;
  await page.getByLabel("New name").fill("scratch_two");
  await page.getByRole("button", { name: "Rename table" }).click();
  await page.locator("main h2", { hasText: "Table scratch_two" }).waitFor();
  await page.getByRole("tab", { name: "Manage" }).click();
  await page.getByLabel("Type scratch_two to confirm").fill("scratch");
  await page.getByRole("button", { name: "Drop table" }).click();
  await page.locator("#panel-manage [role=alert]", { hasText: 'type "scratch_two" to confirm' }).waitFor();
  await page.getByLabel("Type scratch_two to confirm").fill("scratch_two");
  await page.getByRole("button", { name: "Drop table" }).click();
  await page.locator("main h2", { hasText: "Root namespace" }).waitFor();
  const tables = (await expectJson(await server.get("/v1/namespace/%24/table/list"))).tables as string[];
  assert.ok(!tables.includes("scratch") && !tables.includes("scratch_two"), tables.join(", "));
  assertClean(consolePage);
});

test("Every tab of a table, the jobs page and the admin page, reached by clicks → each loads with no error", options, async (t) => {
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/points`, true);
  const { page } = consolePage;
  for (const tab of ["Overview", "Data", "Versions", "Tags", "Branches", "Indexes", "Manage"]) {
    await page.getByRole("tab", { name: tab }).click();
    const id = `panel-${tab.toLowerCase()}`;
    // Loaded: no longer busy, and showing more than its "…" placeholder.
    await page.waitForFunction((panelId) => {
      const panel = (globalThis as any).document.getElementById(panelId);
      return panel && !panel.hasAttribute("aria-busy") && panel.textContent !== "" && !panel.textContent.endsWith("…");
    }, id);
    assert.equal(await page.locator(`#${id} [role=alert]`).count(), 0, tab);
  }
  await page.getByRole("link", { name: "Jobs" }).click();
  await page.getByRole("table", { name: "Jobs", exact: true }).waitFor();
  await page.getByRole("link", { name: "Admin" }).click();
  await page.getByRole("region", { name: "API keys of database default", exact: true }).getByText(/^(Key id|None\.)$/).first().waitFor();
  await page.getByRole("table", { name: "Databases", exact: true }).waitFor();
  assert.equal(await page.locator("main [role=alert]").count(), 0);
  assertClean(consolePage);
});

test("Manage tab of a materialized view: Refresh view → its job is followed to succeeded and the view holds the source's rows", options, async (t) => {
  const created = await expectJson(await server.post("/v1/materialized_view/history_copy/create", {
    kind: "query",
    source_query: JSON.stringify({ source: "history", projections: ["n"] }),
    output_schema: schemaBase64(new Schema([new Field("n", new Int32())])),
  }), 201);
  assert.equal(created.job_id ?? null, null, "created without data");
  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/history_copy?tab=manage`, true);
  const { page } = consolePage;
  await page.getByRole("button", { name: "Refresh view" }).click();
  await page.locator(".job-watch .badge", { hasText: "succeeded" }).waitFor({ timeout: 30_000 });
  assert.equal(await expectJson(await server.post("/v1/table/history_copy/count_rows", {})), 5);
  assertClean(consolePage);
});
