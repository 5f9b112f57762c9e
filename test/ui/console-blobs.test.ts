// A blob column in the console, in headless Chromium: the grid shows each blob's type and size (not
// its descriptor), the row panel previews an image, Download saves the exact bytes, and the CSV
// export holds each blob's size and URL.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { crc32, deflateSync } from "node:zlib";
import * as lancedb from "@lancedb/lancedb";
import { Field, Int64, Schema } from "apache-arrow";
import type { Browser } from "playwright-core";
import { startTestServer } from "../helpers/test-server.js";
import { assertClean, launchChromium, openConsole } from "./headless-page.js";

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser?.close());

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid RGB PNG of `width` × `height` red pixels. */
function tinyPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const scanline = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [255, 0, 0]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => scanline)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", pixels), chunk("IEND", Buffer.alloc(0))]);
}

test("Console Data tab of a table with a blob column → the grid shows type and size (null as null), the row panel previews the PNG, Download saves its exact bytes, CSV holds size and URL", { timeout: 60_000 }, async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const png = tinyPng(3, 2);
  const db = await lancedb.connect("db://demo", { apiKey: "any", hostOverride: server.url });
  const schema = new Schema([new Field("id", new Int64()), lancedb.blob("payload")]);
  await db.createTable("media", [png, null, Buffer.alloc(0)].map((payload, id) => ({ id: BigInt(id), payload })), { schema });

  const consolePage = await openConsole(browser, t, `${server.url}/console#/table/media?tab=data`);
  const { page } = consolePage;
  await page.locator("#panel-data caption", { hasText: "Rows 1–3 of 3" }).waitFor();
  const grid = page.locator("#panel-data table.results");
  const headers = await grid.locator("thead th").allInnerTexts();
  assert.ok(headers.some((text) => /^payload\s*Blob$/.test(text.trim())), `headers: ${JSON.stringify(headers)}`);
  const rows = grid.locator("tbody tr");
  const payloadCell = (row: number) => rows.nth(row).locator("td").nth(1);
  await payloadCell(0).locator(".blob-facts", { hasText: "image/png" }).waitFor();
  assert.equal(await payloadCell(0).locator(".blob-facts").textContent(), `image/png · ${png.length} B`);
  assert.equal(await payloadCell(1).textContent(), "null");
  assert.equal(await payloadCell(2).locator(".blob-facts").textContent(), "0 B");
  const gridText = await grid.locator("tbody").innerText();
  for (const descriptorField of ["blob_id", "position", "blob_uri", "kind"]) assert.ok(!gridText.includes(descriptorField), `the grid shows ${descriptorField}`);

  const [saved] = await Promise.all([page.waitForEvent("download"), payloadCell(0).getByRole("button", { name: "Download payload of row 0" }).click()]);
  assert.equal(saved.suggestedFilename(), "media-payload-0.png");
  assert.ok((await readFile((await saved.path()) as string)).equals(png), "the downloaded bytes are the blob's");

  await page.getByRole("button", { name: "Open row 1" }).click();
  const panel = page.locator("dialog.row-panel");
  const image = panel.locator(".blob-preview img");
  await image.waitFor();
  await page.waitForFunction(() => {
    const drawn = (globalThis as any).document.querySelector("dialog.row-panel .blob-preview img");
    return drawn?.complete === true && drawn.naturalWidth > 0;
  });
  assert.deepEqual(await image.evaluate((img: any) => [img.naturalWidth, img.naturalHeight]), [3, 2]);
  const json = JSON.parse((await panel.locator(".row-json pre").textContent()) as string);
  assert.deepEqual(json.payload, { size: png.length, url: `${server.url}/v1/table/media/blob/payload/0/bytes` });
  await panel.getByRole("button", { name: "Close" }).click();

  const [exported] = await Promise.all([page.waitForEvent("download"), page.getByRole("group", { name: "Export the result" }).getByRole("button", { name: "CSV" }).click()]);
  const csv = await readFile((await exported.path()) as string, "utf8");
  const url = (rowId: number) => `${server.url}/v1/table/media/blob/payload/${rowId}/bytes`;
  assert.deepEqual(csv.trimEnd().split("\r\n"), ["id,payload.size,payload.url,_rowid", `0,${png.length},${url(0)},0`, "1,,,1", `2,0,${url(2)},2`]);
  assertClean(consolePage);
});
