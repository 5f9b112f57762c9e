// The API description: /openapi.json is a valid OpenAPI 3.1 document with a unique operationId
// for every method of every path and examples that fit their schemas; /docs renders it in a
// browser from this server alone.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Browser } from "playwright-core";
import { expectJson, startTestServer, type TestServer } from "../helpers/test-server.js";
import { ConsolePage, launchChromium } from "../ui/headless-page.js";

type Json = Record<string, any>;

let server: TestServer;
let document: Json;

before(async () => {
  server = await startTestServer();
  document = await expectJson(await server.get("/openapi.json"));
});
after(() => server.close());

/** The component a `$ref` names, or the schema itself. */
function resolved(schema: Json): Json | undefined {
  const ref = typeof schema?.$ref === "string" ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  return ref ? document.components.schemas[ref] : schema;
}

/** Every (method, path, operation) of the document. */
function operationsOf(doc: Json): { method: string; path: string; operation: Json }[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method, path, operation: operation as Json })),
  );
}

test("GET /openapi.json validates as an OpenAPI 3.1 document", async () => {
  assert.equal(document.openapi, "3.1.0");
  const validator = new Validator();
  const result = await validator.validate(document);
  assert.equal(validator.version, "3.1");
  assert.deepEqual(result.errors ?? [], []);
  assert.equal(result.valid, true);
});

test("every operationId is unique; the other method of a GET-or-POST operation has its own", () => {
  const ids = operationsOf(document).map(({ operation }) => operation.operationId as string);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  assert.deepEqual(repeated, []);
  assert.equal(document.paths["/v1/table/{id}/count_rows"].post.operationId, "CountTableRows");
  assert.equal(document.paths["/v1/table/{id}/count_rows"].get.operationId, "CountTableRowsGet");
  assert.equal(document.paths["/v1/table/{id}/count_rows"].get.requestBody, undefined, "a GET reads no body");
});

test("the main operations carry examples, and each example fits its schema", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: "doc", components: document.components });
  const schemaOf = (schema: Json) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
  const examples: string[] = [];
  for (const { method, path, operation } of operationsOf(document)) {
    const contents = [operation.requestBody?.content?.["application/json"], ...Object.values(operation.responses as Json).map((r: Json) => r.content?.["application/json"])];
    for (const content of contents) {
      if (content?.example === undefined) continue;
      examples.push(operation.operationId);
      const valid = ajv.validate(schemaOf(content.schema), content.example);
      assert.ok(valid, `${method.toUpperCase()} ${path}: ${ajv.errorsText(ajv.errors)}`);
      // Request models accept unknown fields (clients send extras), so each field is also checked by name.
      const declared = resolved(content.schema)?.properties;
      if (declared && content.example && typeof content.example === "object" && !Array.isArray(content.example)) {
        for (const key of Object.keys(content.example)) assert.ok(key in declared, `${operation.operationId}'s example field '${key}' is declared`);
      }
    }
  }
  for (const id of ["CreateNamespace", "ListTables", "DescribeTable", "QueryTable", "CountTableRows", "CreateTableIndex", "CreateTableTag"]) {
    assert.ok(examples.includes(id), `${id} has an example`);
  }
});

test("GET /docs loads in a browser with no failed request, HTTP error or script error, and lists the operations", async (t) => {
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (error) {
    t.skip(`no headless browser here: ${(error as Error).message}`);
    return;
  }
  t.after(() => browser.close());
  const docs = await ConsolePage.open(browser, `${server.url}/docs`);
  t.after(() => docs.close());
  // The first render lays out every operation of the document: on a loaded machine it takes longer
  // than a click's wait.
  await docs.page.getByText("CreateNamespace", { exact: true }).first().waitFor({ timeout: 30_000 });
  assert.equal(await docs.page.locator(".opblock").count(), operationsOf(document).length);
  const requested = new Set<string>();
  docs.page.on("request", (request) => requested.add(new URL(request.url()).origin));
  await docs.page.getByText("DescribeTable", { exact: true }).first().click();
  await docs.page.locator(".opblock.is-open").first().waitFor();
  assert.deepEqual(docs.problems(), { failedRequests: [], httpErrors: [], pageErrors: [], consoleErrors: [] });
  for (const origin of requested) assert.equal(origin, server.url, "every request goes to this server");
});
