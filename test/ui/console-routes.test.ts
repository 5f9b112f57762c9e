// The console's own routes over real HTTP: the page with its Content-Security-Policy, its
// scripts and styles, the redirect from `/`, and auth: the console is open, its API calls are not.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { apiKey, startAuthServer } from "../auth/auth-helpers.js";
import { expectError, expectJson, startTestServer } from "../helpers/test-server.js";
import { uiFolder } from "./console-assets.js";

/** The `src` and `href` values of a page that point at its own assets and libraries. */
function assetUrls(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="(\/console\/(?:assets|vendor)\/[^"]+)"/g)].map((m) => m[1] as string);
}

test("GET /console → 200 HTML with a strict Content-Security-Policy and no inline script, style or handler", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const response = await server.get("/console");
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/html/);
  const policy = response.headers.get("content-security-policy") ?? "";
  for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"]) {
    assert.ok(policy.split("; ").includes(directive), `${directive} in ${policy}`);
  }
  assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|\*/);
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
  const html = await response.text();
  assert.match(html, /^<!doctype html>/i);
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) assert.match(tag, /\ssrc="\/console\/(assets|vendor)\//, `inline script: ${tag}`);
  assert.doesNotMatch(html, /<style\b|\sstyle="|\son[a-z]+="/i);
  assert.deepEqual(assetUrls(html).sort(), ["/console/assets/console.css", "/console/assets/console.js", "/console/vendor/apache-arrow/Arrow.es2015.min.js"]);
});

test("GET of each console asset → 200 with its JavaScript or CSS type; the trailing-slash page too", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const files = readdirSync(uiFolder).filter((name) => name.endsWith(".js") || name.endsWith(".css"));
  assert.ok(files.includes("console.js") && files.includes("arrow.js"));
  for (const name of files) {
    const response = await server.get(`/console/assets/${name}`);
    assert.equal(response.status, 200, name);
    assert.match(response.headers.get("content-type") ?? "", name.endsWith(".js") ? /^text\/javascript/ : /^text\/css/, name);
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    assert.ok((await response.text()).length > 100, name);
  }
  const slashed = await server.get("/console/");
  assert.equal(slashed.status, 200);
  assert.ok(slashed.headers.get("content-security-policy"));
});

test("GET of the console's libraries → the installed apache-arrow bundle and hyparquet modules byte for byte, hyparquet-writer's with hyparquet's bare imports pointed at the served files; other package files → 404", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const require = createRequire(import.meta.url);
  const arrowFolder = path.dirname(require.resolve("apache-arrow"));
  const hyparquetFolder = path.dirname(path.dirname(require.resolve("hyparquet")));
  for (const [url, file] of [
    ["/console/vendor/apache-arrow/Arrow.es2015.min.js", path.join(arrowFolder, "Arrow.es2015.min.js")],
    ["/console/vendor/hyparquet/src/index.js", path.join(hyparquetFolder, "src/index.js")],
    ["/console/vendor/hyparquet/src/read.js", path.join(hyparquetFolder, "src/read.js")],
  ] as const) {
    const response = await server.get(url);
    assert.equal(response.status, 200, url);
    assert.match(response.headers.get("content-type") ?? "", /^text\/javascript/);
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    assert.ok(Buffer.from(await response.arrayBuffer()).equals(readFileSync(file)), url);
  }
  const map = await server.get("/console/vendor/apache-arrow/Arrow.es2015.min.js.map");
  assert.equal(map.status, 200);
  assert.match(map.headers.get("content-type") ?? "", /^application\/json/);
  // hyparquet-writer: its files with the imports of hyparquet pointed at the served copy, nothing
  // else changed, and every import one the browser resolves to a file the server serves.
  const writerFolder = path.join(hyparquetFolder, "../hyparquet-writer/src");
  for (const file of readdirSync(writerFolder).filter((name) => name.endsWith(".js") && name !== "node.js")) {
    const response = await server.get(`/console/vendor/hyparquet-writer/src/${file}`);
    assert.equal(response.status, 200, file);
    const served = await response.text();
    const original = readFileSync(path.join(writerFolder, file), "utf8");
    assert.equal(served, original.replace(/^((?:import|export)\b[^'\n]*from )'hyparquet(\/src\/[a-z]+\.js)?'$/gm, (_all, statement, rest) => `${statement}'/console/vendor/hyparquet${rest ?? "/src/index.js"}'`), file);
    for (const [, specifier] of served.matchAll(/^(?:import|export)\b[^'"\n]*from '([^']+)'/gm)) {
      const url = specifier!.startsWith("./") ? `/console/vendor/hyparquet-writer/src/${specifier!.slice(2)}` : specifier!;
      assert.match(url, /^\/console\/vendor\//, `${file} imports ${specifier}`);
      assert.equal((await server.get(url)).status, 200, `${file} imports ${url}`);
    }
  }
  for (const url of ["/console/vendor/hyparquet-writer/src/node.js", "/console/vendor/hyparquet-writer/package.json", "/console/vendor/apache-arrow/package.json", "/console/vendor/apache-arrow/Arrow.node.mjs", "/console/vendor/hyparquet/src/types.d.ts", "/console/vendor/tslib/tslib.js", "/console/vendor/apache-arrow/..%2F..%2Fpackage.json"]) {
    await expectError(await server.get(url), 404, 0);
  }
});

test("GET of a file that is not a console asset → the server's not-found answer, code 0, nothing read from disk", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  for (const name of ["nope.js", "console.html", "..%2F..%2Fpackage.json", "%2Fetc%2Fpasswd"]) {
    const body = await expectError(await server.get(`/console/assets/${name}`), 404, 0);
    assert.doesNotMatch(body.error, /version|root:/);
  }
});

test("GET / → 302 redirect to /console", async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const response = await fetch(`${server.url}/`, { redirect: "manual" });
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("location"), "/console");
  const followed = await fetch(`${server.url}/`);
  assert.equal(followed.status, 200);
  assert.match(await followed.text(), /<title>Quiver console<\/title>/);
});

test("Auth-required server: the console loads without credentials; its API calls without a key → 401, code 16", async (t) => {
  const server = await startAuthServer();
  t.after(() => server.close());
  assert.equal((await server.get("/console")).status, 200);
  assert.equal((await server.get("/console/assets/api.js")).status, 200);
  assert.equal((await fetch(`${server.url}/`, { redirect: "manual" })).status, 302);
  assert.equal((await server.get("/health")).status, 200);

  await expectError(await server.get("/v1/namespace/%24/list?limit=100"), 401, 16);
  await expectError(await server.post("/v1/jobs/list", { limit: 20 }), 401, 16);
  await expectError(await server.post("/v1/namespace/made/create", { mode: "Create" }), 401, 16);
  await expectError(await server.get("/v1/namespace/%24/list", { "x-api-key": "not-a-key" }), 401, 16);

  // With a key, the same calls are authorized by its role like any other client's.
  const reader = await apiKey(server, null, "read");
  assert.deepEqual(await expectJson(await server.get("/v1/namespace/%24/list?limit=100", { "x-api-key": reader })), { namespaces: [] });
  await expectError(await server.post("/v1/namespace/made/create", { mode: "Create" }, { "x-api-key": reader }), 403, 15);
  const admin = await apiKey(server, null, "admin");
  await expectJson(await server.post("/v1/namespace/made/create", { mode: "Create" }, { "x-api-key": admin }));
  assert.deepEqual(await expectJson(await server.get("/v1/namespace/%24/list?limit=100", { "x-api-key": reader })), { namespaces: ["made"] });
});
