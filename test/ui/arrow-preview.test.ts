// The console previews QueryTable answers with its own Arrow IPC file reader (src/ui/arrow-file.js);
// these tests feed it real answers of a running server and compare with the rows written.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  Bool,
  DateDay,
  Field,
  FixedSizeList,
  Float32,
  Float64,
  Int32,
  Int64,
  List,
  RecordBatchStreamWriter,
  Struct,
  Table,
  TimestampMicrosecond,
  Utf8,
  vectorFromArray,
} from "apache-arrow-21";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";
import { importUiModule } from "./console-assets.js";

const day = 86_400_000;
const base = Date.UTC(2024, 0, 15, 12, 30, 0);

function mixedTable(n: number): Table {
  const ids = Array.from({ length: n }, (_, i) => i);
  return new Table({
    id: vectorFromArray(ids.map(BigInt), new Int64()),
    score: vectorFromArray(ids.map((i) => (i % 4 === 1 ? null : i / 8)), new Float64()),
    name: vectorFromArray(ids.map((i) => (i % 5 === 2 ? null : `name-${i}-é`)), new Utf8()),
    flag: vectorFromArray(ids.map((i) => i % 3 === 0), new Bool()),
    vec: vectorFromArray(ids.map((i) => [i, i + 0.5, -i]), new FixedSizeList(3, new Field("item", new Float32(), true))),
    tags: vectorFromArray(ids.map((i) => Array.from({ length: i % 3 }, (_, k) => i * 10 + k)), new List(new Field("item", new Int32(), true))),
    meta: vectorFromArray(ids.map((i) => ({ x: i * 2, label: `m${i}` })), new Struct([new Field("x", new Int32(), true), new Field("label", new Utf8(), true)])),
    born: vectorFromArray(ids.map((i) => base + i * day), new DateDay()),
    seen: vectorFromArray(ids.map((i) => base + i * 1000), new TimestampMicrosecond()),
  });
}

function streamOf(table: Table): Uint8Array {
  const writer = new RecordBatchStreamWriter();
  for (const batch of table.batches) writer.write(batch);
  writer.finish();
  return writer.toUint8Array(true);
}

test("QueryTable answer decoded by the console's Arrow reader → every column matches the rows written", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const n = 23;
  await expectJson(await server.upload("/v1/table/mixed/create", streamOf(mixedTable(n))));
  const response = await server.post("/v1/table/mixed/query", { k: 50, vector: null });
  assert.equal(response.status, 200);
  const { decodeArrowFile } = await importUiModule("arrow-file.js");
  const decoded = decodeArrowFile(new Uint8Array(await response.arrayBuffer()));

  assert.deepEqual(
    decoded.fields.map((f: { name: string; label: string }) => [f.name, f.label]),
    [
      ["id", "int64"],
      ["score", "float64"],
      ["name", "utf8"],
      ["flag", "bool"],
      ["vec", "fixed_size_list<float32>[3]"],
      ["tags", "list<int32>"],
      ["meta", "struct<x: int32, label: utf8>"],
      ["born", "date32"],
      ["seen", "timestamp[us]"],
    ],
  );
  assert.equal(decoded.rows.length, n);
  const rows = [...decoded.rows].sort((a: unknown[], b: unknown[]) => Number(a[0]) - Number(b[0]));
  rows.forEach((row: unknown[], i: number) => {
    assert.deepEqual(row, [
      BigInt(i),
      i % 4 === 1 ? null : i / 8,
      i % 5 === 2 ? null : `name-${i}-é`,
      i % 3 === 0,
      [i, i + 0.5, -i],
      Array.from({ length: i % 3 }, (_, k) => i * 10 + k),
      { x: i * 2, label: `m${i}` },
      new Date(base + i * day).toISOString().slice(0, 10),
      new Date(base + i * 1000).toISOString(),
    ]);
  });
});

test("QueryTable with a projection and k=5 decoded by the console's reader → 5 rows of the chosen columns", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await expectJson(await server.upload("/v1/table/mixed/create", streamOf(mixedTable(12))));
  const response = await server.post("/v1/table/mixed/query", { k: 5, vector: null, columns: { column_names: ["name", "id"] }, filter: "id >= 4" });
  const { decodeArrowFile } = await importUiModule("arrow-file.js");
  const decoded = decodeArrowFile(new Uint8Array(await response.arrayBuffer()));
  assert.deepEqual(decoded.fields.map((f: { name: string }) => f.name), ["name", "id"]);
  assert.equal(decoded.rows.length, 5);
  for (const [name, id] of decoded.rows) {
    assert.ok(id >= 4n);
    assert.equal(name, Number(id) % 5 === 2 ? null : `name-${id}-é`);
  }
});

test("The console's Arrow reader given an ErrorResponse body → throws, naming the format", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const response = await server.post("/v1/table/missing/query", { k: 50, vector: null });
  const bytes = new TextEncoder().encode(JSON.stringify(await expectError(response, 404, 4)));
  const { decodeArrowFile } = await importUiModule("arrow-file.js");
  assert.throws(() => decodeArrowFile(bytes), /not an Arrow IPC file/);
});
